import { useMemo } from 'react';
import { map, of, switchMap, type Observable } from 'rxjs';
import {
  favouriteFromFlight,
  messages,
  snapshotForFavourite,
  type Favourite,
  type FavouriteDoc,
  type Flight,
} from '@skyport/shared';
import { rememberFavouriteAttempt } from '../../../db/local-state.ts';
import { useLocalDataIfOpen, useLocalDataLoader } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import type { LocalData } from '../../../data/local-data.ts';
import { flightsByIds$ } from '../../../db/catalogue-reads.ts';

/**
 * Favourites (spec §4): a signed-in customer's, replicated. A guest gets the spec's warning, and
 * the flight is remembered on this device and saved to favourites at login (sync/engine.ts).
 */

export type FavouriteResult = { ok: true } | { ok: false; message: string };

function toFavourite(doc: FavouriteDoc): Favourite {
  const { id: _id, userId: _userId, ...favourite } = doc;
  return favourite;
}

/**
 * A favourite with its flight's current data, when this device has the flight: the server does
 * not rewrite every favourite of a flight when its price changes (sync-server's 010 migration).
 */
function refreshed(favourite: Favourite, flight: Flight | undefined): Favourite {
  if (!flight || favourite.flightDeleted) return favourite;
  return { ...favourite, ...snapshotForFavourite(flight) };
}

/** The customer's favourites, oldest first (empty for everybody else). */
export function favourites$(data: LocalData): Observable<Favourite[]> {
  return data.engine.user$.pipe(
    switchMap((user) =>
      user?.role === 'customer'
        ? data.db.collections.favourites
            .find({ sort: [{ createdAt: 'asc' }, { id: 'asc' }] })
            .$.pipe(
              map((docs) => docs.map((doc) => toFavourite(doc._data as FavouriteDoc))),
              switchMap((favourites) =>
                favourites.length === 0
                  ? of(favourites)
                  : flightsByIds$(
                      data.catalogue,
                      favourites.map((favourite) => favourite.flightId),
                    ).pipe(
                      map((flights) =>
                        favourites.map((favourite) =>
                          refreshed(favourite, flights.get(favourite.flightId)),
                        ),
                      ),
                    ),
              ),
            )
        : of([] as Favourite[]),
    ),
  );
}

/** Saves a flight to the customer's favourites. A guest is told to log in (and it is remembered). */
export async function addFavourite(data: LocalData, flight: Flight): Promise<FavouriteResult> {
  const user = data.engine.user;
  if (!user) {
    await rememberFavouriteAttempt(data.db, flight.id);
    return { ok: false, message: messages.loginToSaveFavourites };
  }
  if (user.role !== 'customer') return { ok: false, message: messages.notAllowed };
  await data.db.collections.favourites.upsert({
    ...favouriteFromFlight(flight, Date.now()),
    id: flight.id,
    userId: user.id,
  });
  return { ok: true };
}

export async function removeFavourite(data: LocalData, flightId: string): Promise<void> {
  // Incremental: replication may rewrite the document meanwhile (a re-pull after a reload); a
  // plain remove of the state read before would then fail with a conflict.
  const doc = await data.db.collections.favourites.findOne(flightId).exec();
  await doc?.incrementalRemove();
}

// Hooks --------------------------------------------------------------------------------------

const NONE: Favourite[] = [];

/** The customer's favourites (none until the local data layer is open). */
export function useFavourites(): Favourite[] {
  const data = useLocalDataIfOpen();
  return useObservable(() => (data ? favourites$(data) : of(NONE)), [data], NONE);
}

/** Favourite actions; one taken before the local data layer has opened waits for it. */
export function useFavouriteActions() {
  const load = useLocalDataLoader();
  // The same actions at every render: screens pass them to memoised lists.
  return useMemo(
    () => ({
      add: async (flight: Flight) => addFavourite(await load(), flight),
      remove: async (flightId: string) => removeFavourite(await load(), flightId),
    }),
    [load],
  );
}
