import { useMemo } from 'react';
import { concatMap, distinctUntilChanged, filter, map, of, switchMap, type Observable } from 'rxjs';
import type { FavouriteDoc, Flight } from '@skyport/shared';
import { readPriceHistories, writePriceHistories } from '../../../db/local-state.ts';
import type { LocalData } from '../../../data/local-data.ts';
import { usePriceHistories } from '../../../data/price-histories.ts';
import {
  latestPriceDrop,
  pruneHistories,
  recordPrices,
  type PriceDrop,
  type SeenPrice,
} from '../../../lib/price-history.ts';
import { flightsByIds$ } from '../../../db/catalogue-reads.ts';

/**
 * Price drops of a customer's favourites (docs/architecture.md §4.9). The device records the
 * price of every favourite flight each time a replicated copy of it arrives with another price
 * (RxDB local documents: the history is this device's, never replicated), and compares it with
 * the last one recorded, so that the first sync after a drop reports it, whether the drop came
 * over the live stream or in the pulls after a time offline.
 */

/** A favourite flight's price as the local catalogue has it now, and where it goes. */
export interface FavouritePrice extends SeenPrice {
  origin: string;
  destination: string;
}

/** A drop, with the flight's route for the notice. */
export interface FavouritePriceDrop extends PriceDrop {
  origin: string;
  destination: string;
}

interface SeenFavouritePrices {
  userId: string;
  prices: FavouritePrice[];
}

/**
 * The prices of the signed-in customer's favourite flights that the local catalogue holds, now
 * and after every change of the favourites or of their flights; nothing for anybody else. A
 * favourite whose flight is not on this device (or was deleted) has no price to record: its
 * stored summary is only what the flight cost when it was saved.
 */
function favouritePrices$(data: LocalData): Observable<SeenFavouritePrices | null> {
  return data.engine.user$.pipe(
    switchMap((user) => {
      if (user?.role !== 'customer') return of(null);
      return data.db.collections.favourites.find().$.pipe(
        map((docs) =>
          docs
            .map((doc) => doc._data as FavouriteDoc)
            .filter((favourite) => !favourite.flightDeleted)
            .map((favourite) => favourite.flightId)
            .sort(),
        ),
        distinctUntilChanged((a, b) => a.join() === b.join()),
        switchMap((ids) =>
          ids.length === 0 ? of(new Map<string, Flight>()) : flightsByIds$(data.catalogue, ids),
        ),
        map((flights) => ({
          userId: user.id,
          prices: [...flights.values()].map((flight) => ({
            flightId: flight.id,
            priceCents: flight.priceCents,
            origin: flight.origin,
            destination: flight.destination,
          })),
        })),
        // Stock changes (every sale) re-emit the flights: only a change of price matters here.
        distinctUntilChanged(
          (a, b) =>
            a.prices.length === b.prices.length &&
            a.prices.every(
              (price, i) =>
                price.flightId === b.prices[i]?.flightId &&
                price.priceCents === b.prices[i]?.priceCents,
            ),
        ),
      );
    }),
  );
}

/**
 * Records `seen` in the customer's price histories (written only when one moved) and returns the
 * prices that dropped with it.
 */
export async function recordFavouritePrices(
  data: LocalData,
  userId: string,
  seen: readonly FavouritePrice[],
  at: number = Date.now(),
): Promise<FavouritePriceDrop[]> {
  const histories = await readPriceHistories(data.db, userId);
  const recorded = recordPrices(histories, seen, at);
  if (!recorded.changed) return [];
  const followed = new Set(seen.map((price) => price.flightId));
  await writePriceHistories(data.db, {
    userId,
    flights: pruneHistories(recorded.histories, followed),
  });
  return recorded.drops.map((drop) => {
    const flight = seen.find((price) => price.flightId === drop.flightId);
    return { ...drop, origin: flight?.origin ?? '', destination: flight?.destination ?? '' };
  });
}

/**
 * Follows the customer's favourite prices for as long as the app runs (mounted once in the page
 * frame): records each new price and calls `onDrops` with the drops of each sync. Returns the
 * function that stops following.
 */
export function followFavouritePrices(
  data: LocalData,
  onDrops: (drops: FavouritePriceDrop[]) => void,
): () => void {
  const subscription = favouritePrices$(data)
    .pipe(
      filter((seen): seen is SeenFavouritePrices => seen !== null),
      // One at a time: each reads the history the one before wrote.
      concatMap((seen) =>
        recordFavouritePrices(data, seen.userId, seen.prices).catch(
          () => [] as FavouritePriceDrop[],
        ),
      ),
    )
    .subscribe((drops) => {
      if (drops.length > 0) onDrops(drops);
    });
  return () => subscription.unsubscribe();
}

const NO_DROPS: ReadonlyMap<string, PriceDrop> = new Map();

/**
 * The favourites whose last price change was a drop, by flight id: their "Price dropped" badge
 * (until the price changes again).
 */
export function usePriceDrops(): ReadonlyMap<string, PriceDrop> {
  const histories = usePriceHistories();
  return useMemo(() => {
    if (!histories) return NO_DROPS;
    const drops = new Map<string, PriceDrop>();
    for (const [flightId, history] of Object.entries(histories)) {
      const drop = latestPriceDrop(flightId, history);
      if (drop) drops.set(flightId, drop);
    }
    return drops;
  }, [histories]);
}
