import {
  CATALOG_SORTS,
  catalogComparator,
  departsWithin,
  departureDaysCounter,
  hasDepartureRange,
  isInPriceBand,
  isListedFlight,
  matchesSearchAtLevel,
  pageCountFor,
  searchTerms,
  type CatalogQuery,
  type CatalogSort,
  type Flight,
  type FlightCatalogPage,
  type SearchLevel,
} from '@skyport/shared';

/**
 * The home catalogue evaluated on the local database's flights, with the shared rules of
 * `shared/src/rules/catalog-query.ts` (the same that the server's SQL follows), fast enough to
 * run on every keystroke over 10,000 flights: the listed flights are kept sorted once per sort
 * order (an in-memory index, like the flights collection's indexes, rebuilt only when the
 * flights change), and a page is one pass that filters in sort order and stops counting at the end.
 * `queryCatalogIndex(createCatalogIndex(f), q)` gives exactly `queryCatalog(f, q)` (a test checks).
 */
export interface CatalogIndex {
  /** Flights with tickets left, in no particular order. */
  readonly listed: readonly Flight[];
  /** The places the listed flights serve (the search box's suggestions). */
  readonly places: PlaceCounts;
  /** The listed flights in a sort order (computed on first use, then kept). */
  sorted(sort: CatalogSort): readonly Flight[];
}

/**
 * How many listed flights leave from (`origins`) and go to (`destinations`) each place: counted
 * once when the index is built, then moved by each changed flight (a place leaves the map with
 * its last flight), so that the suggestions never scan the catalogue.
 */
export interface PlaceCounts {
  readonly origins: ReadonlyMap<string, number>;
  readonly destinations: ReadonlyMap<string, number>;
}

export function createCatalogIndex(flights: readonly Flight[]): CatalogIndex {
  const listed = flights.filter(isListedFlight);
  const places = emptyPlaceCounts();
  for (const flight of listed) countPlaces(places, flight, 1);
  return indexOf(listed, new Map(), places);
}

function emptyPlaceCounts() {
  return { origins: new Map<string, number>(), destinations: new Map<string, number>() };
}

/** Adds (`by` 1) or takes away (`by` -1) a listed flight's origin and destination. */
function countPlaces(
  places: { origins: Map<string, number>; destinations: Map<string, number> },
  flight: Flight,
  by: 1 | -1,
) {
  for (const [counts, place] of [
    [places.origins, flight.origin],
    [places.destinations, flight.destination],
  ] as const) {
    const count = (counts.get(place) ?? 0) + by;
    if (count > 0) counts.set(place, count);
    else counts.delete(place);
  }
}

/** The places of an index, each list sorted A→Z (the order a person scans a list of names in). */
export function placeNames(places: PlaceCounts): {
  origins: string[];
  destinations: string[];
} {
  const sorted = (counts: ReadonlyMap<string, number>) =>
    [...counts.keys()].sort((a, b) => a.localeCompare(b));
  return { origins: sorted(places.origins), destinations: sorted(places.destinations) };
}

/** An index over `listed` with the sort orders already built; the others are built on first use. */
function indexOf(
  listed: readonly Flight[],
  orders: Map<CatalogSort, readonly Flight[]>,
  places: PlaceCounts,
): CatalogIndex & { readonly built: ReadonlyMap<CatalogSort, readonly Flight[]> } {
  return {
    listed,
    places,
    built: orders,
    sorted(sort) {
      let order = orders.get(sort);
      if (!order) {
        order = [...listed].sort(catalogComparator(sort));
        orders.set(sort, order);
      }
      return order;
    },
  };
}

// Large catalogues, in slices -------------------------------------------------------------------
//
// Filtering and sorting 100,000 flights take hundreds of milliseconds on a phone: done at once,
// the page does not answer a tap meanwhile. The functions below do the same work in slices of a
// few milliseconds, awaiting `pause` (a new task) between them, and keep an index up to date with
// a few changed flights without sorting again.

/** Ends a slice of work: resolves in a new task (ui/idle.ts `nextTask`). */
export type Pause = () => Promise<void>;

/** Runs `pause` once `sliceMs` have passed since the last one. */
function slicer(pause: Pause, sliceMs: number) {
  let started = performance.now();
  return async () => {
    if (performance.now() - started < sliceMs) return;
    await pause();
    started = performance.now();
  };
}

/** Runs sorted one at a time, then merged pairwise: a stable merge sort, in slices. */
export async function sortInSlices<T>(
  items: readonly T[],
  compare: (a: T, b: T) => number,
  pause: Pause,
  sliceMs = 8,
): Promise<T[]> {
  // Sorted at once, a run of 2,048 flights took 55 ms on a phone (4× CPU slowdown) with the
  // fastest order's comparator (a duration per flight): runs are short, the merges are sliced.
  const RUN = 512;
  const check = slicer(pause, sliceMs);
  let runs: T[][] = [];
  for (let start = 0; start < items.length; start += RUN) {
    runs.push(items.slice(start, start + RUN).sort(compare));
    await check();
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let i = 0; i < runs.length; i += 2) {
      const a = runs[i]!;
      const b = runs[i + 1];
      if (!b) {
        merged.push(a);
        continue;
      }
      const out = new Array<T>(a.length + b.length);
      let x = 0;
      let y = 0;
      let k = 0;
      while (x < a.length && y < b.length) {
        out[k++] = compare(a[x]!, b[y]!) <= 0 ? a[x++]! : b[y++]!;
        if ((k & 4095) === 0) await check();
      }
      while (x < a.length) out[k++] = a[x++]!;
      while (y < b.length) out[k++] = b[y++]!;
      merged.push(out);
      await check();
    }
    runs = merged;
  }
  return runs[0] ?? [];
}

/**
 * `createCatalogIndex`, in slices: the listed flights, and the `sorts` orders built now (the
 * others are built on first use, or by `warmInSlices`).
 */
export async function buildCatalogIndex(
  flights: Iterable<Flight>,
  sorts: readonly CatalogSort[],
  pause: Pause,
  sliceMs = 8,
): Promise<CatalogIndex> {
  const check = slicer(pause, sliceMs);
  const listed: Flight[] = [];
  const places = emptyPlaceCounts();
  let seen = 0;
  for (const flight of flights) {
    if (isListedFlight(flight)) {
      listed.push(flight);
      countPlaces(places, flight, 1);
    }
    if ((++seen & 1023) === 0) await check();
  }
  const orders = new Map<CatalogSort, readonly Flight[]>();
  for (const sort of sorts)
    orders.set(sort, await sortInSlices(listed, catalogComparator(sort), pause, sliceMs));
  return indexOf(listed, orders, places);
}

/** Builds the index's other sort orders in slices (so that no query has to sort). */
export async function warmInSlices(index: CatalogIndex, pause: Pause, sliceMs = 8): Promise<void> {
  const built = (index as { built?: Map<CatalogSort, readonly Flight[]> }).built;
  if (!built) return warmCatalogIndex(index);
  for (const sort of CATALOG_SORTS) {
    if (built.has(sort)) continue;
    built.set(sort, await sortInSlices(index.listed, catalogComparator(sort), pause, sliceMs));
  }
}

/** A flight as it was and as it is now (undefined: not there). */
export interface FlightChange {
  before?: Flight;
  after?: Flight;
}

/** Above this share of the listed flights changed at once, the index is built again instead. */
const UPDATE_SHARE = 1 / 50;

/**
 * The index after a few flights changed, without sorting again: the built orders are copied and
 * each changed flight is taken out of them and put back at its place (a binary search each). Null
 * when so many changed that building the index again is cheaper.
 */
export function updateCatalogIndex(
  index: CatalogIndex,
  changes: readonly FlightChange[],
): CatalogIndex | null {
  const built = (index as { built?: Map<CatalogSort, readonly Flight[]> }).built;
  if (!built || changes.length > Math.max(16, index.listed.length * UPDATE_SHARE)) return null;
  const changed = new Set<string>();
  for (const { before, after } of changes) {
    if (before) changed.add(before.id);
    if (after) changed.add(after.id);
  }
  const listed = index.listed.filter((flight) => !changed.has(flight.id));
  for (const { after } of changes) if (after && isListedFlight(after)) listed.push(after);
  // A few hundred places at most: copied, then moved by the changed flights.
  const places = {
    origins: new Map(index.places.origins),
    destinations: new Map(index.places.destinations),
  };
  for (const { before, after } of changes) {
    if (before && isListedFlight(before)) countPlaces(places, before, -1);
    if (after && isListedFlight(after)) countPlaces(places, after, 1);
  }
  const orders = new Map<CatalogSort, readonly Flight[]>();
  for (const [sort, order] of built) {
    const compare = catalogComparator(sort);
    const next = [...order];
    for (const { before, after } of changes) {
      if (before && isListedFlight(before)) {
        const at = search(next, before, compare);
        if (next[at] === before) next.splice(at, 1);
        else {
          // Not where its values say (it was changed in place): find it by id.
          const found = next.findIndex((flight) => flight.id === before.id);
          if (found >= 0) next.splice(found, 1);
        }
      }
      if (after && isListedFlight(after)) next.splice(search(next, after, compare), 0, after);
    }
    orders.set(sort, next);
  }
  return indexOf(listed, orders, places);
}

/** The first position in `sorted` whose flight does not come before `flight`. */
function search(
  sorted: readonly Flight[],
  flight: Flight,
  compare: (a: Flight, b: Flight) => number,
): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(sorted[middle]!, flight) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Builds every sort order at once (e.g. when the app is idle), so no query pays for a sort. */
export function warmCatalogIndex(index: CatalogIndex): void {
  for (const sort of CATALOG_SORTS) index.sorted(sort);
}

/** One page of the home catalogue (see `queryCatalog` in shared for the semantics). */
export function queryCatalogIndex(index: CatalogIndex, query: CatalogQuery): FlightCatalogPage {
  const steps = queryInSteps(index.listed, index.sorted(query.sort), query);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `queryCatalogIndex`, in slices: a page needs one pass over every listed flight (the total
 * counts them all), 20-100 ms at 100,000 flights on a phone, and its sort order may not be
 * built yet (`sortedInSlices`). The page itself when it took under `sliceMs` (the usual case,
 * answered at once as before); else a promise of it, the rest of the work done in slices, null
 * when `cancelled` says so between two (a newer query).
 */
export function queryCatalogIndexInSlices(
  index: CatalogIndex,
  query: CatalogQuery,
  pause: Pause,
  cancelled: () => boolean = () => false,
  sliceMs = 8,
): FlightCatalogPage | Promise<FlightCatalogPage | null> {
  const built = (index as { built?: ReadonlyMap<CatalogSort, readonly Flight[]> }).built;
  const order = built ? built.get(query.sort) : index.sorted(query.sort);
  if (!order)
    return sortedInSlices(index, query.sort, pause, sliceMs).then((sorted) =>
      finishInSlices(queryInSteps(index.listed, sorted, query), pause, cancelled, sliceMs),
    );
  const steps = queryInSteps(index.listed, order, query);
  const started = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - started >= sliceMs)
      return pause().then(() => finishInSlices(steps, pause, cancelled, sliceMs));
  }
}

async function finishInSlices(
  steps: Generator<void, FlightCatalogPage>,
  pause: Pause,
  cancelled: () => boolean,
  sliceMs: number,
): Promise<FlightCatalogPage | null> {
  const check = slicer(pause, sliceMs);
  for (;;) {
    if (cancelled()) return null;
    const step = steps.next();
    if (step.done) return step.value;
    await check();
  }
}

/**
 * The index's listed flights in a sort order, sorted in slices if that order is not built yet
 * (and kept in the index, as `sorted` keeps it).
 */
export async function sortedInSlices(
  index: CatalogIndex,
  sort: CatalogSort,
  pause: Pause,
  sliceMs = 8,
): Promise<readonly Flight[]> {
  const built = (index as { built?: Map<CatalogSort, readonly Flight[]> }).built;
  if (!built) return index.sorted(sort);
  let order = built.get(sort);
  if (!order) {
    order = await sortInSlices(index.listed, catalogComparator(sort), pause, sliceMs);
    // Another slice of work (warmInSlices) may have built it meanwhile: the same order.
    if (!built.has(sort)) built.set(sort, order);
  }
  return built.get(sort)!;
}

/** Flights looked at between two possible pauses of a query. */
const QUERY_STEP = 1024;

/**
 * The work of a page, in steps of `QUERY_STEP` flights (it yields between them): the search
 * level (`searchLevel` of shared: whether some listed flight matches both texts, else one),
 * then one pass over `order` that filters, counts and keeps the page's flights.
 */
function* queryInSteps(
  listed: readonly Flight[],
  order: readonly Flight[],
  query: CatalogQuery,
): Generator<void, FlightCatalogPage> {
  const search = searchTerms(query);
  let level: SearchLevel = 'none';
  if (search.origin !== undefined || search.destination !== undefined) {
    level = 'notFound';
    find: for (const candidate of ['both', 'either'] as const) {
      for (let i = 0; i < listed.length; i++) {
        if (matchesSearchAtLevel(listed[i]!, search, candidate)) {
          level = candidate;
          break find;
        }
        if (i % QUERY_STEP === QUERY_STEP - 1) yield;
      }
    }
  }
  const start = (query.page - 1) * query.pageSize;
  const end = start + query.pageSize;
  const items: Flight[] = [];
  const dated = hasDepartureRange(query);
  const days = dated ? departureDaysCounter() : undefined;
  let total = 0;
  for (let i = 0; i < order.length; i++) {
    if (i % QUERY_STEP === QUERY_STEP - 1) yield;
    const flight = order[i]!;
    if (query.airlineId !== undefined && flight.airlineId !== query.airlineId) continue;
    if (!isInPriceBand(flight.priceCents, query.band)) continue;
    if (dated && !departsWithin(flight, query)) continue;
    if (!matchesSearchAtLevel(flight, search, level)) continue;
    if (total >= start && total < end) items.push(flight);
    days?.add(flight);
    total += 1;
  }
  const page: FlightCatalogPage = {
    items,
    page: query.page,
    pageSize: query.pageSize,
    total,
    pageCount: pageCountFor(total, query.pageSize),
    originNotFound: level === 'notFound',
  };
  return days ? { ...page, departureDays: days.days() } : page;
}
