import {
  CATALOG_SORTS,
  catalogComparator,
  isInPriceBand,
  isListedFlight,
  matchesSearchAtLevel,
  pageCountFor,
  searchLevel,
  searchTerms,
  type CatalogQuery,
  type CatalogSort,
  type Flight,
  type FlightCatalogPage,
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
  /** The listed flights in a sort order (computed on first use, then kept). */
  sorted(sort: CatalogSort): readonly Flight[];
}

export function createCatalogIndex(flights: readonly Flight[]): CatalogIndex {
  const listed = flights.filter(isListedFlight);
  const orders = new Map<CatalogSort, readonly Flight[]>();
  return {
    listed,
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

/** Builds every sort order at once (e.g. when the app is idle), so no query pays for a sort. */
export function warmCatalogIndex(index: CatalogIndex): void {
  for (const sort of CATALOG_SORTS) index.sorted(sort);
}

/** One page of the home catalogue (see `queryCatalog` in shared for the semantics). */
export function queryCatalogIndex(index: CatalogIndex, query: CatalogQuery): FlightCatalogPage {
  const search = searchTerms(query);
  const level = searchLevel(index.listed as Flight[], search);
  const start = (query.page - 1) * query.pageSize;
  const end = start + query.pageSize;
  const items: Flight[] = [];
  let total = 0;
  for (const flight of index.sorted(query.sort)) {
    if (query.airlineId !== undefined && flight.airlineId !== query.airlineId) continue;
    if (!isInPriceBand(flight.priceCents, query.band)) continue;
    if (!matchesSearchAtLevel(flight, search, level)) continue;
    if (total >= start && total < end) items.push(flight);
    total += 1;
  }
  return {
    items,
    page: query.page,
    pageSize: query.pageSize,
    total,
    pageCount: pageCountFor(total, query.pageSize),
    originNotFound: level === 'notFound',
  };
}
