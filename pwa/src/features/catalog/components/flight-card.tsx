import { Link } from 'react-router-dom';
import { LOW_STOCK_THRESHOLD, lowStockWarning, specLabels, type Flight } from '@skyport/shared';
import { AirlineLogo } from '../../../ui/airline-logo.tsx';
import { CountryFlag } from '../../../ui/country-flag.tsx';
import { formatDate, formatHour, formatPrice } from '../../../ui/format.ts';
import { HeartIcon, CartIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { departureLabels } from '../departure-labels.ts';

export interface FlightCardProps {
  flight: Flight;
  /** Guests and customers see the cart and favourite buttons; airlines and admins do not. */
  showBuyActions: boolean;
  isFavourite: boolean;
  /** The flight departs on the cheapest day of a flexible date range (decision 016). */
  cheapestDay?: boolean;
  onAddFavourite: (flight: Flight) => void;
  onAddToCart: (flight: Flight) => void;
}

/** One flight of the home grid: route, date, hours, price, low-stock warning, actions. */
export function FlightCard({
  flight,
  showBuyActions,
  isFavourite,
  cheapestDay = false,
  onAddFavourite,
  onAddToCart,
}: FlightCardProps) {
  const route = `${flight.origin} → ${flight.destination}`;
  return (
    <article
      className="card card-border bg-base-100 shadow-sm transition-shadow hover:shadow-md"
      data-testid="flight-card"
    >
      <div className="card-body gap-3 p-4">
        <div className="flex items-center gap-3">
          <AirlineLogo src={flight.logo} name={flight.airlineName} />
          <div className="min-w-0 flex-1">
            <p className="truncate font-semibold" data-testid="flight-airline">
              {flight.airlineName}
            </p>
            <p className="text-sm text-base-content/80">{formatDate(flight.departureDate)}</p>
          </div>
          {showBuyActions ? (
            <button
              type="button"
              className={`btn btn-ghost btn-circle btn-sm ${isFavourite ? 'text-error' : ''}`}
              aria-label={
                isFavourite ? uiLabels.inFavourites : `${uiLabels.addToFavourites}: ${route}`
              }
              aria-pressed={isFavourite}
              disabled={isFavourite}
              onClick={() => onAddFavourite(flight)}
              data-testid="favourite-button"
            >
              <HeartIcon filled={isFavourite} />
            </button>
          ) : null}
        </div>
        <h3 className="card-title flex-wrap text-base leading-snug">
          <span className="inline-flex items-center gap-1.5">
            <CountryFlag country={flight.origin} />
            <span data-testid="flight-origin">{flight.origin}</span>
          </span>
          <span aria-hidden="true">→</span>
          <span className="sr-only">{uiLabels.to}</span>
          <span className="inline-flex items-center gap-1.5">
            <CountryFlag country={flight.destination} />
            <span data-testid="flight-destination">{flight.destination}</span>
          </span>
        </h3>
        <p className="text-sm">
          {formatHour(flight.departureHour)} – {formatHour(flight.arrivalHour)} ·{' '}
          {uiLabels.hours(flight.durationEstimated)}
        </p>
        {cheapestDay ? (
          <p className="badge badge-success badge-sm h-auto py-0.5" data-testid="cheapest-day">
            {departureLabels.cheapestDay}
          </p>
        ) : null}
        {flight.tickets < LOW_STOCK_THRESHOLD ? (
          <p className="badge badge-warning badge-sm h-auto py-0.5" data-testid="low-stock">
            {lowStockWarning(flight.tickets)}
          </p>
        ) : null}
        <div className="card-actions mt-auto items-center justify-between pt-1">
          <p className="text-xl font-bold text-primary" data-testid="flight-price">
            {formatPrice(flight.priceCents)}
          </p>
          <div className="flex gap-2">
            <Link
              to={`/ticket/${flight.id}`}
              className="btn btn-sm btn-outline"
              aria-label={`${uiLabels.viewDetails}: ${route}`}
            >
              {uiLabels.viewDetails}
            </Link>
            {showBuyActions ? (
              <button
                type="button"
                className="btn btn-sm btn-primary"
                onClick={() => onAddToCart(flight)}
                aria-label={`${specLabels.addToCart}: ${route}`}
                data-testid="add-to-cart"
              >
                <CartIcon className="size-4" />
                <span className="hidden sm:inline">{specLabels.addToCart}</span>
              </button>
            ) : null}
          </div>
        </div>
      </div>
    </article>
  );
}
