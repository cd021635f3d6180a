import { Link } from 'react-router-dom';
import { specLabels, type FlightDetail } from '@skyport/shared';
import { AirlineLogo } from '../../../ui/airline-logo.tsx';
import { CountryFlag } from '../../../ui/country-flag.tsx';
import { formatDate, formatHour, formatPrice } from '../../../ui/format.ts';
import { CartIcon, HeartIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { PriceFreshness, type CatalogueFreshness } from '../../../ui/price-freshness.tsx';
import type { PriceHistory } from '../../../lib/price-history.ts';
import type { AirlineReviews } from '../data/catalogue.ts';
import { AirlineReviewsSection } from './airline-reviews.tsx';
import { PriceHistorySection } from './price-history.tsx';

export interface FlightDetailScreenProps {
  flight: FlightDetail;
  /** The airline's reviews (spec §2); undefined while loading. */
  airlineReviews: AirlineReviews | undefined;
  showBuyActions: boolean;
  isFavourite: boolean;
  /** How fresh the local catalogue's price is (null: not known yet, nothing shown). */
  freshness: CatalogueFreshness | null;
  /**
   * The price this device has recorded of the flight while it is a favourite (§4.9); undefined
   * where there is none to show (not a customer, or not read yet).
   */
  priceHistory?: PriceHistory;
  onAddToCart: () => void;
  onAddFavourite: () => void;
}

function Field({
  label,
  children,
  testId,
}: {
  label: string;
  children: React.ReactNode;
  testId?: string;
}) {
  return (
    <div className="flex flex-col">
      <dt className="text-sm text-base-content/80">{label}</dt>
      <dd className="font-semibold" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/**
 * /ticket/{id}: every field of the spec, Add to cart, Go to Home, the airline's reviews with
 * their average.
 */
export function FlightDetailScreen(props: FlightDetailScreenProps) {
  const { flight, airlineReviews, showBuyActions, isFavourite } = props;
  return (
    <div className="flex flex-col gap-6">
      <article className="card card-border bg-base-100 shadow-sm" data-testid="flight-detail">
        <div className="card-body gap-5">
          <header className="flex items-center gap-4">
            <AirlineLogo src={flight.logo} name={flight.airlineName} size="size-16" />
            <div className="min-w-0 flex-1">
              <p className="text-base-content/80">{flight.airlineName}</p>
              <h1 className="text-2xl font-bold">
                <span className="inline-flex items-center gap-2">
                  <CountryFlag country={flight.origin} className="h-4 w-6" />
                  {flight.origin}
                </span>{' '}
                <span aria-hidden="true">→</span> <span className="sr-only">{uiLabels.to}</span>
                <span className="inline-flex items-center gap-2">
                  <CountryFlag country={flight.destination} className="h-4 w-6" />
                  {flight.destination}
                </span>
              </h1>
            </div>
            {showBuyActions ? (
              <button
                type="button"
                className={`btn btn-ghost btn-circle ${isFavourite ? 'text-error' : ''}`}
                aria-label={isFavourite ? uiLabels.inFavourites : uiLabels.addToFavourites}
                aria-pressed={isFavourite}
                disabled={isFavourite}
                onClick={props.onAddFavourite}
                data-testid="favourite-button"
              >
                <HeartIcon filled={isFavourite} className="size-6" />
              </button>
            ) : null}
          </header>
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
            <Field label={uiLabels.airline}>{flight.airlineName}</Field>
            <Field label={uiLabels.departureDate}>{formatDate(flight.departureDate)}</Field>
            <Field label={uiLabels.duration}>{uiLabels.hours(flight.durationEstimated)}</Field>
            <Field label={uiLabels.departureHour}>{formatHour(flight.departureHour)}</Field>
            <Field label={uiLabels.arrivalHour}>{formatHour(flight.arrivalHour)}</Field>
            <Field label={uiLabels.origin}>{flight.origin}</Field>
            <Field label={uiLabels.destination}>{flight.destination}</Field>
            <Field label={uiLabels.price} testId="detail-price">
              {formatPrice(flight.priceCents)}
              <PriceFreshness freshness={props.freshness} className="mt-0.5 font-normal" />
            </Field>
            <Field label={uiLabels.tickets}>
              {flight.soldOut ? uiLabels.soldOut : flight.tickets}
            </Field>
          </dl>
          {flight.description ? (
            <section>
              <h2 className="text-sm text-base-content/80">{uiLabels.description}</h2>
              <p className="whitespace-pre-line">{flight.description}</p>
            </section>
          ) : null}
          <div className="card-actions justify-end">
            <Link to="/" className="btn btn-outline">
              {specLabels.goToHome}
            </Link>
            {showBuyActions ? (
              <button
                type="button"
                className="btn btn-primary"
                disabled={flight.soldOut}
                onClick={props.onAddToCart}
                data-testid="add-to-cart"
              >
                <CartIcon />
                {specLabels.addToCart}
              </button>
            ) : null}
          </div>
        </div>
      </article>

      {props.priceHistory ? (
        <PriceHistorySection history={props.priceHistory} isFavourite={isFavourite} />
      ) : null}

      <AirlineReviewsSection
        key={flight.id}
        airlineName={flight.airlineName}
        flightId={flight.id}
        reviews={airlineReviews}
      />
    </div>
  );
}
