/**
 * Texts of the sync state of changes made on this device (the pending changes page, the markers
 * on items, the navbar's link): Skyport's own words (decision 017).
 */
export const changeLabels = {
  pageTitle: 'Pending changes',
  pageCaption: 'What you changed on this device, and where it stands with the server.',
  needsYou: (count: number) => `${count} need${count === 1 ? 's' : ''} you`,
  nothingPending: 'Nothing is waiting: every change made on this device has reached the server.',
  attention: 'Needs your attention',
  waitingSection: 'Waiting to be sent',
  waitingOffline: 'They are sent as soon as the connection returns.',
  sentSection: 'Sent and accepted',
  waiting: 'Waiting to send',
  waitingSince: (ago: string) => `Waiting to send since ${ago}`,
  sent: (ago: string) => `Sent ${ago}`,
  refused: (reason: string) => `Refused: ${reason}`,
  refusedAt: (ago: string) => `Refused ${ago}`,
  conflict: 'Also changed on another device',
  fix: 'Fix',
  discard: 'Discard',
  discardHint: 'Go back to what the server has',
  gotIt: 'Got it',
  discarded: 'Change discarded',
  kinds: {
    cart: 'Cart',
    favourites: 'Favourites',
    preferences: 'Theme',
    reviewDrafts: 'Review',
  },
  tickets: (count: number) => `${count} ${count === 1 ? 'ticket' : 'tickets'}`,
  removedFromCart: 'removed from the cart',
  inFavourites: 'saved to favourites',
  outOfFavourites: 'removed from favourites',
  theme: (theme: string) => `${theme} theme`,
  reviewRating: (rating: number | null) =>
    rating === null ? 'no rating' : `${rating} out of 5 stars`,
  /** What the server kept when another device changed the same document first. */
  conflictKept: {
    cart: (kept: string, mine: string) =>
      `Your cart was also changed on another device; we kept ${kept} (you had chosen ${mine}).`,
    favourites: (kept: string) =>
      `Your favourites were also changed on another device; we kept this flight ${kept}.`,
    preferences: (kept: string) =>
      `Your theme was also changed on another device; we kept the ${kept}.`,
    reviewDrafts: () =>
      'This review was also changed on another device; we kept the version saved there.',
  },
} as const;
