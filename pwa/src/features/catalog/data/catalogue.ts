import {
  catchError,
  combineLatest,
  distinctUntilChanged,
  from,
  fromEvent,
  map,
  merge,
  of,
  shareReplay,
  startWith,
  switchMap,
  tap,
  Observable,
} from 'rxjs';
import { useRef } from 'react';
import {
  CatalogQuerySchema,
  DEPARTURE_FLEX_DAYS,
  DateStringSchema,
  FlightCatalogPageSchema,
  HOME_PAGE_SIZE,
  averageRatingOf,
  departureWindow,
  type DepartureFlex,
  type Airline,
  type CatalogQuery,
  type Flight,
  type FlightCatalogPage,
  type FlightDetail,
  type Review,
} from '@skyport/shared';
import { useLocalData, useLocalDataIfOpen, useLocalDataLoader } from '../../../data/provider.tsx';
import { ApiError, apiRequest } from '../../../api/api-client.ts';
import {
  catalogueSyncedBefore,
  rememberCatalogueSynced,
  rememberReviewsSynced,
  reviewsSyncedBefore,
} from './catalogue-synced.ts';
import { useObservable } from '../../../data/use-observable.ts';
import type { LocalData } from '../../../data/local-data.ts';
import {
  buildCatalogIndex,
  placeNames,
  queryCatalogIndexInSlices,
  updateCatalogIndex,
  warmInSlices,
  type CatalogIndex,
  type FlightChange,
} from './catalogue-index.ts';
import { nextTask } from '../../../ui/idle.ts';
import { sameItems } from '../../../lib/equal.ts';
import type { CatalogueChange, CatalogueReplica } from '../../../db/catalogue-replica.ts';
import { flightsByIds$ } from '../../../db/catalogue-reads.ts';

/**
 * Live queries of the catalogue screens over the local database (no network): home page and
 * its search suggestions, airlines, flight detail with its airline's reviews and their average.
 * The home page has the shape of the REST answer, so that it does not care where it comes from.
 *
 * The one exception is a device's very first visit: until the flights' first full pull is done
 * (the whole catalogue, seconds for a large one), the home page shows the server's page for
 * the query (`GET /api/flights`, the same shared rules) instead of a partial local catalogue,
 * and it does so before the local database has even loaded. Every later visit reads locally.
 */

/** Plain documents of a live query (RxDB's stored data, no copies). */
function plain<T>(docs: readonly { _data: unknown }[]): T[] {
  return docs.map((doc) => doc._data as T);
}

const indexes = new WeakMap<CatalogueReplica, Observable<CatalogIndex>>();

/** Every flight of the local catalogue, as an index for the home page; shared by all screens. */
export function catalogIndex$(catalogue: CatalogueReplica): Observable<CatalogIndex> {
  let index = indexes.get(catalogue);
  if (!index) {
    index = loadCatalogIndex$(catalogue).pipe(shareReplay({ bufferSize: 1, refCount: false }));
    indexes.set(catalogue, index);
  }
  return index;
}

/**
 * Flights read at first per step of the loading; then as many as took about `LOAD_STEP_MS`
 * (the request included: the task that reads them is shorter), within 100 and 5,000.
 */
const FIRST_LOAD_STEP = 250;
const LOAD_STEP_MS = 25;
/** Flights as the replica announced them (db/catalogue-replica.ts `CatalogueChange`). */
type ChangedFlights = Exclude<CatalogueChange, 'reset'>['flights'];

/**
 * The catalogue index, kept up to date, loaded without long tasks at any catalogue size: reading
 * 100,000 flights in one request is a task of seconds, and building the index sorted them in one
 * more. Here the flights are read a page of ids at a time (one IndexedDB request each), each page
 * in a task of its own, and the index is filtered and sorted in slices (catalogue-index.ts).
 * Changes come from the replica's announcements: a few flights are applied to the index as they
 * are (each one taken out and put back in the sorted orders), a `'reset'` (a large write, a
 * snapshot) loads it again; changes during a loading are applied at its end.
 */
function loadCatalogIndex$(catalogue: CatalogueReplica): Observable<CatalogIndex> {
  return new Observable<CatalogIndex>((subscriber) => {
    let flights = new Map<string, Flight>();
    let index: CatalogIndex | undefined;
    let stopped = false;
    /** Changes that came during a loading (null: a reset, load again). */
    let pending: ChangedFlights[] | null = [];
    let loading: Promise<void> | undefined;

    const changes = catalogue.changes$.subscribe((change) => {
      if (loading) {
        if (pending) pending = change === 'reset' ? null : [...pending, change.flights];
        return;
      }
      if (change === 'reset') {
        pending = null;
        load();
        return;
      }
      const updated = index && updateCatalogIndex(index, apply(change.flights));
      if (updated) emit(updated);
      else load(true);
    });

    /** Applies changes to the flights; returns what each changed from and to. */
    function apply(changed: ChangedFlights): FlightChange[] {
      const applied: FlightChange[] = [];
      for (const { id, flight } of changed) {
        const before = flights.get(id);
        const after = flight ?? undefined;
        if (after) flights.set(id, after);
        else flights.delete(id);
        if (before || after) applied.push({ before, after });
      }
      return applied;
    }

    function emit(next: CatalogIndex) {
      index = next;
      if (!stopped) subscriber.next(next);
    }

    /**
     * Reads every flight (or, with `buildOnly`, uses the flights as they are) and builds the
     * index; changes that came meanwhile are applied at the end (a large bulk: read again).
     */
    function load(buildOnly = false) {
      if (loading) {
        if (!buildOnly) pending = null;
        return;
      }
      pending = [];
      loading = (async () => {
        let read = !buildOnly;
        for (;;) {
          if (read) {
            pending = [];
            flights = await readFlights();
            // A large bulk came while reading: read again.
            if (pending === null) continue;
          }
          if (stopped) return;
          for (const events of pending ?? []) apply(events);
          pending = [];
          let built: CatalogIndex | null = await buildCatalogIndex(
            flights.values(),
            ['initial'],
            nextTask,
          );
          // What changed while it was built.
          const during: ChangedFlights[] | null = pending;
          pending = [];
          if (during === null) {
            read = true;
            continue;
          }
          for (const events of during) if (built) built = updateCatalogIndex(built, apply(events));
          if (!built) {
            read = false;
            continue;
          }
          emit(built);
          break;
        }
        loading = undefined;
        // The other sort orders, in the background: no query has to sort.
        if (index && !stopped) void warmInSlices(index, nextTask);
      })().catch((error: unknown) => {
        loading = undefined;
        if (!stopped) subscriber.error(error);
      });
    }

    /** Every flight, a page of ids at a time, each page in a task of its own. */
    async function readFlights(): Promise<Map<string, Flight>> {
      const read = new Map<string, Flight>();
      let step = FIRST_LOAD_STEP;
      let after: string | undefined;
      for (;;) {
        const started = performance.now();
        const page = await catalogue.page(after, step);
        for (const flight of page) read.set(flight.id, flight);
        if (page.length < step || stopped) return read;
        after = page[page.length - 1]!.id;
        const took = performance.now() - started;
        step = Math.max(100, Math.min(5000, Math.round((step * LOAD_STEP_MS) / Math.max(1, took))));
        await nextTask();
      }
    }

    load();
    return () => {
      stopped = true;
      changes.unsubscribe();
    };
  });
}

/**
 * A page of the home catalogue, for each index: at once where that is quick, else in slices
 * (catalogue-index.ts `queryCatalogIndexInSlices`), a newer index's page replacing one still
 * being computed.
 */
export function catalogPage$(
  catalogue: CatalogueReplica,
  query: CatalogQuery,
): Observable<FlightCatalogPage> {
  return catalogIndex$(catalogue).pipe(switchMap((index) => pageOf(index, query)));
}

function pageOf(index: CatalogIndex, query: CatalogQuery): Observable<FlightCatalogPage> {
  return new Observable<FlightCatalogPage>((subscriber) => {
    let cancelled = false;
    const answer = queryCatalogIndexInSlices(index, query, nextTask, () => cancelled);
    if (!(answer instanceof Promise)) {
      subscriber.next(answer);
      subscriber.complete();
      return;
    }
    answer.then(
      (page) => {
        if (page === null || cancelled) return;
        subscriber.next(page);
        subscriber.complete();
      },
      (error: unknown) => subscriber.error(error),
    );
    return () => {
      cancelled = true;
    };
  });
}

/** Whether the first pull of a collection is done (true when it is not replicating at all). */
function initialPullDone$(data: LocalData, collection: 'flights' | 'reviews'): Observable<boolean> {
  const replication = data.engine.replication(collection);
  if (!replication) return of(true);
  return from(replication.state.awaitInitialReplication().then(() => true)).pipe(startWith(false));
}

/** One flight with `soldOut`; `null` when it does not exist, `undefined` while still loading. */
export function flight$(data: LocalData, id: string): Observable<FlightDetail | null | undefined> {
  return combineLatest([
    flightsByIds$(data.catalogue, [id]),
    initialPullDone$(data, 'flights'),
  ]).pipe(
    map(([flights, pulled]) => {
      const flight = flights.get(id);
      if (flight) return { ...flight, soldOut: flight.tickets <= 0 };
      return pulled ? null : undefined;
    }),
  );
}

/**
 * What a flight's detail shows as reviews (spec §2 "the airline's customer reviews with the
 * average rating"): every review of the flight's airline on this device, newest first.
 * - `complete`: the device has pulled every review (now, or on an earlier visit), so the average
 *   is the airline's, computed from all of its reviews, not from the part on screen.
 * - `notOnDevice`: the reviews' first pull is not done and cannot be now (the browser is
 *   offline, or the server did not answer): what the device has, with no average (it would be
 *   the average of a part).
 * - `failed`: the local database could not answer the query.
 * `undefined` (the hooks' answer while loading): the query or the first pull is under way.
 */
export type AirlineReviews =
  | { status: 'complete'; items: readonly Review[]; averageRating: number | null }
  | { status: 'notOnDevice'; items: readonly Review[] }
  | { status: 'failed' };

/** Whether every review is on this device: pulled in this visit, or in an earlier one. */
function reviewsOnDevice$(data: LocalData): Observable<boolean> {
  if (reviewsSyncedBefore()) return of(true);
  return initialPullDone$(data, 'reviews').pipe(tap((done) => done && rememberReviewsSynced()));
}

/** Whether a collection's pull cannot go on now: offline, or its last attempt failed. */
function pullBlocked$(data: LocalData, collection: 'reviews'): Observable<boolean> {
  const replication = data.engine.replication(collection);
  const failed$ = replication
    ? replication.state.error$.pipe(
        map(() => true),
        startWith(false),
      )
    : of(false);
  return combineLatest([browserOnline$(), failed$]).pipe(
    map(([online, failed]) => !online || failed),
  );
}

export function airlineReviews$(
  data: LocalData,
  airlineId: string,
): Observable<AirlineReviews | undefined> {
  // The [airlineId, createdAt] index answers this query (db/schemas.ts).
  const items$ = data.db.collections.reviews
    .find({ selector: { airlineId }, sort: [{ createdAt: 'desc' }] })
    .$.pipe(map((docs) => plain<Review>(docs)));
  return combineLatest([items$, reviewsOnDevice$(data), pullBlocked$(data, 'reviews')]).pipe(
    map(([items, onDevice, blocked]): AirlineReviews | undefined => {
      if (onDevice) return { status: 'complete', items, averageRating: averageRatingOf(items) };
      return blocked ? { status: 'notOnDevice', items } : undefined;
    }),
    catchError(() => of({ status: 'failed' as const })),
  );
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
  // The departure bounds stand or fall together (one alone is refused).
  if (bad.has('departureFrom') || bad.has('departureTo')) {
    bad.add('departureFrom');
    bad.add('departureTo');
  }
  return CatalogQuerySchema.parse(
    Object.fromEntries(
      Object.entries(raw).filter(([key]) => !bad.has(key) && key in CatalogQuerySchema.shape),
    ),
  );
}

/** Whether the local catalogue can answer the home page: its first full pull is done, now or before. */
function localCatalogueReady$(data: LocalData): Observable<boolean> {
  if (catalogueSyncedBefore()) return of(true);
  return initialPullDone$(data, 'flights').pipe(tap((done) => done && rememberCatalogueSynced()));
}

function catalogSearchParams(query: CatalogQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params;
}

/** How long a server page is reused (going back to a page, the start-up request). */
const SERVER_PAGE_TTL_MS = 30_000;
/** The server's answers for home queries (first visit only; the 20 most recent). */
const serverPages = new Map<string, { at: number; page: Promise<FlightCatalogPage> }>();
function serverCatalogPage(query: CatalogQuery): Promise<FlightCatalogPage> {
  const params = catalogSearchParams(query).toString();
  const cached = serverPages.get(params);
  if (cached && Date.now() - cached.at < SERVER_PAGE_TTL_MS) return cached.page;
  const page = apiRequest(`/flights?${params}`, { schema: FlightCatalogPageSchema });
  page.catch(() => serverPages.delete(params));
  serverPages.delete(params);
  serverPages.set(params, { at: Date.now(), page });
  if (serverPages.size > 20) serverPages.delete(serverPages.keys().next().value as string);
  return page;
}

/**
 * The departure date a traveller chose on the home page, and how flexible they are about it:
 * exactly that day, or a day or three either side. The URL keeps it as `date=yyyy-mm-dd&flex=3`;
 * the catalogue query (and the API) get the inclusive range, `departureWindow` of @skyport/shared.
 */
export interface DepartureChoice {
  date: string;
  flex: DepartureFlex;
}

/** The latest date a window of ±3 days still fits before the year 10000. */
const LAST_CHOOSABLE_DATE = '9999-12-28';

/** The departure choice of the home URL; absent, or malformed, is no date filter. */
export function departureChoiceFrom(params: URLSearchParams): DepartureChoice | undefined {
  const date = params.get('date')?.trim() ?? '';
  if (!DateStringSchema.safeParse(date).success || date < '1000' || date > LAST_CHOOSABLE_DATE)
    return undefined;
  const flex = DEPARTURE_FLEX_DAYS.find((days) => String(days) === params.get('flex')) ?? 0;
  return { date, flex };
}

/** The URL parameters of a departure choice (none without a date; `flex` only when flexible). */
export function departureParams(choice: DepartureChoice | undefined): Record<string, string> {
  if (!choice) return {};
  return choice.flex === 0
    ? { date: choice.date }
    : { date: choice.date, flex: String(choice.flex) };
}

/**
 * The home query lives in the URL (filters and page survive reloads and the back button). Its
 * departure range comes from the chosen date and flexibility only (`departureChoiceFrom`).
 */
export function homeQueryFrom(params: URLSearchParams): CatalogQuery {
  const choice = departureChoiceFrom(params);
  const rest = new URLSearchParams(params);
  rest.delete('departureFrom');
  rest.delete('departureTo');
  return {
    ...catalogQueryFromSearch(rest),
    ...(choice ? departureWindow(choice.date, choice.flex) : {}),
    pageSize: HOME_PAGE_SIZE,
  };
}

/**
 * On a first visit to the home page, asks the server for its page at start-up, before React has
 * rendered anything (the home page then finds the answer on its way).
 */
export function prefetchHomePage(location: { pathname: string; search: string }): void {
  if (location.pathname !== '/' || catalogueSyncedBefore()) return;
  serverCatalogPage(homeQueryFrom(new URLSearchParams(location.search))).catch(() => undefined);
}

/**
 * A page of the home grid. `catalogueNotOnDevice`: the browser is offline and this device has not
 * stored the whole catalogue yet, so the page holds only what the local replica has (on a first
 * visit, nothing): the home page says so rather than that no flight matches.
 */
export type HomePage = FlightCatalogPage & { catalogueNotOnDevice?: true };

/** Whether the browser is online, now and on every change (always online outside a browser). */
function browserOnline$(): Observable<boolean> {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return of(true);
  return merge(
    fromEvent(window, 'online').pipe(map(() => true)),
    fromEvent(window, 'offline').pipe(map(() => false)),
  ).pipe(startWith(navigator.onLine), distinctUntilChanged());
}

/**
 * The home page while the local catalogue is not complete: the server's page, else (server
 * unreachable) whatever the local replica holds, marked when the browser is offline. Back online,
 * the server's page again.
 */
function beforeLocalCatalogue$(data: LocalData, query: CatalogQuery): Observable<HomePage> {
  const local = (offline: boolean): Observable<HomePage> =>
    catalogPage$(data.catalogue, query).pipe(
      map((page) => (offline ? { ...page, catalogueNotOnDevice: true as const } : page)),
    );
  return browserOnline$().pipe(
    switchMap((online) =>
      online
        ? from(serverCatalogPage(query)).pipe(
            catchError((error: unknown) => local(error instanceof ApiError && error.isOffline)),
          )
        : local(true),
    ),
  );
}

/**
 * The home page for a query: local once the local catalogue is complete, the server's before
 * (and the local one if the server cannot be reached). `data` is null while the local data
 * layer is still loading; `openLocalData` opens it (at once when the server cannot answer).
 */
export function homePage$(
  data: LocalData | null,
  query: CatalogQuery,
  openLocalData: () => Promise<unknown>,
): Observable<HomePage> {
  if (!data) {
    if (catalogueSyncedBefore()) return of();
    return from(serverCatalogPage(query)).pipe(
      catchError(() => {
        void openLocalData();
        return of();
      }),
    );
  }
  return localCatalogueReady$(data).pipe(
    switchMap((ready) =>
      ready ? catalogPage$(data.catalogue, query) : beforeLocalCatalogue$(data, query),
    ),
  );
}

// Hooks --------------------------------------------------------------------------------------

/** The home page of flights for a query (filters, sort and page from the URL). */
export function useCatalogPage(query: CatalogQuery): HomePage | undefined {
  const data = useLocalDataIfOpen();
  const openLocalData = useLocalDataLoader();
  const key = JSON.stringify(query);
  const page = useObservable(() => homePage$(data, query, openLocalData), [data, key]);
  // When the local data layer opens (a first visit), the page on screen stays until the new
  // source answers for the same query: the loader in between would redraw the whole grid twice.
  // A ref read and written in render, not state: state would render the page twice for each new
  // page, and a page kept from a render React threw away is still a page of this query.
  const shown = useRef<{ key: string; page: HomePage } | undefined>(undefined);
  // eslint-disable-next-line react-hooks/refs
  if (page !== undefined) shown.current = { key, page };
  // eslint-disable-next-line react-hooks/refs
  return page ?? (shown.current?.key === key ? shown.current.page : undefined);
}

const NO_AIRLINES: Airline[] = [];

/** Every airline, A→Z (the airline filter's autocomplete). */
export function useAirlines(): readonly Airline[] {
  const data = useLocalDataIfOpen();
  return useObservable(
    () =>
      data
        ? data.db.collections.airlines.find({ sort: [{ name: 'asc' }] }).$.pipe(
            map((docs) => plain<Airline>(docs)),
            // The same documents again (the query ran again and found the same airlines)
            // render nothing again.
            distinctUntilChanged(sameItems),
          )
        : of(NO_AIRLINES),
    [data],
    NO_AIRLINES,
  );
}

/** The flight detail; `null` when there is no such flight, `undefined` while loading. */
export function useFlight(id: string): FlightDetail | null | undefined {
  const data = useLocalData();
  return useObservable(() => flight$(data, id), [data, id]);
}

/** The reviews of an airline (a flight detail shows its airline's); undefined while loading. */
export function useAirlineReviews(airlineId: string | undefined): AirlineReviews | undefined {
  const data = useLocalData();
  return useObservable(
    () => (airlineId === undefined ? of(undefined) : airlineReviews$(data, airlineId)),
    [data, airlineId],
  );
}

/** The places flights serve, from the local catalogue: the search box's suggestions. */
export interface CatalogPlaces {
  /** Where listed flights leave from, A→Z. */
  readonly origins: readonly string[];
  /** Where listed flights go to, A→Z. */
  readonly destinations: readonly string[];
}

const NO_PLACES: CatalogPlaces = { origins: [], destinations: [] };

const samePlaces = (a: CatalogPlaces, b: CatalogPlaces) =>
  a.origins.join('\n') === b.origins.join('\n') &&
  a.destinations.join('\n') === b.destinations.join('\n');

/**
 * The places of the local catalogue's listed flights (none before this device has the whole
 * catalogue: the first visit's server pages are no list of places). Read from the catalogue
 * index's place counts, which each change of a flight moves: no keystroke and no change reads
 * the flights (catalogue-index.ts `PlaceCounts`).
 */
export function catalogPlaces$(data: LocalData): Observable<CatalogPlaces> {
  return localCatalogueReady$(data).pipe(
    switchMap((ready) =>
      ready
        ? catalogIndex$(data.catalogue).pipe(map((index) => placeNames(index.places)))
        : of(NO_PLACES),
    ),
    distinctUntilChanged(samePlaces),
  );
}

/** The search box's suggestions (none until the local data layer is open). */
export function useCatalogPlaces(): CatalogPlaces {
  const data = useLocalDataIfOpen();
  return useObservable(() => (data ? catalogPlaces$(data) : of(NO_PLACES)), [data], NO_PLACES);
}
