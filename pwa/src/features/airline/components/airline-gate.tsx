import { NoticePage } from '../../../ui/notice-page.tsx';
import { airlineLabels } from '../labels.ts';

/** What a guest or a non-airline account sees on an airline screen. */
export function AirlineOnly({ guest }: { guest: boolean }) {
  return (
    <NoticePage
      testId="airline-only"
      logIn={guest ? airlineLabels.logIn : null}
      backHome={airlineLabels.backHome}
    >
      <p className="text-lg">{guest ? airlineLabels.logInAsAirline : airlineLabels.airlineOnly}</p>
    </NoticePage>
  );
}
