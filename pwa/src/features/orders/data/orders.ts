import { map, of, switchMap, type Observable } from 'rxjs';
import type { Order } from '@skyport/shared';
import { useLocalData } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import type { LocalData } from '../../../data/local-data.ts';

/** The customer's orders, newest first, read offline from the replicated `orders` collection. */
export function orders$(data: LocalData): Observable<Order[]> {
  return data.engine.user$.pipe(
    switchMap((user) =>
      user?.role === 'customer'
        ? data.db.collections.orders
            .find()
            .$.pipe(
              map((docs) =>
                docs
                  .map((doc) => doc._data as Order)
                  .sort(
                    (a, b) =>
                      (b.creationdate ?? '').localeCompare(a.creationdate ?? '') ||
                      a.id.localeCompare(b.id),
                  ),
              ),
            )
        : of([] as Order[]),
    ),
  );
}

/** The signed-in customer's orders; `undefined` while loading, empty for other accounts. */
export function useOrders(): readonly Order[] | undefined {
  const data = useLocalData();
  return useObservable(() => orders$(data), [data]);
}
