import { Link } from 'react-router-dom';
import { airlineLabels } from '../labels.ts';

/** What a guest or a non-airline account sees on an airline screen. */
export function AirlineOnly({ guest }: { guest: boolean }) {
  return (
    <section
      className="mx-auto flex max-w-md flex-col items-center gap-4 py-10 text-center"
      data-testid="airline-only"
    >
      <p className="text-lg">{guest ? airlineLabels.logInAsAirline : airlineLabels.airlineOnly}</p>
      <div className="flex gap-2">
        {guest ? (
          <Link to="/login" className="btn btn-primary">
            {airlineLabels.logIn}
          </Link>
        ) : null}
        <Link to="/" className="btn">
          {airlineLabels.backHome}
        </Link>
      </div>
    </section>
  );
}
