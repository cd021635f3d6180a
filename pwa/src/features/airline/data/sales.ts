import { useMemo } from 'react';
import { map, of, startWith, switchMap, type Observable } from 'rxjs';
import {
  SaleDocSchema,
  SaleFlightSchema,
  calculateMonthlySalesTotals,
  type MonthlySalesTotal,
  type Sale,
  type SaleDoc,
  type SaleFlight,
} from '@skyport/shared';
import type { LocalData } from '../../../data/local-data.ts';
import { useLocalData, useSyncStatus } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import { flightsByIds$ } from '../../../db/catalogue-reads.ts';

/**
 * A sale as its card shows it: with its flight's route and departure (issue 16: an airline reads
 * routes and dates, not flight ids), as sold: the replicated sale carries them, so they show
 * offline and for a flight since edited or deleted. A sale stored before its document had them
 * (until it is pulled again, db/layout.ts `SERVER_FILLED_FIELDS`) falls back on this device's
 * catalogue; `flight` is null when that has no such flight either (the card then names it by its
 * id alone), undefined while the catalogue is still being looked up.
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
 * Sales with the route and departure of their flights: each sale's own (as sold), else, for a sale
 * stored without them, its flight's in the replicated catalogue, live. The sales do not wait for
 * that lookup: they show as soon as they are on the device, and those flights join them when the
 * catalogue has answered.
 */
export function withFlights(
  catalogue: LocalData['catalogue'],
  sales: SaleDoc[],
): Observable<ShownSale[]> {
  const lacking = [...new Set(sales.filter((sale) => !sale.flight).map((sale) => sale.idFlight))];
  const shown = (lookUp: (idFlight: string) => SaleFlight | null | undefined) =>
    sales.map(({ flight, ...sale }) => ({ ...sale, flight: flight ?? lookUp(sale.idFlight) }));
  if (lacking.length === 0) return of(shown(() => undefined));
  return flightsByIds$(catalogue, lacking).pipe(
    map((flights) =>
      shown((idFlight) => {
        const flight = flights.get(idFlight);
        return flight ? SaleFlightSchema.parse(flight) : null;
      }),
    ),
    startWith(shown(() => undefined)),
  );
}

export function useSales(airlineId: string): SalesView {
  const { db, catalogue } = useLocalData();
  const status = useSyncStatus();
  const sales = useObservable(
    () =>
      db.sales
        .find({ selector: { airlineId }, sort: [{ createdAt: 'desc' }, { id: 'desc' }] })
        .$.pipe(
          map((docs) => docs.map((doc) => SaleDocSchema.parse(doc.toJSON()))),
          switchMap((list) => withFlights(catalogue, list)),
        ),
    [db, catalogue, airlineId],
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
