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
      <div
        className="alert alert-info flex-col items-start"
        role="status"
        data-testid="payment-confirming"
      >
        <p className="flex items-center gap-2 font-semibold">
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          {checkoutLabels.confirmingTitle}
        </p>
        <p className="text-sm">
          {online ? checkoutLabels.confirmingText : checkoutLabels.confirmingOffline}
        </p>
        {state.name === 'confirming' && online ? (
          <button type="button" className="btn btn-sm" onClick={onCheckNow} data-testid="check-now">
            {checkoutLabels.checkNow}
          </button>
        ) : null}
      </div>
    );
  }
  if (state.name === 'authenticating') {
    return (
      <div
        className="alert alert-info flex-col items-start"
        role="status"
        data-testid="payment-authenticating"
      >
        <p className="font-semibold">{checkoutLabels.authenticatingTitle}</p>
        <p className="text-sm">{checkoutLabels.authenticatingText}</p>
      </div>
    );
  }
  if (state.name === 'approving') {
    return (
      <div
        className="alert alert-info flex-col items-start"
        role="status"
        data-testid="payment-approving"
      >
        <p className="font-semibold">{checkoutLabels.approvingTitle}</p>
        <p className="text-sm">{checkoutLabels.approvingText}</p>
        {approvalActions}
      </div>
    );
  }
  return null;
}
