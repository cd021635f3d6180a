/**
 * Texts of the catalogue screens that the spec has no words for: ours to word (the flight
 * detail's review states and its "this flight" mark). The rest are `uiLabels` (ui/labels.ts) and
 * the spec's own `specLabels` and `messages` of @skyport/shared.
 */
export const catalogLabels = {
  reviewCount: (total: number) => `${total} ${total === 1 ? 'review' : 'reviews'}`,
  reviewsOfAirline: (airline: string, ofThisFlight: number) =>
    `What customers say about ${airline}` +
    (ofThisFlight > 0 ? `, ${ofThisFlight} about this flight` : ''),
  thisFlight: 'This flight',
  showMoreReviews: (more: number) => `Show ${more} more`,
  reviewsNotOnDevice:
    'Not every review is on this device yet, and the server cannot be reached now: the others and the average rating come with the connection.',
  reviewsFailed: 'The reviews could not be read on this device. Reload the page to try again.',
} as const;
