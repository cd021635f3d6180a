/**
 * Texts of the catalogue screens that the spec has no words for: ours to word (the flight
 * detail's review states, its "this flight" mark and its price history). The rest are `uiLabels` (ui/labels.ts) and
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
  // The flight detail's price history (docs/architecture.md §4.9)
  priceHistory: 'Price history',
  priceHistoryCaption: 'The prices this device has seen while the flight is in your favourites.',
  priceHistoryNotFollowed:
    'Save this flight to your favourites and this device will keep a history of its price.',
  priceHistoryEmpty: (price: string, since: string) =>
    `${price} since ${since}. The chart starts with the next price change this device sees.`,
  priceHistoryStarting: 'The chart starts with the next price change this device sees.',
  priceHistoryWhen: 'Seen',
  loadingChart: 'Loading the chart…',
} as const;
