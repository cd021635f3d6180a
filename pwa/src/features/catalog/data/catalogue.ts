import { combineLatest, from, map, of, shareReplay, startWith, type Observable } from 'rxjs';
import {
  CatalogQuerySchema,
  averageRatingOf,
  type Airline,
  type CatalogQuery,
  type Flight,
  type FlightCatalogPage,
  type FlightDetail,
  type Review,
  type ReviewPage,
} from '@skyport/shared';
import type { SkyportDatabase } from '../../../db/database.ts';
import { useLocalData } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import type { LocalData } from '../../../data/local-data.ts';
import { createCatalogIndex, queryCatalogIndex, type CatalogIndex } from './catalogue-index.ts';

/**
 * Live queries of the catalogue screens over the local database (no network): home page,
 * airlines, flight detail with its reviews and average rating, an airline's own flights.
 * Same shapes as the REST answers, so a screen does not care where its data comes from.
 */

/** Plain documents of a live query (RxDB's stored data, no copies). */
function plain<T>(docs: readonly { _data: unknown }[]): T[] {
  return docs.map((doc) => doc._data as T);
}

const indexes = new WeakMap<SkyportDatabase, Observable<CatalogIndex>>();

/** Every flight of the local database, as an index for the home page; shared by all screens. */
export function catalogIndex$(db: SkyportDatabase): Observable<CatalogIndex> {
  let index = indexes.get(db);
  if (!index) {
    index = db.collections.flights
      .find()
      .$.pipe(
        map((docs) => createCatalogIndex(plain<Flight>(docs))),
        shareReplay({ bufferSize: 1, refCount: false }),
      );
    indexes.set(db, index);
  }
  return index;
}

export function catalogPage$(db: SkyportDatabase, query: CatalogQuery): Observable<FlightCatalogPage> {
  return catalogIndex$(db).pipe(map((index) => queryCatalogIndex(index, query)));
}

/** Whether the first pull of a collection is done (true when it is not replicating at all). */
function initialPullDone$(data: LocalData, collection: 'flights' | 'reviews'): Observable<boolean> {
  const replication = data.engine.replication(collection);
  if (!replication) return of(true);
  return from(replication.state.awaitInitialReplication().then(() => true)).pipe(startWith(false));
}

/** One flight with `soldOut`; `null` when it does not exist, `undefined` while still loading. */
export function flight$(data: LocalData, id: string): Observable<FlightDetail | null | undefined> {
  return combineLatest([data.db.collections.flights.findOne(id).$, initialPullDone$(data, 'flights')]).pipe(
    map(([doc, pulled]) => {
      if (doc) {
        const flight = doc._data as Flight;
        return { ...flight, soldOut: flight.tickets <= 0 };
      }
      return pulled ? null : undefined;
    }),
  );
}

function reviewPage(reviews: Review[]): ReviewPage {
  return {
    items: reviews,
    page: 1,
    pageSize: Math.max(1, reviews.length),
    total: reviews.length,
    pageCount: reviews.length > 0 ? 1 : 0,
    averageRating: averageRatingOf(reviews),
  };
}

export function reviewsOf$(db: SkyportDatabase, filter: { flightId: string } | { airlineId: string }): Observable<ReviewPage> {
  return db.collections.reviews
    .find({ selector: filter, sort: [{ createdAt: 'desc' }] })
    .$.pipe(map((docs) => reviewPage(plain<Review>(docs))));
}

/**
 * The home query from the page URL (`?origin=&destination=&airlineId=&band=&sort=&page=`), parsed
 * with the shared schema; a malformed parameter falls back to its default instead of failing.
 */
export function catalogQueryFromSearch(search: URLSearchParams): CatalogQuery {
  const raw = Object.fromEntries(search);
  const parsed = CatalogQuerySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  return CatalogQuerySchema.parse(Object.fromEntries(Object.entries(raw).filter(([key]) => !bad.has(key) && key in CatalogQuerySchema.shape)));
}

// Hooks --------------------------------------------------------------------------------------

/** The home page of flights for a query (filters, sort and page from the URL). */
export function useCatalogPage(query: CatalogQuery): FlightCatalogPage | undefined {
  const { db } = useLocalData();
  return useObservable(() => catalogPage$(db, query), [db, JSON.stringify(query)]);
}

const NO_AIRLINES: Airline[] = [];

/** Every airline, A→Z (the airline filter's autocomplete). */
export function useAirlines(): readonly Airline[] {
  const { db } = useLocalData();
  return useObservable(
    () => db.collections.airlines.find({ sort: [{ name: 'asc' }] }).$.pipe(map((docs) => plain<Airline>(docs))),
    [db],
    NO_AIRLINES,
  );
}

/** The flight detail; `null` when there is no such flight, `undefined` while loading. */
export function useFlight(id: string): FlightDetail | null | undefined {
  const data = useLocalData();
  return useObservable(() => flight$(data, id), [data, id]);
}

/** Reviews of one flight, newest first, with their average rating (half-star steps). */
export function useFlightReviews(flightId: string): ReviewPage | undefined {
  const { db } = useLocalData();
  return useObservable(() => reviewsOf$(db, { flightId }), [db, flightId]);
}

/** Reviews of an airline (the flight detail shows the airline's reviews), with the average. */
export function useAirlineReviews(airlineId: string): ReviewPage | undefined {
  const { db } = useLocalData();
  return useObservable(() => reviewsOf$(db, { airlineId }), [db, airlineId]);
}

/** An airline's flights, sold-out ones included (catalog and business screens). */
export function useAirlineFlights(airlineId: string | null): readonly Flight[] | undefined {
  const { db } = useLocalData();
  return useObservable(
    () =>
      airlineId
        ? db.collections.flights.find({ selector: { airlineId }, sort: [{ priceCents: 'asc' }] }).$.pipe(map((docs) => plain<Flight>(docs)))
        : of([] as Flight[]),
    [db, airlineId],
  );
}
