import { of, switchMap, type Observable } from 'rxjs';
import { priceHistories$ } from '../db/local-state.ts';
import type { PriceHistories } from '../lib/price-history.ts';
import type { LocalData } from './local-data.ts';
import { useLocalDataIfOpen } from './provider.tsx';
import { useObservable } from './use-observable.ts';

/**
 * The price histories this device keeps of the signed-in customer's favourites
 * (docs/architecture.md §4.9), read by the favourites (their "Price dropped" badges) and the
 * flight detail (its chart). Recorded by features/favourites/data/price-watch.ts.
 */

const NO_HISTORIES: PriceHistories = {};

/** The signed-in customer's price histories, live (none for anybody else). */
export function customerPriceHistories$(data: LocalData): Observable<PriceHistories> {
  return data.engine.user$.pipe(
    switchMap((user) =>
      user?.role === 'customer' ? priceHistories$(data.db, user.id) : of(NO_HISTORIES),
    ),
  );
}

/** The signed-in customer's price histories; undefined until the local data layer has read them. */
export function usePriceHistories(): PriceHistories | undefined {
  const data = useLocalDataIfOpen();
  return useObservable(() => (data ? customerPriceHistories$(data) : of(undefined)), [data]);
}
