import { isFlightAvailable, specLabels, type CartLine, type Totals } from '@skyport/shared';
import { AirlineLogo } from '../../../ui/airline-logo.tsx';
import { ChangeMarker, type ChangeMarkerState } from '../../../ui/change-marker.tsx';
import { formatHour, formatPrice } from '../../../ui/format.ts';
import { uiLabels } from '../../../ui/labels.ts';
import { OrderSummary } from '../../../ui/order-summary.tsx';
import {
  RemoveButton,
  SavedFlightList,
  SavedFlightName,
  SavedFlightPrice,
} from '../../../ui/saved-flight.tsx';

export interface CartScreenProps {
  lines: readonly CartLine[];
  totals: Totals;
  onIncrement: (line: CartLine) => void;
  onDecrement: (line: CartLine) => void;
  onRemove: (line: CartLine) => void;
  onCheckout: () => void;
  /** The sync state of each line's latest change, by flight id (decision 017). */
  changeStates?: ReadonlyMap<string, ChangeMarkerState>;
}

/**
 * /cart: lines with plus, minus and remove, the order summary and the checkout button. A line
 * whose flight was deleted stays, marked "No longer available", with only its remove button; it
 * is not in the totals (the shared `calculateCartTotals`) and checkout leaves it out.
 */
export function CartScreen({
  lines,
  changeStates,
  totals,
  onIncrement,
  onDecrement,
  onRemove,
  onCheckout,
}: CartScreenProps) {
  const unavailable = lines.filter((line) => !isFlightAvailable(line)).length;
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <SavedFlightList
        items={lines}
        emptyText={uiLabels.emptyCart}
        testIds={{ empty: 'cart-empty', list: 'cart-lines', item: 'cart-line' }}
        listClassName="flex flex-col gap-3"
        title={uiLabels.cart}
      >
        {(line, available) => {
          const route = `${line.airlineName}, ${line.origin} → ${line.destination}`;
          return (
            <div className="card-body flex-row flex-wrap items-center gap-3 p-4">
              <AirlineLogo src={line.logo} name={line.airlineName} />
              <div className="min-w-40 flex-1">
                <SavedFlightName
                  airlineName={line.airlineName}
                  available={available}
                  badgeTestId="cart-line-unavailable"
                />
                <p>
                  {line.origin} <span aria-hidden="true">→</span>
                  <span className="sr-only">{uiLabels.to}</span> {line.destination}
                </p>
                <p className="text-sm text-base-content/80">
                  {formatHour(line.departureHour)} – {formatHour(line.arrivalHour)} ·{' '}
                  {formatPrice(line.priceCents)}
                </p>
                <ChangeMarker state={changeStates?.get(line.flightId)} />
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
              <SavedFlightPrice available={available} className="w-28 text-right font-bold">
                {formatPrice(line.priceCents * line.amount)}
              </SavedFlightPrice>
              <RemoveButton
                label={uiLabels.remove(route)}
                onClick={() => onRemove(line)}
                testId="cart-remove"
              />
            </div>
          );
        }}
      </SavedFlightList>
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
