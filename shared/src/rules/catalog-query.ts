import { addDays } from '../dates.ts';
import type { Flight } from '../schemas/flight.ts';
import type {
  CatalogQuery,
  CatalogSort,
  DepartureDay,
  FlightCatalogPage,
} from '../schemas/catalog-query.ts';
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
 * 3. The airline filter, the price band and the departure dates then narrow that set (they
 *    combine). Like the airline, a date range never decides "not found": a place with no flight
 *    on those days is an empty page, not a reset search.
 * 4. One ordering; ties always fall back to the flight id, ascending.
 * 5. Pages of `pageSize` (6 on the home screen); a page past the end is empty, not an error.
 * 6. With a date bound, `departureDays`: each day's lowest price over every matching flight.
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
    .filter((flight) => departsWithin(flight, query))
    .sort(compare);
  const start = (query.page - 1) * query.pageSize;
  const page: FlightCatalogPage = {
    items: matching.slice(start, start + query.pageSize),
    page: query.page,
    pageSize: query.pageSize,
    total: matching.length,
    pageCount: pageCountFor(matching.length, query.pageSize),
    originNotFound: level === 'notFound',
  };
  if (!hasDepartureRange(query)) return page;
  const days = departureDaysCounter();
  for (const flight of matching) days.add(flight);
  return { ...page, departureDays: days.days() };
}

// Departure dates --------------------------------------------------------------------------------
//
// Dates are the flight's own departure date (`departureDate`, yyyy-mm-dd, as the airline entered
// it and as every screen shows it), compared as text, which for yyyy-mm-dd is date order. They
// are never moved through a time zone: the server compares the `date` column, the PWA the same
// text (decision 016).

/** Whether the query bounds the departure date at all. */
export function hasDepartureRange(
  query: Pick<CatalogQuery, 'departureFrom' | 'departureTo'>,
): boolean {
  return query.departureFrom !== undefined || query.departureTo !== undefined;
}

/** Whether a flight departs within the query's dates, both bounds inclusive (absent: open). */
export function departsWithin(
  flight: Pick<Flight, 'departureDate'>,
  query: Pick<CatalogQuery, 'departureFrom' | 'departureTo'>,
): boolean {
  return (
    (query.departureFrom === undefined || flight.departureDate >= query.departureFrom) &&
    (query.departureTo === undefined || flight.departureDate <= query.departureTo)
  );
}

/** The flexibility the home screen offers around a chosen date: exact, ±1 day, ±3 days. */
export const DEPARTURE_FLEX_DAYS = [0, 1, 3] as const;
export type DepartureFlex = (typeof DEPARTURE_FLEX_DAYS)[number];

/** The inclusive departure range of a date chosen with a flexibility: `date ± flex` days. */
export function departureWindow(
  date: string,
  flex: DepartureFlex,
): { departureFrom: string; departureTo: string } {
  return { departureFrom: addDays(date, -flex), departureTo: addDays(date, flex) };
}

/** The days of an inclusive range, in order (`from` to `to`). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to && days.length < 366; day = addDays(day, 1)) days.push(day);
  return days;
}

/**
 * Collects the matching flights' departure days: each day's lowest price and number of flights,
 * in date order (`departureDays` of a catalogue page; the server groups the same rows in SQL).
 */
export function departureDaysCounter() {
  const byDay = new Map<string, DepartureDay>();
  return {
    add(flight: Pick<Flight, 'departureDate' | 'priceCents'>) {
      const day = byDay.get(flight.departureDate);
      if (!day) {
        byDay.set(flight.departureDate, {
          date: flight.departureDate,
          lowestPriceCents: flight.priceCents,
          flights: 1,
        });
      } else {
        day.flights += 1;
        if (flight.priceCents < day.lowestPriceCents) day.lowestPriceCents = flight.priceCents;
      }
    },
    days(): DepartureDay[] {
      return [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    },
  };
}

/**
 * The cheapest days of a range: every day whose lowest price is the lowest of all (several when
 * they tie; none without flights). The home screen marks them "Cheapest day".
 */
export function cheapestDays(days: readonly DepartureDay[]): Set<string> {
  const lowest = Math.min(...days.map((day) => day.lowestPriceCents));
  return new Set(days.filter((day) => day.lowestPriceCents === lowest).map((day) => day.date));
}

/**
 * A flight's duration in minutes for the `fastest` order: arrival minus departure, both read as
 * the wall-clock date and hh:mm the flight carries (they hold no time zone). Equals the estimated
 * duration whenever the airline's hours are on one clock; the server computes the same number
 * from the same fields (queries.ts `FLIGHT_MINUTES`).
 */
export function flightMinutes(
  flight: Pick<Flight, 'departureDate' | 'departureHour' | 'arrivalDate' | 'arrivalHour'>,
): number {
  const days = (dayNumber(flight.arrivalDate) - dayNumber(flight.departureDate)) * 1440;
  return days + hourMinutes(flight.arrivalHour) - hourMinutes(flight.departureHour);
}

/** Days since 1970-01-01 of a yyyy-mm-dd date (Howard Hinnant's days_from_civil, no Date). */
function dayNumber(date: string): number {
  let year = digits(date, 0, 4);
  const month = digits(date, 5, 2);
  const day = digits(date, 8, 2);
  if (month <= 2) year -= 1;
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The number written by `length` ASCII digits of `text` from `start`. */
function digits(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}

function hourMinutes(hour: string): number {
  return digits(hour, 0, 2) * 60 + digits(hour, 3, 2);
}

/** `flightMinutes` of each flight object, computed once (sorting compares each flight often). */
const minutesOf = new WeakMap<object, number>();
function memoisedMinutes(flight: Flight): number {
  let minutes = minutesOf.get(flight);
  if (minutes === undefined) {
    minutes = flightMinutes(flight);
    minutesOf.set(flight, minutes);
  }
  return minutes;
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
  fastest: (a, b) => memoisedMinutes(a) - memoisedMinutes(b),
};

/**
 * The comparator of an ordering: `initial` is creation time (oldest first), `fastest` the shortest
 * flight first (`flightMinutes`), the others are the spec's six orders; every one breaks ties by id ascending (ids are lower-case UUIDs).
 */
export function catalogComparator(sort: CatalogSort): FlightComparator {
  const primary = primaryOrders[sort];
  return (a, b) => primary(a, b) || byId(a, b);
}
