import { combineLatest, map } from 'rxjs';
import { AirlineSchema, type Airline, type Flight } from '@skyport/shared';
import { useLocalData, useSyncStatus } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import type { Remote } from './admin-data.ts';
import { flightsWhere$ } from '../../../db/catalogue-reads.ts';

export interface BusinessData {
  airlines: Airline[];
  flights: Flight[];
}

/**
 * The business overview's data: every airline and every flight, sold-out ones included, live
 * from the local airlines and flights collections (public, replicated for everybody). `GET
 * /flights` would not do: it lists only flights with stock.
 */
export function useBusinessData(): Remote<BusinessData> {
  const { db, catalogue } = useLocalData();
  const status = useSyncStatus();
  const data = useObservable(
    () =>
      combineLatest([db.airlines.find().$, flightsWhere$(catalogue, () => true)]).pipe(
        map(([airlines, flights]) => ({
          airlines: airlines.map((doc) => AirlineSchema.parse(doc.toJSON())),
          flights,
        })),
      ),
    [db, catalogue],
    undefined,
  );
  if (data === undefined || (data.airlines.length === 0 && status.phase === 'syncing'))
    return { status: 'loading' };
  return { status: 'ready', data };
}
