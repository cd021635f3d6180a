import { Link } from 'react-router-dom';
import { specLabels, type FlightDetail, type Review } from '@skyport/shared';
import { AirlineLogo } from '../../../ui/airline-logo.tsx';
import { CountryFlag } from '../../../ui/country-flag.tsx';
import { formatDate, formatPrice, formatTimestamp } from '../../../ui/format.ts';
import { CartIcon, HeartIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { RatingStars } from '../../../ui/rating.tsx';

export interface FlightDetailScreenProps {
  flight: FlightDetail;
  reviews: readonly Review[] | undefined;
  averageRating: number | null;
  showBuyActions: boolean;
  isFavourite: boolean;
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

/** /ticket/{id}: every field of the spec, Add to cart, Go to Home, reviews with the average. */
export function FlightDetailScreen(props: FlightDetailScreenProps) {
  const { flight, reviews, averageRating, showBuyActions, isFavourite } = props;
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
            <Field label={uiLabels.departureHour}>{flight.departureHour}</Field>
            <Field label={uiLabels.arrivalHour}>{flight.arrivalHour}</Field>
            <Field label={uiLabels.origin}>{flight.origin}</Field>
            <Field label={uiLabels.destination}>{flight.destination}</Field>
            <Field label={uiLabels.price} testId="detail-price">
              {formatPrice(flight.priceCents)}
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

      <section
        aria-labelledby="reviews-title"
        className="flex flex-col gap-3"
        data-testid="reviews"
      >
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="reviews-title" className="text-xl font-bold">
            {uiLabels.reviews}
          </h2>
          {averageRating !== null ? (
            <span className="flex items-center gap-2" data-testid="average-rating">
              <span className="sr-only">{uiLabels.averageRating}:</span>
              <RatingStars value={averageRating} />
              <span className="font-semibold">{averageRating.toFixed(1)}</span>
            </span>
          ) : null}
        </div>
        {reviews === undefined ? (
          <span className="loading loading-dots" aria-label={uiLabels.loading} />
        ) : reviews.length === 0 ? (
          <p className="text-base-content/80">{uiLabels.noReviews}</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2">
            {reviews.map((review) => (
              <li key={review.id} className="card card-border bg-base-100" data-testid="review">
                <div className="card-body gap-2 p-4">
                  <div className="flex items-center justify-between gap-2">
                    <p className="font-semibold">{review.name}</p>
                    <RatingStars value={review.rating} size="rating-xs" />
                  </div>
                  <p className="whitespace-pre-line">{review.comment}</p>
                  <p className="text-xs text-base-content/80">
                    {formatTimestamp(review.createdAt)}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
