import { useMemo } from 'react';
import { map } from 'rxjs';
import {
  SaleSchema,
  calculateMonthlySalesTotals,
  type MonthlySalesTotal,
  type Sale,
} from '@skyport/shared';
import { useLocalData, useSyncStatus } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';

/**
 * The airline's sales and the 12 points of its "Sales Chart", from the local `sales` collection:
 * replicated per airline (only an approved airline's own, only paid ones), so /sales stays
 * readable offline and a new sale appears without reloading. The chart's months are computed
 * with the shared rule, in the viewer's time zone, for the current year.
 */
export interface SalesView {
  /** True until the local collection has answered (or while its first sync is running). */
  loading: boolean;
  /** Newest first. */
  sales: readonly Sale[];
  monthly: readonly MonthlySalesTotal[];
  year: number;
}

export function useSales(airlineId: string): SalesView {
  const { db } = useLocalData();
  const status = useSyncStatus();
  const sales = useObservable(
    () =>
      db.sales
        .find({ selector: { airlineId }, sort: [{ createdAt: 'desc' }, { id: 'desc' }] })
        .$.pipe(map((docs) => docs.map((doc) => SaleSchema.parse(doc.toJSON())))),
    [db, airlineId],
    undefined,
  );
  return useMemo(() => {
    const now = new Date();
    const year = now.getFullYear();
    const list = sales ?? [];
    return {
      loading: sales === undefined || (list.length === 0 && status.phase === 'syncing'),
      sales: list,
      year,
      monthly: calculateMonthlySalesTotals(list, {
        year,
        utcOffsetMinutes: -now.getTimezoneOffset(),
      }),
    };
  }, [sales, status.phase]);
}
