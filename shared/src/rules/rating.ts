import { RATING_MAX, RATING_MIN } from '../constants.ts';

/**
 * The average of review ratings rounded to the nearest half star (spec §9: "average shown with
 * half-step precision"); an exact quarter rounds up (1.25 → 1.5, 4.75 → 5).
 * An empty list gives `null` ("no reviews yet"), never 0, so a screen cannot show a zero-star
 * average that no customer gave.
 * @throws RangeError if a rating is not an integer from 1 to 5.
 */
export function averageRating(ratings: readonly number[]): number | null {
  if (ratings.length === 0) return null;
  let sum = 0;
  for (const rating of ratings) {
    if (!Number.isInteger(rating) || rating < RATING_MIN || rating > RATING_MAX) {
      throw new RangeError(
        `a rating must be an integer from ${RATING_MIN} to ${RATING_MAX}, got ${rating}`,
      );
    }
    sum += rating;
  }
  // Half steps of the mean: 2·sum / n, rounded half up. A tie (x.5) is exact in binary floats.
  return Math.round((2 * sum) / ratings.length) / 2;
}

/** `averageRating` of the `rating` field of reviews (or any objects that have one). */
export function averageRatingOf(reviews: readonly { readonly rating: number }[]): number | null {
  return averageRating(reviews.map((review) => review.rating));
}
