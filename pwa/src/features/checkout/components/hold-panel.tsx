import { Link } from 'react-router-dom';
import { formatPrice } from '../../../ui/format.ts';
import { formatCountdown, type Requote } from '../hold/hold-clock.ts';
import type { SeatHoldState } from '../hold/seat-hold.ts';
import { checkoutLabels } from '../labels.ts';

/**
 * Above the payment form: the seat hold's countdown (issue 17), what happens at zero (the seats
 * go back on sale, the cart stays, a button holds them again), and a re-quote when the server's
 * price differs from the one the cart showed (old and new totals; nothing is charged until the
 * buyer confirms).
 */
/** An alert's one child, its lines stacked (daisyUI lays an alert's children out in a row). */
const stack = 'flex flex-col items-start gap-2';

export function HoldPanel({
  state,
  leftMs,
  requote,
  onHoldAgain,
  onAcceptRequote,
}: {
  state: SeatHoldState;
  /** What is left of a held hold, by this device's clock. */
  leftMs: number;
  requote: Requote | null;
  onHoldAgain: () => void;
  onAcceptRequote: () => void;
}) {
  if (state.name === 'idle') return null;
  if (state.name === 'holding') {
    return (
      <p className="flex items-center gap-2 text-sm" role="status" data-testid="hold-pending">
        <span className="loading loading-dots" aria-hidden="true" />
        {checkoutLabels.holding}
      </p>
    );
  }
  if (state.name === 'failed') {
    return (
      <div className="alert alert-error" role="alert" data-testid="hold-failed">
        <div className={stack}>
          <p className="font-semibold">{checkoutLabels.holdFailed}</p>
          <p>{state.message}</p>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn btn-sm" onClick={onHoldAgain}>
              {checkoutLabels.retry}
            </button>
            <Link to="/cart" className="btn btn-sm btn-ghost">
              {checkoutLabels.backToCart}
            </Link>
          </div>
        </div>
      </div>
    );
  }
  if (leftMs <= 0) {
    return (
      <div className="alert alert-warning" role="alert" data-testid="hold-expired">
        <div className={stack}>
          <p className="font-semibold">{checkoutLabels.expiredTitle}</p>
          <p>{checkoutLabels.expiredText}</p>
          <button
            type="button"
            className="btn btn-sm btn-primary"
            onClick={onHoldAgain}
            data-testid="hold-again"
          >
            {checkoutLabels.holdAgain}
          </button>
        </div>
      </div>
    );
  }
  return (
    <>
      <div className="rounded-box border border-base-300 bg-base-200 p-3" data-testid="hold-active">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span>{checkoutLabels.heldFor}</span>
          <span
            role="timer"
            aria-live="off"
            className="font-mono text-xl font-bold tabular-nums"
            data-testid="hold-countdown"
          >
            {formatCountdown(leftMs)}
          </span>
        </p>
        <p className="text-sm text-base-content/80">{checkoutLabels.heldText}</p>
      </div>
      {requote ? (
        <div className="alert alert-info" role="alert" data-testid="requote">
          <div className={stack}>
            <p className="font-semibold">{checkoutLabels.requoteTitle}</p>
            <dl className="grid grid-cols-[auto_auto] gap-x-3">
              <dt>{checkoutLabels.requoteOld}</dt>
              <dd className="line-through" data-testid="requote-old">
                {formatPrice(requote.oldTotalCents)}
              </dd>
              <dt>{checkoutLabels.requoteNew}</dt>
              <dd className="font-bold" data-testid="requote-new">
                {formatPrice(requote.newTotalCents)}
              </dd>
            </dl>
            <p className="text-sm">{checkoutLabels.requoteText}</p>
            <button
              type="button"
              className="btn btn-sm btn-primary"
              onClick={onAcceptRequote}
              data-testid="requote-confirm"
            >
              {checkoutLabels.requoteConfirm(formatPrice(requote.newTotalCents))}
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}
