import type { Flight } from '../schemas/flight.ts';
import type { CatalogQuery, CatalogSort, FlightCatalogPage } from '../schemas/catalog-query.ts';
import { isInPriceBand } from './pricing.ts';

/**
 * The home catalogue's reference semantics (spec §4), over flights held in memory. The server
 * answers `GET /api/flights` with SQL that must give exactly the same pages; a property test
 * compares the two on random data.
 *
 * 1. Only flights with tickets left are listed.
 * 2. Origin/destination search (case-insensitive prefix of the country name, text trimmed) is
 *    decided over every listed flight: flights where both given texts match; if there are none,
 *    flights where either matches; if there are none either, the search is dropped and
 *    `originNotFound` is set ("opps... Origin not found", and the filter resets).
 * 3. The airline filter and the price band then narrow that set (they combine).
 * 4. One ordering; ties always fall back to the flight id, ascending.
 * 5. Pages of `pageSize` (6 on the home screen); a page past the end is empty, not an error.
 */
export function queryCatalog(flights: readonly Flight[], query: CatalogQuery): FlightCatalogPage {
  const listed = flights.filter(isListedFlight);
  const search = searchTerms(query);
  const level = searchLevel(listed, search);
  const compare = catalogComparator(query.sort);
  const matching = listed
    .filter((flight) => matchesSearchAtLevel(flight, search, level))
    .filter((flight) => query.airlineId === undefined || flight.airlineId === query.airlineId)
    .filter((flight) => isInPriceBand(flight.priceCents, query.band))
    .sort(compare);
  const start = (query.page - 1) * query.pageSize;
  return {
    items: matching.slice(start, start + query.pageSize),
    page: query.page,
    pageSize: query.pageSize,
    total: matching.length,
    pageCount: pageCountFor(matching.length, query.pageSize),
    originNotFound: level === 'notFound',
  };
}

/** Whether a flight appears in the public catalogue at all: it has tickets left. */
export function isListedFlight(flight: Pick<Flight, 'tickets'>): boolean {
  return flight.tickets > 0;
}

/** Number of pages of `pageSize` needed for `total` items (0 when there are none). */
export function pageCountFor(total: number, pageSize: number): number {
  return Math.ceil(total / pageSize);
}

/** The normalised search texts of a query: lower-cased, trimmed; blank texts are absent. */
export interface SearchTerms {
  origin?: string;
  destination?: string;
}

export function searchTerms(query: Pick<CatalogQuery, 'origin' | 'destination'>): SearchTerms {
  const origin = normaliseSearchText(query.origin);
  const destination = normaliseSearchText(query.destination);
  return {
    ...(origin === undefined ? {} : { origin }),
    ...(destination === undefined ? {} : { destination }),
  };
}

/** Search text as it is compared: trimmed and lower-cased; blank means no search. */
export function normaliseSearchText(text: string | undefined): string | undefined {
  const trimmed = text?.trim().toLowerCase();
  return trimmed ? trimmed : undefined;
}

/** Whether `place` (a country name) starts with the normalised search text, ignoring case. */
export function matchesPlace(place: string, normalisedText: string): boolean {
  return place.toLowerCase().startsWith(normalisedText);
}

/**
 * How the search applies: `none` without search text; `both` when some listed flight matches every
 * given text; else `either` when some listed flight matches one of them; else `notFound`.
 * With a single text, `both` and `either` mean the same thing.
 */
export type SearchLevel = 'none' | 'both' | 'either' | 'notFound';

export function searchLevel(listed: readonly Flight[], search: SearchTerms): SearchLevel {
  if (search.origin === undefined && search.destination === undefined) return 'none';
  if (listed.some((flight) => matchesSearchAtLevel(flight, search, 'both'))) return 'both';
  if (listed.some((flight) => matchesSearchAtLevel(flight, search, 'either'))) return 'either';
  return 'notFound';
}

/** Whether a flight matches the search at a level (`none` and `notFound`: every flight does). */
export function matchesSearchAtLevel(
  flight: Flight,
  search: SearchTerms,
  level: SearchLevel,
): boolean {
  if (level === 'none' || level === 'notFound') return true;
  const origin =
    search.origin === undefined ? undefined : matchesPlace(flight.origin, search.origin);
  const destination =
    search.destination === undefined
      ? undefined
      : matchesPlace(flight.destination, search.destination);
  const given = [origin, destination].filter((match) => match !== undefined);
  return level === 'both' ? given.every(Boolean) : given.some(Boolean);
}

/**
 * Compares strings by Unicode code point, the order PostgreSQL's "C" collation gives UTF-8 text.
 * (JavaScript's `<` compares UTF-16 code units, which differs for characters beyond U+FFFF.)
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (U+D800–DFFF) above U+E000–FFFF so that code units sort as code points. */
function codePointRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/** The airline sort key: the name in lower case, compared by code point. */
export function airlineSortKey(airlineName: string): string {
  return airlineName.toLowerCase();
}

type FlightComparator = (a: Flight, b: Flight) => number;

const byId: FlightComparator = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const primaryOrders: Record<CatalogSort, FlightComparator> = {
  initial: (a, b) => a.createdAt - b.createdAt,
  price_desc: (a, b) => b.priceCents - a.priceCents,
  price_asc: (a, b) => a.priceCents - b.priceCents,
  airline_asc: (a, b) =>
    compareCodePoints(airlineSortKey(a.airlineName), airlineSortKey(b.airlineName)),
  airline_desc: (a, b) =>
    compareCodePoints(airlineSortKey(b.airlineName), airlineSortKey(a.airlineName)),
  stock_desc: (a, b) => b.tickets - a.tickets,
  stock_asc: (a, b) => a.tickets - b.tickets,
};

/**
 * The comparator of an ordering: `initial` is creation time (oldest first), the others are the
 * spec's six orders; every one breaks ties by id ascending (ids are lower-case UUIDs).
 */
export function catalogComparator(sort: CatalogSort): FlightComparator {
  const primary = primaryOrders[sort];
  return (a, b) => primary(a, b) || byId(a, b);
}
