import { NoticePage } from '../../../ui/notice-page.tsx';
import { airlineLabels } from '../labels.ts';

/**
 * What a pending airline sees instead of its catalogue and sales: its request waits for an
 * administrator ("Make Admin"). After registering, `justRegistered` adds how to go on.
 */
export function PendingApproval({
  email,
  justRegistered = false,
}: {
  email?: string | null;
  justRegistered?: boolean;
}) {
  return (
    <NoticePage
      testId="pending-approval"
      labelledBy="pending-title"
      width="wide"
      logIn={justRegistered ? airlineLabels.logIn : null}
      backHome={airlineLabels.backHome}
    >
      <div
        className="flex size-20 items-center justify-center rounded-full bg-warning/20 text-warning"
        aria-hidden="true"
      >
        <svg
          viewBox="0 0 24 24"
          className="size-10"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <circle cx="12" cy="12" r="9" />
          <path d="M12 7v5l3 2" />
        </svg>
      </div>
      <h1 id="pending-title" className="text-2xl font-bold">
        {airlineLabels.pendingTitle}
      </h1>
      <p className="text-base-content/80">{airlineLabels.pendingText}</p>
      {justRegistered && email ? (
        <p className="text-base-content/80">{airlineLabels.pendingVerify(email)}</p>
      ) : null}
      {justRegistered ? <p className="text-base-content/80">{airlineLabels.pendingLogIn}</p> : null}
    </NoticePage>
  );
}
