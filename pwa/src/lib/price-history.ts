/**
 * The price history this device keeps of a customer's favourite flights, and how a price drop
 * is told from it (docs/architecture.md §4.9). Pure: no storage, no clock; the caller passes the
 * time. Stored by db/local-state.ts, recorded by features/favourites/data/price-watch.ts.
 */

/** A price seen at a moment: when this device received it (ms since the epoch), in cents. */
export interface PricePoint {
  at: number;
  priceCents: number;
}

/** One flight's prices as this device saw them change, oldest first. */
export type PriceHistory = readonly PricePoint[];

/** The histories of several flights, by flight id. */
export type PriceHistories = Readonly<Record<string, PriceHistory>>;

/** A flight's price went down: from `fromCents` (the last price recorded) to `toCents`. */
export interface PriceDrop {
  flightId: string;
  fromCents: number;
  toCents: number;
  /** When the lower price was recorded. */
  at: number;
}

/** At most this many points per flight: the oldest go first. */
export const PRICE_HISTORY_MAX_POINTS = 50;

/**
 * A flight's history after its price was seen at `at`: unchanged (the same array) when the price
 * is the last one recorded, else with a new last point, keeping the last `maxPoints`. Returns the
 * drop when the new price is lower than the last recorded one (none for a first point).
 */
export function recordPrice(
  history: PriceHistory,
  flightId: string,
  priceCents: number,
  at: number,
  maxPoints: number = PRICE_HISTORY_MAX_POINTS,
): { history: PriceHistory; drop: PriceDrop | null } {
  const last = history.at(-1);
  if (last?.priceCents === priceCents) return { history, drop: null };
  // The device's clock may be set back meanwhile: the points stay in order.
  const point = { at: Math.max(at, last?.at ?? at), priceCents };
  const next = [...history, point].slice(-Math.max(1, maxPoints));
  const drop =
    last && priceCents < last.priceCents
      ? { flightId, fromCents: last.priceCents, toCents: priceCents, at: point.at }
      : null;
  return { history: next, drop };
}

/** The current price of one flight, as the local catalogue has it now. */
export interface SeenPrice {
  flightId: string;
  priceCents: number;
}

/**
 * Records the prices of several flights seen at `at` (see `recordPrice`). `changed` is false
 * when no history moved, so that nothing needs to be written; `drops` are the prices that went
 * down with this sighting, for a notice.
 */
export function recordPrices(
  histories: PriceHistories,
  seen: readonly SeenPrice[],
  at: number,
  maxPoints: number = PRICE_HISTORY_MAX_POINTS,
): { histories: PriceHistories; drops: PriceDrop[]; changed: boolean } {
  const next: Record<string, PriceHistory> = { ...histories };
  const drops: PriceDrop[] = [];
  let changed = false;
  for (const { flightId, priceCents } of seen) {
    const before = next[flightId] ?? [];
    const recorded = recordPrice(before, flightId, priceCents, at, maxPoints);
    if (recorded.history === before) continue;
    next[flightId] = recorded.history;
    changed = true;
    if (recorded.drop) drops.push(recorded.drop);
  }
  return { histories: changed ? next : histories, drops, changed };
}

/** At most this many histories of flights that are no longer favourites are kept. */
export const PRICE_HISTORY_MAX_UNFOLLOWED = 50;

/**
 * The histories without those of flights no longer followed, beyond the `maxUnfollowed` most
 * recently moved: a flight taken out of the favourites and saved again keeps its history, and
 * the document stays bounded (at most 50 points per flight, and followed flights plus these).
 */
export function pruneHistories(
  histories: PriceHistories,
  followed: ReadonlySet<string>,
  maxUnfollowed: number = PRICE_HISTORY_MAX_UNFOLLOWED,
): PriceHistories {
  const unfollowed = Object.entries(histories)
    .filter(([flightId]) => !followed.has(flightId))
    .sort(([, a], [, b]) => (b.at(-1)?.at ?? 0) - (a.at(-1)?.at ?? 0));
  if (unfollowed.length <= maxUnfollowed) return histories;
  const next: Record<string, PriceHistory> = { ...histories };
  for (const [flightId] of unfollowed.slice(maxUnfollowed)) delete next[flightId];
  return next;
}

/**
 * The drop that brought a flight to its current price, if its last change was one: what the
 * favourites' "Price dropped" badge shows until the price changes again.
 */
export function latestPriceDrop(flightId: string, history: PriceHistory): PriceDrop | null {
  const last = history.at(-1);
  const before = history.at(-2);
  if (!last || !before || last.priceCents >= before.priceCents) return null;
  return { flightId, fromCents: before.priceCents, toCents: last.priceCents, at: last.at };
}
