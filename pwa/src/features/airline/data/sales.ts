import { useMemo } from 'react';
import { map, of, startWith, switchMap, type Observable } from 'rxjs';
import {
  SaleFlightSchema,
  SaleSchema,
  calculateMonthlySalesTotals,
  type MonthlySalesTotal,
  type Sale,
  type SaleFlight,
} from '@skyport/shared';
import type { LocalData } from '../../../data/local-data.ts';
import { useLocalData, useSyncStatus } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';

/**
 * A sale as its card shows it: with its flight's route and departure (issue 16: an airline reads
 * routes and dates, not flight ids). `flight` is null when this device does not have the flight
 * (it was deleted from the catalogue): the card then names it by its id alone; undefined while
 * the catalogue is still being looked up.
 */
export type ShownSale = Sale & { flight: SaleFlight | null | undefined };

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
  sales: readonly ShownSale[];
  monthly: readonly MonthlySalesTotal[];
  year: number;
}

/**
 * Sales with the route and departure of their flights, from the replicated catalogue (which has
 * every flight of the airline that is still listed); live, so an edited flight shows its new date.
 * The sales do not wait for the lookup: they show as soon as they are on the device, and their
 * flights join them when the catalogue has answered.
 */
export function withFlights(db: LocalData['db'], sales: Sale[]): Observable<ShownSale[]> {
  if (sales.length === 0) return of([]);
  return db.flights.findByIds([...new Set(sales.map((sale) => sale.idFlight))]).$.pipe(
    map((flights) =>
      sales.map((sale) => {
        const flight = flights.get(sale.idFlight);
        return { ...sale, flight: flight ? SaleFlightSchema.parse(flight.toJSON()) : null };
      }),
    ),
    startWith(sales.map((sale) => ({ ...sale, flight: undefined }))),
  );
}

export function useSales(airlineId: string): SalesView {
  const { db } = useLocalData();
  const status = useSyncStatus();
  const sales = useObservable(
    () =>
      db.sales
        .find({ selector: { airlineId }, sort: [{ createdAt: 'desc' }, { id: 'desc' }] })
        .$.pipe(
          map((docs) => docs.map((doc) => SaleSchema.parse(doc.toJSON()))),
          switchMap((list) => withFlights(db, list)),
        ),
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
