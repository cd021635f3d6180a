import { combineLatest, map } from 'rxjs';
import { AirlineSchema, FlightSchema, type Airline, type Flight } from '@skyport/shared';
import { useLocalData, useSyncStatus } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import type { Remote } from './admin-data.ts';

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
  const { db } = useLocalData();
  const status = useSyncStatus();
  const data = useObservable(
    () =>
      combineLatest([db.airlines.find().$, db.flights.find().$]).pipe(
        map(([airlines, flights]) => ({
          airlines: airlines.map((doc) => AirlineSchema.parse(doc.toJSON())),
          flights: flights.map((doc) => FlightSchema.parse(doc.toJSON())),
        })),
      ),
    [db],
    undefined,
  );
  if (data === undefined || (data.airlines.length === 0 && status.phase === 'syncing'))
    return { status: 'loading' };
  return { status: 'ready', data };
}
