import { map, of, switchMap, type Observable } from 'rxjs';
import { calculateMonthlySalesTotals, type MonthlySalesTotal, type Sale } from '@skyport/shared';
import { useLocalData } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import type { LocalData } from '../../../data/local-data.ts';

/** An approved airline's sales, newest first, read offline from the replicated `sales` collection. */
export function sales$(data: LocalData): Observable<Sale[]> {
  return data.engine.user$.pipe(
    switchMap((user) =>
      user?.role === 'airline' && user.airlineId
        ? data.db.collections.sales
            .find({ sort: [{ createdAt: 'desc' }, { id: 'asc' }] })
            .$.pipe(map((docs) => docs.map((doc) => doc._data as Sale)))
        : of([] as Sale[]),
    ),
  );
}

export interface SalesSummary {
  sales: Sale[];
  /** The "Sales Chart": months 1–12 with tickets sold and total sale (shared rule). */
  monthly: MonthlySalesTotal[];
}

export function salesSummary$(
  data: LocalData,
  options: { year?: number; utcOffsetMinutes?: number } = {},
): Observable<SalesSummary> {
  return sales$(data).pipe(
    map((sales) => ({ sales, monthly: calculateMonthlySalesTotals(sales, options) })),
  );
}

/**
 * The airline's sales with monthly totals; `undefined` while loading. Months are decided in the
 * viewer's time zone; `year` limits the chart to one calendar year.
 */
export function useSales(year?: number): SalesSummary | undefined {
  const data = useLocalData();
  const utcOffsetMinutes = -new Date().getTimezoneOffset();
  return useObservable(
    () => salesSummary$(data, { year, utcOffsetMinutes }),
    [data, year, utcOffsetMinutes],
  );
}
