import { useMemo, useState } from 'react';
import { REVIEWS_PAGE_SIZE, type Review } from '@skyport/shared';
import type { AirlineReviews } from '../data/catalogue.ts';
import { formatTimestamp } from '../../../ui/format.ts';
import { uiLabels } from '../../../ui/labels.ts';
import { RatingStars } from '../../../ui/rating.tsx';
import { catalogLabels } from '../labels.ts';

export interface AirlineReviewsSectionProps {
  airlineName: string;
  /** The flight on screen: its reviews come first, marked "This flight". */
  flightId: string;
  /** Undefined while loading (data/catalogue.ts `AirlineReviews`). */
  reviews: AirlineReviews | undefined;
}

/**
 * The flight detail's reviews (spec §2 "the airline's customer reviews with the average
 * rating"): every review of the airline, this flight's first, a page at a time; the average is
 * the airline's, of all its reviews, and shown only when the device has them all.
 */
export function AirlineReviewsSection({
  airlineName,
  flightId,
  reviews,
}: AirlineReviewsSectionProps) {
  const items = reviews && reviews.status !== 'failed' ? reviews.items : NO_REVIEWS;
  const { ordered, ofThisFlight } = useMemo(
    () => thisFlightFirst(items, flightId),
    [items, flightId],
  );
  const [shown, setShown] = useState(REVIEWS_PAGE_SIZE);
  const average = reviews?.status === 'complete' ? reviews.averageRating : null;
  return (
    <section aria-labelledby="reviews-title" className="flex flex-col gap-3" data-testid="reviews">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="reviews-title" className="text-xl font-bold">
          {uiLabels.reviews}
        </h2>
        {average !== null ? (
          <span className="flex items-center gap-2" data-testid="average-rating">
            <span className="sr-only">{uiLabels.averageRating}:</span>
            <RatingStars value={average} />
            <span className="font-semibold">{average.toFixed(1)}</span>
            <span className="text-sm text-base-content/80" data-testid="review-count">
              ({catalogLabels.reviewCount(items.length)})
            </span>
          </span>
        ) : null}
      </div>
      {ordered.length > 0 ? (
        <p className="text-sm text-base-content/80">
          {catalogLabels.reviewsOfAirline(airlineName, ofThisFlight)}
        </p>
      ) : null}
      <ReviewsState reviews={reviews} none={ordered.length === 0} />
      {ordered.length > 0 ? (
        <ul className="grid gap-3 sm:grid-cols-2">
          {ordered.slice(0, shown).map((review) => (
            <ReviewCard
              key={review.id}
              review={review}
              ofThisFlight={review.flightId === flightId}
            />
          ))}
        </ul>
      ) : null}
      {ordered.length > shown ? (
        <button
          type="button"
          className="btn btn-outline btn-sm self-start"
          onClick={() => setShown(shown + REVIEWS_PAGE_SIZE)}
          data-testid="more-reviews"
        >
          {catalogLabels.showMoreReviews(Math.min(REVIEWS_PAGE_SIZE, ordered.length - shown))}
        </button>
      ) : null}
    </section>
  );
}

const NO_REVIEWS: readonly Review[] = [];

/** What the list alone would not say: loading, a failure, missing reviews, none at all. */
function ReviewsState({ reviews, none }: { reviews: AirlineReviews | undefined; none: boolean }) {
  if (reviews === undefined)
    return <span role="status" className="loading loading-dots" aria-label={uiLabels.loading} />;
  switch (reviews.status) {
    case 'failed':
      return (
        <p role="alert" className="alert alert-error" data-testid="reviews-failed">
          {catalogLabels.reviewsFailed}
        </p>
      );
    case 'notOnDevice':
      return (
        <p role="status" className="alert alert-warning" data-testid="reviews-not-on-device">
          {catalogLabels.reviewsNotOnDevice}
        </p>
      );
    case 'complete':
      return none ? <p className="text-base-content/80">{uiLabels.noReviews}</p> : null;
  }
}

/** This flight's reviews, then the airline's others, each newest first (as they come). */
export function thisFlightFirst(
  reviews: readonly Review[],
  flightId: string,
): { ordered: readonly Review[]; ofThisFlight: number } {
  const ofThisFlight = reviews.filter((review) => review.flightId === flightId);
  const others = reviews.filter((review) => review.flightId !== flightId);
  return { ordered: [...ofThisFlight, ...others], ofThisFlight: ofThisFlight.length };
}

function ReviewCard({ review, ofThisFlight }: { review: Review; ofThisFlight: boolean }) {
  const route = review.moreInfo[0];
  return (
    <li
      className={`card card-border bg-base-100 ${ofThisFlight ? 'border-primary' : ''}`}
      data-testid="review"
    >
      <div className="card-body gap-2 p-4">
        <div className="flex items-center justify-between gap-2">
          <p className="font-semibold">{review.name}</p>
          <RatingStars value={review.rating} size="rating-xs" />
        </div>
        {ofThisFlight ? (
          <span className="badge badge-primary badge-sm" data-testid="this-flight">
            {catalogLabels.thisFlight}
          </span>
        ) : route ? (
          // Which of the airline's flights the review is about (spec §3 Review "moreInfo").
          <span className="text-xs text-base-content/80">
            {route.origin} <span aria-hidden="true">→</span>{' '}
            <span className="sr-only">{uiLabels.to} </span>
            {route.destination}
          </span>
        ) : null}
        <p className="whitespace-pre-line">{review.comment}</p>
        <p className="text-xs text-base-content/80">{formatTimestamp(review.createdAt)}</p>
      </div>
    </li>
  );
}
