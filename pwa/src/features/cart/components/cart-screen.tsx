import { isFlightAvailable, specLabels, type CartLine, type Totals } from '@skyport/shared';
import { AirlineLogo } from '../../../ui/airline-logo.tsx';
import { formatPrice } from '../../../ui/format.ts';
import { TrashIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { OrderSummary } from '../../../ui/order-summary.tsx';

export interface CartScreenProps {
  lines: readonly CartLine[];
  totals: Totals;
  onIncrement: (line: CartLine) => void;
  onDecrement: (line: CartLine) => void;
  onRemove: (line: CartLine) => void;
  onCheckout: () => void;
}

/**
 * /cart: lines with plus, minus and remove, the order summary and the checkout button. A line
 * whose flight was deleted stays, marked "No longer available", with only its remove button; it
 * is not in the totals (the shared `calculateCartTotals`) and checkout leaves it out.
 */
export function CartScreen({
  lines,
  totals,
  onIncrement,
  onDecrement,
  onRemove,
  onCheckout,
}: CartScreenProps) {
  const unavailable = lines.filter((line) => !isFlightAvailable(line)).length;
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <section aria-labelledby="cart-title" className="flex flex-col gap-3">
        <h1 id="cart-title" className="text-2xl font-bold">
          {uiLabels.cart}
        </h1>
        {lines.length === 0 ? (
          <p className="text-base-content/80" data-testid="cart-empty">
            {uiLabels.emptyCart}
          </p>
        ) : (
          <ul className="flex flex-col gap-3" data-testid="cart-lines">
            {lines.map((line) => {
              const route = `${line.airlineName}, ${line.origin} → ${line.destination}`;
              const available = isFlightAvailable(line);
              return (
                <li
                  key={line.flightId}
                  className="card card-border bg-base-100"
                  data-testid="cart-line"
                  data-available={available}
                >
                  <div className="card-body flex-row flex-wrap items-center gap-3 p-4">
                    <AirlineLogo src={line.logo} name={line.airlineName} />
                    <div className="min-w-40 flex-1">
                      <p className="flex flex-wrap items-center gap-2 font-semibold">
                        {line.airlineName}
                        {available ? null : (
                          <span
                            className="badge badge-warning font-semibold"
                            data-testid="cart-line-unavailable"
                          >
                            {uiLabels.noLongerAvailable}
                          </span>
                        )}
                      </p>
                      <p>
                        {line.origin} <span aria-hidden="true">→</span>
                        <span className="sr-only">{uiLabels.to}</span> {line.destination}
                      </p>
                      <p className="text-sm text-base-content/80">
                        {line.departureHour} – {line.arrivalHour} · {formatPrice(line.priceCents)}
                      </p>
                    </div>
                    <div className="join" role="group" aria-label={`${uiLabels.tickets}: ${route}`}>
                      <button
                        type="button"
                        className="join-item btn btn-sm"
                        aria-label={uiLabels.decrease(route)}
                        disabled={!available || line.amount <= 1}
                        onClick={() => onDecrement(line)}
                        data-testid="cart-minus"
                      >
                        −
                      </button>
                      <output
                        className="join-item btn btn-sm btn-disabled min-w-10 !text-base-content"
                        aria-live="polite"
                        data-testid="cart-amount"
                      >
                        {line.amount}
                      </output>
                      <button
                        type="button"
                        className="join-item btn btn-sm"
                        aria-label={uiLabels.increase(route)}
                        disabled={!available}
                        onClick={() => onIncrement(line)}
                        data-testid="cart-plus"
                      >
                        +
                      </button>
                    </div>
                    <p
                      className={`w-28 text-right font-bold${available ? '' : ' text-base-content/60 line-through'}`}
                    >
                      {available ? null : (
                        <span className="sr-only">{uiLabels.noLongerAvailable}: </span>
                      )}
                      {formatPrice(line.priceCents * line.amount)}
                    </p>
                    <button
                      type="button"
                      className="btn btn-sm btn-ghost text-error"
                      aria-label={uiLabels.remove(route)}
                      onClick={() => onRemove(line)}
                      data-testid="cart-remove"
                    >
                      <TrashIcon />
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <OrderSummary totals={totals}>
        {unavailable > 0 ? (
          <p
            className="alert alert-warning text-sm"
            role="status"
            data-testid="cart-unavailable-note"
          >
            {uiLabels.unavailableNotInTotal(unavailable)}
          </p>
        ) : null}
        <button
          type="button"
          className="btn btn-primary btn-block"
          disabled={lines.length === unavailable}
          onClick={onCheckout}
          data-testid="checkout"
        >
          {specLabels.checkout}
        </button>
      </OrderSummary>
    </div>
  );
}
