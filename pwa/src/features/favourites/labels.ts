/**
 * Texts of the favourites that the spec has no words for: ours to word (price drops and their
 * notifications). The rest are `uiLabels` (ui/labels.ts) and the spec's own `specLabels` and
 * `messages` of @skyport/shared.
 */
export const favouritesLabels = {
  priceDropped: 'Price dropped',
  /** "$500.00 → $400.00", read out as "from … to …". */
  priceDropFromTo: (from: string, to: string) => `from ${from} to ${to}`,
  priceDropNotice: (route: string, from: string, to: string) =>
    `Price dropped: ${route}, now ${to} (was ${from})`,
  priceDropsNotice: (count: number) => `Prices dropped on ${count} of your favourites`,
  priceDropNotificationTitle: 'Skyport: a favourite is cheaper',
  priceDropsNotificationBody: 'Open your favourites to see the new prices.',
  notifyMe: 'Notify me of price drops',
  notifyMeHint: 'This browser will show a notification when a favourite gets cheaper.',
  notificationsOn: 'Price drop notifications are on in this browser.',
  notificationsBlocked:
    "Notifications are blocked for Skyport in this browser's settings: price drops show here only.",
} as const;
