import { randomUUID } from 'node:crypto';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { REVIEWS_PAGE_SIZE, type Review } from '@skyport/shared';
import type { AirlineReviews } from '../data/catalogue.ts';
import { uiLabels } from '../../../ui/labels.ts';
import { catalogLabels } from '../labels.ts';
import { AirlineReviewsSection } from './airline-reviews.tsx';

/** The flight detail's reviews section in each state of its data (data/catalogue.ts). */

const flightId = randomUUID();
const airlineId = randomUUID();

function review(fields: Partial<Review> = {}): Review {
  return {
    id: randomUUID(),
    rating: 4,
    comment: 'Smooth flight',
    name: 'Ana',
    airlineId,
    flightId: randomUUID(),
    orderId: null,
    moreInfo: [{ flightName: 'Aurora Airways', origin: 'Peru', destination: 'Spain' }],
    createdAt: 1_700_000_000_000,
    ...fields,
  };
}

const render = (reviews: AirlineReviews | undefined) =>
  renderToStaticMarkup(
    <AirlineReviewsSection airlineName="Aurora Airways" flightId={flightId} reviews={reviews} />,
  );

/** The names on the review cards, in page order. */
const namesIn = (html: string) =>
  [...html.matchAll(/data-testid="review".*?<p class="font-semibold">([^<]*)</g)].map(
    (match) => match[1],
  );

test("the airline's reviews, this flight's first and marked, with the airline's average", () => {
  const html = render({
    status: 'complete',
    items: [
      review({ name: 'Newest, other flight', rating: 2 }),
      review({ name: 'This flight', flightId, rating: 5 }),
      review({ name: 'Oldest, other flight', rating: 3 }),
    ],
    averageRating: 3.5,
  });
  expect(namesIn(html)).toEqual(['This flight', 'Newest, other flight', 'Oldest, other flight']);
  expect(html.match(/data-testid="this-flight"/g)).toHaveLength(1);
  expect(html).toContain('data-testid="average-rating"');
  expect(html).toContain('3.5');
  expect(html).toContain(catalogLabels.reviewCount(3));
  expect(html).toContain(catalogLabels.reviewsOfAirline('Aurora Airways', 1));
  // The other flights' reviews say which route they are about.
  expect(html).toContain('Peru');
});

test('a page of reviews at a time', () => {
  const items = Array.from({ length: REVIEWS_PAGE_SIZE + 3 }, () => review());
  const html = render({ status: 'complete', items, averageRating: 4 });
  expect(namesIn(html)).toHaveLength(REVIEWS_PAGE_SIZE);
  expect(html).toContain(catalogLabels.showMoreReviews(3));
  expect(html).toContain(catalogLabels.reviewCount(REVIEWS_PAGE_SIZE + 3));
});

test('loading, no reviews, not all on this device, and a failure each say so', () => {
  expect(render(undefined)).toContain(`aria-label="${uiLabels.loading}"`);

  const none = render({ status: 'complete', items: [], averageRating: null });
  expect(none).toContain(uiLabels.noReviews);
  expect(none).not.toContain('average-rating');

  const part = render({ status: 'notOnDevice', items: [review({ flightId })] });
  expect(part).toContain(catalogLabels.reviewsNotOnDevice);
  expect(namesIn(part)).toEqual(['Ana']);
  // No average of a part of the reviews.
  expect(part).not.toContain('average-rating');
  expect(part).not.toContain(uiLabels.noReviews);

  const failed = render({ status: 'failed' });
  expect(failed).toContain(catalogLabels.reviewsFailed);
  expect(failed).toContain('role="alert"');
});
