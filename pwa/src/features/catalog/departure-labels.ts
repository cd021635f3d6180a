import type { DepartureFlex } from '@skyport/shared';

/**
 * Texts of the home page's departure-date filter, its lowest-price-per-day strip and the fastest
 * order (decision 016): Skyport's own, the spec has no words for them. Beside `catalogLabels`
 * (labels.ts), which holds the catalogue's other texts of ours.
 */
export const departureLabels = {
  sortFastest: 'Duration (fastest first)',
  departureDate: 'Departure date',
  flexibility: 'How flexible?',
  flex: { 0: 'Exact date', 1: '± 1 day', 3: '± 3 days' } satisfies Record<DepartureFlex, string>,
  flexNeedsDate: 'Applies to the date you choose.',
  clearDate: 'Any date',
  clearDateLabel: 'Clear the departure date',
  daysTitle: 'Lowest price per day',
  cheapestDay: 'Cheapest day',
  noFlightsThatDay: 'No flights',
  chosenDay: 'Your date',
  showDay: (day: string, price: string | undefined) =>
    price === undefined
      ? `${day}: no flights`
      : `${day}: from ${price}. Show the flights of that day`,
} as const;
