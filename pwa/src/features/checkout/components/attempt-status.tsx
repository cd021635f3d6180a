import type { ReactNode } from 'react';
import { useOnline } from '../../../ui/online.ts';
import type { CheckoutState } from '../attempt/attempt-machine.ts';
import { checkoutLabels } from '../labels.ts';

/**
 * Where the attempt stands when it is not simply on its way: being confirmed (no definite answer
 * yet), the card's 3-D Secure step, or the wallet's approval. Read out by screen readers
 * (role="status"), since the bank's and the wallet's windows take the focus away.
 */
export function AttemptStatus({
  state,
  onCheckNow,
  approvalActions,
}: {
  state: CheckoutState;
  onCheckNow: () => void;
  /** The wallet's own way to approve or cancel (test wallet link, PayPal buttons). */
  approvalActions: ReactNode;
}) {
  const online = useOnline();
  const confirming =
    state.name === 'confirming' || (state.name === 'submitting' && state.tries > 0);
  if (confirming) {
    return (
      <StatusAlert
        testId="payment-confirming"
        title={
          <span className="flex items-center gap-2">
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            {checkoutLabels.confirmingTitle}
          </span>
        }
        text={online ? checkoutLabels.confirmingText : checkoutLabels.confirmingOffline}
      >
        {state.name === 'confirming' && online ? (
          <button type="button" className="btn btn-sm" onClick={onCheckNow} data-testid="check-now">
            {checkoutLabels.checkNow}
          </button>
        ) : null}
      </StatusAlert>
    );
  }
  // The bank's 3-D Secure window or the wallet's approval window is open elsewhere.
  if (state.name === 'authenticating' || state.name === 'approving') {
    const approving = state.name === 'approving';
    return (
      <StatusAlert
        testId={approving ? 'payment-approving' : 'payment-authenticating'}
        title={approving ? checkoutLabels.approvingTitle : checkoutLabels.authenticatingTitle}
        text={approving ? checkoutLabels.approvingText : checkoutLabels.authenticatingText}
      >
        {approving ? approvalActions : null}
      </StatusAlert>
    );
  }
  return null;
}

/** One of the attempt's states: its title, what it means, and what the user can do meanwhile. */
function StatusAlert({
  testId,
  title,
  text,
  children,
}: {
  testId: string;
  title: ReactNode;
  text: string;
  children?: ReactNode;
}) {
  return (
    <div className="alert alert-info flex-col items-start" role="status" data-testid={testId}>
      <p className="font-semibold">{title}</p>
      <p className="text-sm">{text}</p>
      {children}
    </div>
  );
}
