import type postgres from 'postgres';
import {
  PRICE_BAND_LOW_MAX_CENTS,
  PRICE_BAND_MID_MAX_CENTS,
  searchTerms,
  type Airline,
  type AirlineListQuery,
  type AirlinePage,
  type CatalogQuery,
  type CatalogSort,
  type Flight,
  type FlightCatalogPage,
  type FlightDetail,
  type PriceBand,
  type Review,
  type ReviewListQuery,
  type ReviewPage,
  type SearchLevel,
  type SearchTerms,
} from '@skyport/shared';
import type { Sql } from '../../db/client.ts';

/*
 * The catalogue's SQL. Every page is one statement (two for a search: first which search level
 * applies, then the page), built from fixed fragments; user input only ever travels as parameters.
 * The semantics are those of `queryCatalog` in @skyport/shared, which catalog.test.ts checks on
 * random data. Indexes: src/db/migrations/002_catalog.sql; reasons: docs/decisions/003-catalog-queries.md.
 */

type Fragment = postgres.Fragment;

interface FlightRow extends Flight {
  total: number;
}

/** The wire columns of a flight (FlightSchema), from `flights f`. */
function flightColumns(sql: Sql): Fragment {
  return sql`
    f.id,
    f.airline_id AS "airlineId",
    f.airline_name AS "airlineName",
    f.origin,
    f.destination,
    to_char(f.departure_date, 'YYYY-MM-DD') AS "departureDate",
    to_char(f.departure_hour, 'HH24:MI') AS "departureHour",
    to_char(f.arrival_date, 'YYYY-MM-DD') AS "arrivalDate",
    to_char(f.arrival_hour, 'HH24:MI') AS "arrivalHour",
    f.duration_estimated AS "durationEstimated",
    f.price_cents AS "priceCents",
    f.tickets,
    f.logo,
    f.description,
    (extract(epoch FROM f.created_at) * 1000)::int8 AS "createdAt"`;
}

/**
 * ORDER BY of each ordering, over an alias `f` (of flights or of the matches CTE). Each one has a
 * partial index in exactly this order (002_catalog.sql); ties go to the id, ascending, as in
 * `catalogComparator`.
 */
function orderBy(sql: Sql, sort: CatalogSort): Fragment {
  switch (sort) {
    case 'initial':
      return sql`f.created_at, f.id`;
    case 'price_desc':
      return sql`f.price_cents DESC, f.id`;
    case 'price_asc':
      return sql`f.price_cents, f.id`;
    case 'airline_asc':
      return sql`lower(f.airline_name) COLLATE "C", f.id`;
    case 'airline_desc':
      return sql`lower(f.airline_name) COLLATE "C" DESC, f.id`;
    case 'stock_desc':
      return sql`f.tickets DESC, f.id`;
    case 'stock_asc':
      return sql`f.tickets, f.id`;
  }
}

/** The price band as a range on price_cents (edges as in `priceBandOf`). */
function bandFilter(sql: Sql, band: PriceBand): Fragment {
  switch (band) {
    case 'all':
      return sql``;
    case 'low':
      return sql`AND f.price_cents <= ${PRICE_BAND_LOW_MAX_CENTS}`;
    case 'mid':
      return sql`AND f.price_cents > ${PRICE_BAND_LOW_MAX_CENTS} AND f.price_cents < ${PRICE_BAND_MID_MAX_CENTS}`;
    case 'high':
      return sql`AND f.price_cents >= ${PRICE_BAND_MID_MAX_CENTS}`;
  }
}

function airlineFilter(sql: Sql, airlineId: string | undefined): Fragment {
  return airlineId === undefined ? sql`` : sql`AND f.airline_id = ${airlineId}`;
}

/** The `price_band` value of catalog_listing_counts for a band filter. */
function countsFilter(sql: Sql, query: CatalogQuery): Fragment {
  const airline = query.airlineId === undefined ? sql`` : sql`AND airline_id = ${query.airlineId}`;
  const band = query.band === 'all' ? sql`` : sql`AND price_band = ${query.band}`;
  return sql`${airline} ${band}`;
}

/**
 * A case-insensitive prefix test as a byte-order range, `lower(column) ∈ [prefix, next)`, where
 * `next` is the prefix with its last code point incremented. Exactly `startsWith` on the lower-cased
 * text (byte order of UTF-8 is code point order), and unlike `LIKE $1 || '%'` the planner can use
 * the text_pattern_ops index with a parameter, also in a generic plan.
 */
export function prefixRange(prefix: string): { from: string; to: string | undefined } {
  const points = Array.from(prefix);
  const last = points.pop();
  if (last === undefined) return { from: prefix, to: undefined };
  let next = (last.codePointAt(0) ?? 0) + 1;
  if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
  if (next > 0x10ffff) return { from: prefix, to: undefined };
  return { from: prefix, to: points.join('') + String.fromCodePoint(next) };
}

function startsWith(sql: Sql, column: 'origin' | 'destination', prefix: string): Fragment {
  const { from, to } = prefixRange(prefix);
  const expression = column === 'origin' ? sql`lower(f.origin)` : sql`lower(f.destination)`;
  const upper = to === undefined ? sql`` : sql`AND ${expression} ~<~ ${to}`;
  return sql`(${expression} ~>=~ ${from} ${upper})`;
}

/** Listed flights; literal, so that every plan sees the partial indexes' predicate implied. */
function listed(sql: Sql): Fragment {
  return sql`f.tickets > 0 AND NOT f.deleted`;
}

/** Which search level applies, decided over every listed flight (as `searchLevel` does). */
async function findSearchLevel(sql: Sql, search: SearchTerms): Promise<SearchLevel> {
  const { origin, destination } = search;
  if (origin === undefined && destination === undefined) return 'none';
  const exists = (condition: Fragment) =>
    sql`EXISTS (SELECT 1 FROM flights f WHERE ${listed(sql)} AND ${condition})`;
  if (origin !== undefined && destination !== undefined) {
    const originMatch = startsWith(sql, 'origin', origin);
    const destinationMatch = startsWith(sql, 'destination', destination);
    const [row] = await sql<{ both: boolean; either: boolean }[]>`
      SELECT ${exists(sql`${originMatch} AND ${destinationMatch}`)} AS both,
             ${exists(originMatch)} OR ${exists(destinationMatch)} AS either`;
    return row?.both ? 'both' : row?.either ? 'either' : 'notFound';
  }
  const single =
    origin !== undefined
      ? startsWith(sql, 'origin', origin)
      : startsWith(sql, 'destination', destination!);
  const [row] = await sql<{ found: boolean }[]>`SELECT ${exists(single)} AS found`;
  return row?.found ? 'both' : 'notFound';
}

/**
 * The listed flights matching the search at `level` and the airline/band filters, with the columns
 * every ordering needs (all included in the search indexes).
 */
function searchMatches(
  sql: Sql,
  query: CatalogQuery,
  search: SearchTerms,
  level: 'both' | 'either',
): Fragment {
  const filters = sql`${airlineFilter(sql, query.airlineId)} ${bandFilter(sql, query.band)}`;
  const columns = sql`f.id, f.created_at, f.price_cents, f.tickets, f.airline_name`;
  const { origin, destination } = search;
  if (origin !== undefined && destination !== undefined) {
    const originMatch = startsWith(sql, 'origin', origin);
    const destinationMatch = startsWith(sql, 'destination', destination);
    if (level === 'both') {
      return sql`SELECT ${columns} FROM flights f WHERE ${listed(sql)} AND ${originMatch} AND ${destinationMatch} ${filters}`;
    }
    // Either: origin matches, plus destination-only matches. At this level no listed flight matched
    // both when the level was read; `NOT origin` keeps the branches disjoint (no de-duplication)
    // even if one was written between the two statements.
    return sql`
      SELECT ${columns} FROM flights f WHERE ${listed(sql)} AND ${originMatch} ${filters}
      UNION ALL
      SELECT ${columns} FROM flights f WHERE ${listed(sql)} AND ${destinationMatch} AND NOT ${originMatch} ${filters}`;
  }
  const single =
    origin !== undefined
      ? startsWith(sql, 'origin', origin)
      : startsWith(sql, 'destination', destination!);
  return sql`SELECT ${columns} FROM flights f WHERE ${listed(sql)} AND ${single} ${filters}`;
}

/**
 * A page of a search: the matches are counted (from the search indexes alone) and, separately, the
 * page is read; the planner picks per search whether to sort the matches (a narrow prefix) or to
 * walk the ordering's index until the page is full (a wide one, such as a single letter).
 */
function pageOfSearch(sql: Sql, query: CatalogQuery, matches: Fragment) {
  const order = orderBy(sql, query.sort);
  return sql<FlightRow[]>`
    SELECT t.total, ${flightColumns(sql)}
    FROM (SELECT count(*) AS total FROM (${matches}) m) t
    LEFT JOIN (
      (SELECT f.id FROM (${matches}) f ORDER BY ${order} LIMIT ${query.pageSize} OFFSET ${offsetOf(query)}) p
      JOIN flights f ON f.id = p.id
    ) ON true
    ORDER BY ${order}`;
}

/**
 * A page of one airline sorted by airline name. Its flights sit in one stretch of the name index,
 * anywhere along it, so walking that index could read most of it before the first row (the planner
 * cannot know where). Sorting the airline's own flights (read from its index, behind a
 * materialisation fence) is bounded by their number instead.
 */
function pageOfAirlineByName(sql: Sql, query: CatalogQuery) {
  const order = orderBy(sql, query.sort);
  return sql<FlightRow[]>`
    WITH m AS MATERIALIZED (
      SELECT f.id, f.airline_name FROM flights f
      WHERE ${listed(sql)} ${airlineFilter(sql, query.airlineId)} ${bandFilter(sql, query.band)}
    )
    SELECT t.total, ${flightColumns(sql)}
    FROM (SELECT count(*) AS total FROM m) t
    LEFT JOIN (
      (SELECT f.id FROM m f ORDER BY ${order} LIMIT ${query.pageSize} OFFSET ${offsetOf(query)}) p
      JOIN flights f ON f.id = p.id
    ) ON true
    ORDER BY ${order}`;
}

/**
 * A page read by walking the ordering's index (filters checked on its index tuples), counted from
 * catalog_listing_counts: no search, so the count is a sum over at most airlines × 3 rows.
 */
function pageByIndex(sql: Sql, query: CatalogQuery) {
  const order = orderBy(sql, query.sort);
  return sql<FlightRow[]>`
    SELECT t.total, ${flightColumns(sql)}
    FROM (SELECT coalesce(sum(listed), 0)::int8 AS total FROM catalog_listing_counts WHERE true ${countsFilter(sql, query)}) t
    LEFT JOIN (
      (SELECT f.id FROM flights f
       WHERE ${listed(sql)} ${airlineFilter(sql, query.airlineId)} ${bandFilter(sql, query.band)}
       ORDER BY ${order} LIMIT ${query.pageSize} OFFSET ${offsetOf(query)}) p
      JOIN flights f ON f.id = p.id
    ) ON true
    ORDER BY ${order}`;
}

function offsetOf(query: { page: number; pageSize: number }): number {
  return (query.page - 1) * query.pageSize;
}

/** `GET /api/flights`: one page of the home catalogue, as `queryCatalog` would list it. */
export async function findCatalogPage(sql: Sql, query: CatalogQuery): Promise<FlightCatalogPage> {
  const search = searchTerms(query);
  const level = await findSearchLevel(sql, search);
  let rows: FlightRow[];
  if (level === 'both' || level === 'either') {
    rows = await pageOfSearch(sql, query, searchMatches(sql, query, search, level));
  } else if (
    query.airlineId !== undefined &&
    (query.sort === 'airline_asc' || query.sort === 'airline_desc')
  ) {
    rows = await pageOfAirlineByName(sql, query);
  } else {
    rows = await pageByIndex(sql, query);
  }
  const total = rows[0]?.total ?? 0;
  return {
    items: rows.filter((row) => row.id !== null).map(toFlight),
    page: query.page,
    pageSize: query.pageSize,
    total,
    pageCount: Math.ceil(total / query.pageSize),
    originNotFound: level === 'notFound',
  };
}

function toFlight({ total: _total, ...flight }: FlightRow): Flight {
  return flight;
}

/** `GET /api/flights/:id`: a flight that is not deleted, sold out or not; undefined otherwise. */
export async function findFlightById(sql: Sql, id: string): Promise<FlightDetail | undefined> {
  const [row] = await sql<FlightDetail[]>`
    SELECT ${flightColumns(sql)}, f.tickets = 0 AS "soldOut"
    FROM flights f WHERE f.id = ${id} AND NOT f.deleted`;
  return row ? { ...row } : undefined;
}

/** `GET /api/airlines`: airlines that are not deleted, A→Z (lower case, code point order), then id. */
export async function findAirlinePage(sql: Sql, query: AirlineListQuery): Promise<AirlinePage> {
  const rows = await sql<(Airline & { total: number })[]>`
    SELECT t.total, a.id, a.name, a.owner_user_id AS "userId", a.image
    FROM (SELECT count(*) AS total FROM airlines WHERE NOT deleted) t
    LEFT JOIN (
      SELECT id, name, owner_user_id, image FROM airlines WHERE NOT deleted
      ORDER BY lower(name) COLLATE "C", id LIMIT ${query.pageSize} OFFSET ${offsetOf(query)}
    ) a ON true
    ORDER BY lower(a.name) COLLATE "C", a.id`;
  const total = rows[0]?.total ?? 0;
  return {
    items: rows.filter((row) => row.id !== null).map(({ total: _total, ...airline }) => airline),
    page: query.page,
    pageSize: query.pageSize,
    total,
    pageCount: Math.ceil(total / query.pageSize),
  };
}

interface ReviewRow extends Review {
  total: number;
  ratingSum: number;
}

/**
 * `GET /api/comments`: reviews that are not deleted, newest first, optionally of one airline and/or
 * one flight; with a filter, the average rating of every matching review to the half star.
 */
export async function findReviewPage(sql: Sql, query: ReviewListQuery): Promise<ReviewPage> {
  const filters = sql`
    ${query.airlineId === undefined ? sql`` : sql`AND r.airline_id = ${query.airlineId}`}
    ${query.flightId === undefined ? sql`` : sql`AND r.flight_id = ${query.flightId}`}`;
  const rows = await sql<ReviewRow[]>`
    SELECT t.total, t.rating_sum AS "ratingSum", p.id, p.rating, p.comment, p.name,
           p.airline_id AS "airlineId", p.flight_id AS "flightId", p.order_id AS "orderId",
           p.more_info AS "moreInfo", (extract(epoch FROM p.created_at) * 1000)::int8 AS "createdAt"
    FROM (SELECT count(*) AS total, coalesce(sum(r.rating), 0)::int8 AS rating_sum
          FROM reviews r WHERE NOT r.deleted ${filters}) t
    LEFT JOIN (
      SELECT r.* FROM reviews r WHERE NOT r.deleted ${filters}
      ORDER BY r.created_at DESC, r.id LIMIT ${query.pageSize} OFFSET ${offsetOf(query)}
    ) p ON true
    ORDER BY p.created_at DESC, p.id`;
  const total = rows[0]?.total ?? 0;
  const ratingSum = rows[0]?.ratingSum ?? 0;
  const filtered = query.airlineId !== undefined || query.flightId !== undefined;
  return {
    items: rows
      .filter((row) => row.id !== null)
      .map(({ total: _t, ratingSum: _s, ...review }) => review),
    page: query.page,
    pageSize: query.pageSize,
    total,
    pageCount: Math.ceil(total / query.pageSize),
    averageRating: filtered ? averageFromSum(ratingSum, total) : null,
  };
}

/**
 * `averageRating` of @skyport/shared from a sum and a count, so that the database does not ship
 * every rating: the same half-star rounding of 2·sum / n, half up.
 */
export function averageFromSum(sum: number, count: number): number | null {
  if (count === 0) return null;
  return Math.round((2 * sum) / count) / 2;
}
