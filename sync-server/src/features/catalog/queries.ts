import {
  HOME_PAGE_SIZE,
  CATALOG_MAX_PAGE_SIZE,
  PRICE_BAND_LOW_MAX_CENTS,
  PRICE_BAND_MID_MAX_CENTS,
  type Airline,
  type AirlineListQuery,
  type AirlinePage,
  type CatalogQuery,
  type CatalogSort,
  type FlightDetail,
  hasDepartureRange,
  type PriceBand,
  type Review,
  type ReviewListQuery,
  type ReviewPage,
  type SearchLevel,
  type SearchTerms,
} from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { FLIGHT_WIRE_COLUMNS } from '../../db/flight-row.ts';

/*
 * The catalogue's SQL. GET /api/flights is answered by ONE statement per page (a search that
 * matches nothing takes a second one, for the listing it falls back to), which also reads the
 * page's total from the maintained counts and the catalogue's version (its ETag), so that the
 * three agree. The semantics are those of `queryCatalog` in @skyport/shared, which catalog.test.ts
 * checks on random data.
 *
 * Statements are texts built from fixed fragments chosen by the parsed query (sort, band, which
 * filters and which kind of position are present): a finite set of shapes, each prepared once per
 * connection. Security: user input only ever travels as parameters ($n), never in the text.
 *
 * Why the shapes look the way they do (docs/architecture.md §7; figures: docs/benchmarks.md §2):
 * - LIMIT is a literal (the page size for the default size, else the largest page size and the
 *   ids array is sliced to the size), so that PostgreSQL's generic plan knows how few rows are
 *   wanted and is reused: with `LIMIT $1` it assumes 10 % of the table, costs the plan far above
 *   the custom one and re-plans every execution (or, forced generic, hash-joins the whole table).
 * - The page's rows are fetched by `id = ANY (ARRAY(ids))`, whatever the planner estimates.
 * - Every row is turned into its wire JSON by PostgreSQL (`row_to_json`, the field order and
 *   escaping of JSON.stringify), so the server neither parses 16 columns per flight nor
 *   re-serialises them; the page comes back as one row.
 *
 * Indexes: src/db/migrations/000_baseline.sql (listing and search, partial on listed flights;
 * "fastest": src/db/functions/catalog_flight_minutes.sql); counts: db/functions/catalog_counts_*.sql.
 */

/**
 * A sort key value: epoch ms (initial), cents (price), lower-case airline name, tickets, minutes
 * (fastest).
 */
export type SortKey = number | string;

/** One flight's place in an ordering: its sort key and id (ties go to the id, ascending). */
export interface Boundary {
  key: SortKey;
  id: string;
}

/**
 * Where a keyset page starts: strictly after a flight, at a flight (inclusive), or the page that
 * ends just before a flight.
 */
export interface Position extends Boundary {
  kind: 'after' | 'from' | 'before';
}

/**
 * How a listing page without search is read. `walk`: along the ordering's index, filters checked
 * on its entries (cheap when the filters keep a fair share of the catalogue). `sort`: the
 * airline's own flights, read from the airline index behind a fence and sorted (bounded by the
 * airline's size; for a small airline, or any airline sorted by airline name).
 */
export type ListingStrategy = 'walk' | 'sort';

export interface PageRequest {
  query: CatalogQuery;
  /** A keyset position; when given, `offset` is ignored. */
  position?: Position;
  /** Rows of the ordering to skip (an index-only walk); 0 for page 1 and for positions. */
  offset: number;
}

/** What one statement answered. */
export interface PageResult {
  /** The answer's JSON text (FlightCatalogPageSchema), ready to send. */
  body: string;
  total: number;
  /** The catalogue's revision the page was read at. */
  revision: number;
  /** The catalogue's version the page was read at (its ETag): see `STATE`. */
  version: string;
  /**
   * The search level (`none` without search); `notBoth`: the first stage of a two-place search
   * found no flight matching both places, the page is empty and the `either` stage must answer.
   */
  level: SearchLevel | 'notBoth';
  /** Sort keys of the page's first and last flight (for cursors); absent for an empty page. */
  first?: Boundary;
  last?: Boundary;
}

/** The one row of a page statement. */
interface PageRow {
  level: number | null;
  total: number;
  revision: number;
  state: string;
  /** A dated query's departure days' JSON, comma-separated, in date order; else null. */
  days: string | null;
  /** The flights' wire JSON, comma-separated, in order; null for an empty page. */
  items: string | null;
  firstKey: SortKey | null;
  firstId: string | null;
  lastKey: SortKey | null;
  lastId: string | null;
}

/** Builds a statement: parameters are numbered once per name and typed in the text. */
class Statement {
  readonly values: unknown[] = [];
  private readonly names = new Map<string, string>();

  param(name: string, value: unknown, type: string): string {
    let ref = this.names.get(name);
    if (ref === undefined) {
      this.values.push(value);
      ref = `$${this.values.length}::${type}`;
      this.names.set(name, ref);
    }
    return ref;
  }
}

/** Listed flights; literal, so that every plan sees the partial indexes' predicate implied. */
const LISTED = 'f.tickets > 0 AND NOT f.deleted';

/** The catalogue's revision: the newest flight write, or a hard delete's floor (011). */
const REVISION = `greatest((SELECT max(revision) FROM flights),
                           (SELECT revision FROM catalog_revision_floor))`;

/**
 * The catalogue's exact version, read in the statement's own snapshot. max(revision) alone is not
 * enough: revisions are drawn when a flight is written, not when its transaction commits (010), so
 * a write that commits after a later-drawn one leaves max(revision) unchanged. With x the oldest
 * transaction still running (`pg_snapshot_xmin`: every write that commits later has a txid ≥ x),
 * the version is
 *   - the hard-delete floor (a `DELETE` draws no row revision, 011 raises the floor instead),
 *   - the greatest position `(txid, revision)` below x: a write committed later either lands below
 *     a later x, above every position below the earlier one, or
 *   - stays at or above x, where the sum of revisions grows: each insert adds one, each update
 *     replaces a row's revision with a greater one (rows only leave that set by going below x,
 *     which moves the greatest position below it).
 * So two snapshots with the same version see the same flights: a page is never validated stale.
 * Rows at or above x are the few written by running transactions; both reads are index ranges of
 * `flights_position_idx`.
 */
const XMIN = `pg_snapshot_xmin(pg_current_snapshot())::text::int8`;
const STATE = `concat_ws('.',
  (SELECT revision FROM catalog_revision_floor),
  (SELECT v.txid || '-' || v.revision FROM flights v WHERE v.txid < ${XMIN}
   ORDER BY v.txid DESC, v.revision DESC LIMIT 1),
  (SELECT coalesce(sum(v.revision), 0) FROM flights v WHERE v.txid >= ${XMIN}))`;

interface SortSpec {
  /** The ordering's key over `f` (flights, or a set of matches with the same column names). */
  key: string;
  /** The key as the cursor carries it. */
  keyOut: string;
  /** The key of the `p` rows (keyOut) for the final ORDER BY. */
  outKey: string;
  descending: boolean;
  /** A cursor's key as a parameter of the right type. */
  keyParam: (statement: Statement, value: SortKey) => string;
}

const numberKey =
  (type: 'int8' | 'int4') =>
  (statement: Statement, value: SortKey): string =>
    statement.param('positionKey', value, type);

/** An ordering's key, read in either direction. */
type SortKeySpec = Omit<SortSpec, 'descending'>;

const createdKey: SortKeySpec = {
  key: 'f.created_at',
  keyOut: '(extract(epoch FROM f.created_at) * 1000)::int8',
  outKey: 'p.k',
  // created_at is kept to the millisecond (002), so the epoch-ms key compares exactly.
  keyParam: (statement, value) =>
    `(timestamptz 'epoch' + ${statement.param('positionKey', value, 'int8')} * interval '1 millisecond')`,
};
const priceKey: SortKeySpec = {
  key: 'f.price_cents',
  keyOut: 'f.price_cents',
  outKey: 'p.k',
  keyParam: numberKey('int8'),
};
const airlineKey: SortKeySpec = {
  key: 'lower(f.airline_name) COLLATE "C"',
  keyOut: 'lower(f.airline_name)',
  outKey: 'p.k COLLATE "C"',
  keyParam: (statement, value) => `(${statement.param('positionKey', value, 'text')} COLLATE "C")`,
};
const stockKey: SortKeySpec = {
  key: 'f.tickets',
  keyOut: 'f.tickets',
  outKey: 'p.k',
  keyParam: numberKey('int4'),
};
/**
 * A flight's minutes from departure to arrival (db/functions/catalog_flight_minutes.sql), `flightMinutes` of the
 * shared rule; written exactly as 014's index, so that the planner matches it.
 */
export const FLIGHT_MINUTES =
  'catalog_flight_minutes(f.departure_date, f.departure_hour, f.arrival_date, f.arrival_hour)';
const minutesKey: SortKeySpec = {
  key: FLIGHT_MINUTES,
  keyOut: FLIGHT_MINUTES,
  outKey: 'p.k',
  keyParam: numberKey('int4'),
};

/**
 * Each ordering has a partial index in exactly its order (000_baseline.sql); ties go to the id,
 * ascending, as in `catalogComparator`.
 */
const SORTS: Record<CatalogSort, SortSpec> = {
  initial: { ...createdKey, descending: false },
  price_asc: { ...priceKey, descending: false },
  price_desc: { ...priceKey, descending: true },
  airline_asc: { ...airlineKey, descending: false },
  airline_desc: { ...airlineKey, descending: true },
  stock_asc: { ...stockKey, descending: false },
  stock_desc: { ...stockKey, descending: true },
  fastest: { ...minutesKey, descending: false },
};

/** ORDER BY of an ordering over `f`, or its exact reverse (to read the rows before a position). */
function orderBy(sort: SortSpec, reversed = false): string {
  const descending = sort.descending !== reversed;
  return `${sort.key}${descending ? ' DESC' : ''}, f.id${reversed ? ' DESC' : ''}`;
}

/**
 * The rows after / from / before a position, in the ordering. Ascending orders compare rows
 * (`(key, id) > (k, i)`), which is one range of their index. A descending order breaks ties by id
 * ascending, which no row comparison expresses: the range is `key <= k`, and the ties at `k` up
 * to the position are filtered on the index entries.
 */
function positionFilter(statement: Statement, sort: SortSpec, position: Position): string {
  const k = sort.keyParam(statement, position.key);
  const i = statement.param('positionId', position.id, 'uuid');
  const key = sort.key;
  if (!sort.descending) {
    const op = position.kind === 'after' ? '>' : position.kind === 'from' ? '>=' : '<';
    return `AND (${key}, f.id) ${op} (${k}, ${i})`;
  }
  if (position.kind === 'before') return `AND ${key} >= ${k} AND (${key} > ${k} OR f.id < ${i})`;
  const op = position.kind === 'after' ? '>' : '>=';
  return `AND ${key} <= ${k} AND (${key} < ${k} OR f.id ${op} ${i})`;
}

/** The price band as a range on price_cents (edges as in `priceBandOf`); constants, not input. */
function bandFilter(band: PriceBand): string {
  switch (band) {
    case 'all':
      return '';
    case 'low':
      return `AND f.price_cents <= ${PRICE_BAND_LOW_MAX_CENTS}`;
    case 'mid':
      return `AND f.price_cents > ${PRICE_BAND_LOW_MAX_CENTS} AND f.price_cents < ${PRICE_BAND_MID_MAX_CENTS}`;
    case 'high':
      return `AND f.price_cents >= ${PRICE_BAND_MID_MAX_CENTS}`;
  }
}

/** The counter of the count tables (alias `c`) for a band filter. */
function bandCount(band: PriceBand): string {
  return band === 'all' ? 'c.low + c.mid + c.high' : `c.${band}`;
}

/**
 * The departure dates, both bounds inclusive, on the `date` column itself: the flight's own
 * calendar date, never moved through a time zone (the shared rule compares the same yyyy-mm-dd).
 */
function dateFilter(statement: Statement, query: CatalogQuery): string {
  const from =
    query.departureFrom === undefined
      ? ''
      : `AND f.departure_date >= ${statement.param('departureFrom', query.departureFrom, 'date')}`;
  const to =
    query.departureTo === undefined
      ? ''
      : ` AND f.departure_date <= ${statement.param('departureTo', query.departureTo, 'date')}`;
  return `${from}${to}`;
}

/**
 * The columns a set of matches (`s`) carries: every one an ordering sorts by, a cursor compares or
 * a dated page groups by. The minutes' and the date's columns only when needed: the search
 * indexes (002) do not include them, and asking for them would read the table.
 */
function matchColumns(query: CatalogQuery): string {
  let columns = 'f.id, f.created_at, f.price_cents, f.tickets, f.airline_name';
  if (query.sort === 'fastest') {
    columns += ', f.departure_date, f.departure_hour, f.arrival_date, f.arrival_hour';
  } else if (hasDepartureRange(query)) {
    columns += ', f.departure_date';
  }
  return columns;
}

/**
 * The total and departure days of a dated query, counted over its matches `s` (one pass, read
 * from 014's date index): no maintained count is kept per day (decision 016).
 */
const DATED_COUNTS = `d AS MATERIALIZED (
  SELECT coalesce(sum(r.flights), 0)::int8 AS total,
    string_agg(row_to_json(r)::text, ',' ORDER BY r.date) AS days
  FROM (SELECT to_char(f.departure_date, 'YYYY-MM-DD') AS date,
          min(f.price_cents) AS "lowestPriceCents", count(*) AS flights
        FROM s f GROUP BY f.departure_date) r)`;

function airlineFilter(statement: Statement, query: CatalogQuery): string {
  return query.airlineId === undefined
    ? ''
    : `AND f.airline_id = ${statement.param('airline', query.airlineId, 'uuid')}`;
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

type Place = 'origin' | 'destination';

/** A place prefix, over flights (`lower(f.origin)`, text_pattern_ops) or counts (C collation). */
function placeRange(statement: Statement, place: Place, prefix: string, over: 'f' | 'c'): string {
  const { from, to } = prefixRange(prefix);
  const lo = statement.param(`${place}From`, from, 'text');
  if (over === 'c') {
    const column = `c.${place}_key`;
    const upper =
      to === undefined ? '' : ` AND ${column} < ${statement.param(`${place}To`, to, 'text')}`;
    return `(${column} >= ${lo}${upper})`;
  }
  const column = `lower(f.${place})`;
  const upper =
    to === undefined ? '' : ` AND ${column} ~<~ ${statement.param(`${place}To`, to, 'text')}`;
  return `(${column} ~>=~ ${lo}${upper})`;
}

/** The rows of catalog_place_counts (alias `c`) of one grouping: places, with or without airline. */
function placeGroup(
  statement: Statement,
  places: { origin?: string; destination?: string },
  airline: string | undefined,
): string {
  return [
    airline === undefined ? 'c.airline_id IS NULL' : `c.airline_id = ${airline}`,
    places.origin === undefined
      ? 'c.origin_key IS NULL'
      : placeRange(statement, 'origin', places.origin, 'c'),
    places.destination === undefined
      ? 'c.destination_key IS NULL'
      : placeRange(statement, 'destination', places.destination, 'c'),
  ].join(' AND ');
}

/**
 * Sum of listed flights of the query's band from the maintained counts (db/functions/catalog_counts_apply.sql):
 * per airline (all airlines when the query names none) for a listing; for a search, per place(s)
 * and, with the airline filter, per airline and place(s).
 */
function countOf(
  statement: Statement,
  query: CatalogQuery,
  places: { origin?: string; destination?: string },
): string {
  const sum = `coalesce(sum(${bandCount(query.band)}), 0)`;
  const airline =
    query.airlineId === undefined ? undefined : statement.param('airline', query.airlineId, 'uuid');
  if (places.origin === undefined && places.destination === undefined) {
    const where = airline === undefined ? '' : ` WHERE c.airline_id = ${airline}`;
    return `(SELECT ${sum} FROM catalog_airline_counts c${where})`;
  }
  return `(SELECT ${sum} FROM catalog_place_counts c WHERE ${placeGroup(statement, places, airline)})`;
}

/**
 * Listed flights of some places, any airline: `n` in every band (does the search level apply?)
 * and `t` in the query's band (the total, when no airline is filtered), from one index range.
 */
function placeSums(
  statement: Statement,
  query: CatalogQuery,
  places: { origin?: string; destination?: string },
): string {
  return `(SELECT coalesce(sum(c.low + c.mid + c.high), 0) AS n,
      coalesce(sum(${bandCount(query.band)}), 0) AS t
    FROM catalog_place_counts c WHERE ${placeGroup(statement, places, undefined)})`;
}

/**
 * The statement's tail: the page's ids are `ids` (a SELECT of `f.id`), sliced to the page size;
 * one row comes back, with the meta columns of `m`, the flights' wire JSON joined in order and
 * the sort keys of the first and last flight (for cursors).
 */
function pageStatement(
  statement: Statement,
  sort: SortSpec,
  ctes: string,
  ids: string,
  query: CatalogQuery,
): string {
  const size = statement.param('pageSize', query.pageSize, 'int4');
  const order = `${sort.outKey}${sort.descending ? ' DESC' : ''}, p.id`;
  const days = hasDepartureRange(query) ? '(SELECT d.days FROM d)' : 'NULL::text';
  return `
WITH ${ctes}
SELECT m.level, m.total, m.revision, m.state, ${days} AS days, a.items, a.ks[1] AS "firstKey", a.ids[1] AS "firstId",
       a.ks[cardinality(a.ks)] AS "lastKey", a.ids[cardinality(a.ids)] AS "lastId"
FROM m, LATERAL (
  SELECT string_agg(p.j, ',' ORDER BY ${order}) AS items, array_agg(p.k ORDER BY ${order}) AS ks,
         array_agg(p.id ORDER BY ${order}) AS ids
  FROM (
    SELECT ${sort.keyOut} AS k, f.id, row_to_json(w)::text AS j
    FROM flights f CROSS JOIN LATERAL (SELECT ${FLIGHT_WIRE_COLUMNS}) w
    WHERE f.id = ANY ((ARRAY(${ids}))[1:${size}])
  ) p
) a`;
}

/**
 * Pages that start this many rows or more into an ordering are deep: pages.ts remembers their
 * boundaries.
 */
export const DEEP_OFFSET = 120;

/**
 * How many rows a page skips, for the statement: `value` to compare with the total, `clause` for
 * OFFSET. The near pages of the default page size (a bounded set: at most 20 texts per shape) get
 * literals, which PostgreSQL plans exactly. Any other offset is a parameter behind a sub-select:
 * PostgreSQL estimates an OFFSET it cannot see as 10 % of the rows in custom and generic plans
 * alike, so the two cost the same and the generic plan is reused; a plain `OFFSET $n` would be
 * re-planned on every execution (its custom plan, knowing n, always looks cheaper). The plan is a
 * walk of the order's index either way.
 */
function skipOf(
  statement: Statement,
  offset: number,
  pageSize: number,
): { value: string; clause: string; literal: boolean } {
  if (offset < DEEP_OFFSET && pageSize === HOME_PAGE_SIZE)
    return { value: String(offset), clause: String(offset), literal: true };
  const value = statement.param('offset', offset, 'int8');
  return { value, clause: `(SELECT ${value})`, literal: false };
}

/** LIMIT of a page's ids: a literal (see the top of this file). */
function limitOf(pageSize: number): number {
  return pageSize === HOME_PAGE_SIZE ? HOME_PAGE_SIZE : CATALOG_MAX_PAGE_SIZE;
}

/**
 * What every page statement starts from: a new statement with the filters' parameters (numbered
 * first), the ordering and the LIMIT.
 */
function startPage(request: PageRequest) {
  const { query, position } = request;
  const statement = new Statement();
  const filters = `${bandFilter(query.band)} ${airlineFilter(statement, query)} ${dateFilter(statement, query)}`;
  return {
    query,
    position,
    statement,
    sort: SORTS[query.sort],
    limit: limitOf(query.pageSize),
    filters,
  };
}

/**
 * A page of the listing (no search, or a search that matched nothing): the total from the
 * per-airline counts, the ids by `strategy`, by position or after `offset` rows.
 */
export function listingStatement(
  request: PageRequest,
  strategy: ListingStrategy,
): { text: string; values: unknown[] } {
  const { query, position, statement, sort, limit, filters } = startPage(request);
  const meta = `m AS MATERIALIZED (
  SELECT 0 AS level, ${countOf(statement, query, {})}::int8 AS total, ${REVISION} AS revision,
    ${STATE} AS state)`;
  const total = '(SELECT total FROM m)';
  const offset = position ? 0 : request.offset;
  let ids: string;
  if (strategy === 'sort') {
    // The airline's flights from its index (the fence keeps the planner from walking an ordering's
    // index instead), sorted. Bounded by the airline's size.
    const from = `(SELECT ${matchColumns(query)} FROM flights f
      WHERE ${LISTED} ${filters} OFFSET 0) f`;
    if (position) {
      ids = `SELECT f.id FROM ${from} WHERE true ${positionFilter(statement, sort, position)}
        ORDER BY ${orderBy(sort, position.kind === 'before')} LIMIT ${limit}`;
    } else if (offset === 0) {
      ids = `SELECT f.id FROM ${from} ORDER BY ${orderBy(sort)} LIMIT ${limit}`;
    } else {
      const skip = skipOf(statement, offset, query.pageSize);
      ids = `SELECT f.id FROM ${from} WHERE ${skip.value} < ${total}
        ORDER BY ${orderBy(sort)} LIMIT ${limit} OFFSET ${skip.clause}`;
    }
  } else if (position) {
    ids = `SELECT f.id FROM flights f WHERE ${LISTED} ${filters} ${positionFilter(statement, sort, position)}
      ORDER BY ${orderBy(sort, position.kind === 'before')} LIMIT ${limit}`;
  } else if (offset === 0) {
    ids = `SELECT f.id FROM flights f WHERE ${LISTED} ${filters} ORDER BY ${orderBy(sort)} LIMIT ${limit}`;
  } else {
    const skip = skipOf(statement, offset, query.pageSize);
    if (skip.literal) {
      // A near page: literally after a few rows of the order's index.
      ids = `SELECT f.id FROM flights f WHERE ${skip.value} < ${total} AND ${LISTED} ${filters}
        ORDER BY ${orderBy(sort)} LIMIT ${limit} OFFSET ${skip.clause}`;
    } else {
      // A deep page by number: an index-only walk of the ordering's index, from whichever end is
      // nearer (the total is known from the counts), and nothing at all past the end. Each
      // branch is gated by a one-time filter; only one runs (LIMIT and OFFSET are evaluated even
      // so: they must stay valid, non-negative, past the end).
      const off = skip.value;
      const size = statement.param('pageSize', query.pageSize, 'int4');
      ids = `(SELECT f.id FROM flights f WHERE ${off} * 2 < ${total} AND ${LISTED} ${filters}
          ORDER BY ${orderBy(sort)} LIMIT ${limit} OFFSET ${skip.clause})
        UNION ALL
        (SELECT f.id FROM flights f WHERE ${off} * 2 >= ${total} AND ${off} < ${total} AND ${LISTED} ${filters}
          ORDER BY ${orderBy(sort, true)}
          LIMIT greatest(0, least(${size}, ${total} - ${off}))
          OFFSET greatest(0, ${total} - ${off} - ${size}))`;
    }
  }
  return {
    text: pageStatement(statement, sort, meta, ids, query),
    values: statement.values,
  };
}

/**
 * A page of a dated listing (a departure range, no search or a search that matched nothing): the
 * range's listed flights (014's date index, the other filters checked on its entries) are
 * counted and grouped by day once, and sorted for the page. Bounded by the range's size, however
 * deep the page; no maintained count knows a range's total (decision 016 has the figures).
 */
export function datedListingStatement(request: PageRequest): { text: string; values: unknown[] } {
  const { query, statement, sort, filters } = startPage(request);
  const matches = `SELECT ${matchColumns(query)} FROM flights f WHERE ${LISTED} ${filters}`;
  const ctes = `s AS (${matches}),
${DATED_COUNTS},
m AS MATERIALIZED (
  SELECT 0 AS level, (SELECT total FROM d) AS total, ${REVISION} AS revision, ${STATE} AS state)`;
  return {
    text: pageStatement(statement, sort, ctes, matchIds(request, statement), query),
    values: statement.values,
  };
}

/** The ids of a page of the matches `s` (sorted), by position or after `offset` rows. */
function matchIds(request: PageRequest, statement: Statement): string {
  const { query, position } = request;
  const sort = SORTS[query.sort];
  const limit = limitOf(query.pageSize);
  if (position) {
    return `SELECT f.id FROM s f WHERE true ${positionFilter(statement, sort, position)}
      ORDER BY ${orderBy(sort, position.kind === 'before')} LIMIT ${limit}`;
  }
  if (request.offset === 0) return `SELECT f.id FROM s f ORDER BY ${orderBy(sort)} LIMIT ${limit}`;
  const skip = skipOf(statement, request.offset, query.pageSize);
  return `SELECT f.id FROM s f WHERE ${skip.value} < (SELECT total FROM m)
      ORDER BY ${orderBy(sort)} LIMIT ${limit} OFFSET ${skip.clause}`;
}

/**
 * A page of a search, in one statement for the usual case. The search level is decided over every
 * listed flight from the place counts, the total from the counts of that level, and the matches
 * are read from the search indexes (002: route and destination, which include every column a
 * search filters or sorts by) and sorted.
 *
 * With one place, level "both" means found. With two, the `both` stage answers when some listed
 * flight matches both places, and otherwise says so (level -1, no rows); the `either` stage then
 * reads the flights that match one place. When nothing matches at all, the level is 0 (not found)
 * and the caller reads the listing. (A statement's plan is started whole, every index of every
 * branch opened, so the rarer "either" branches are a statement of their own.)
 */
export function searchStatement(
  request: PageRequest,
  search: SearchTerms,
  stage: 'both' | 'either' = 'both',
): { text: string; values: unknown[] } {
  const { query, statement, sort, filters } = startPage(request);
  const { origin, destination } = search;
  const columns = matchColumns(query);
  const dated = hasDepartureRange(query);
  // A dated search's total is counted over its matches (`d`); otherwise it is summed from the
  // maintained counts, from the level's row (no airline) or the airline's.
  const noAirline = query.airlineId === undefined;
  const totalOf = (fromCounts: string) => (dated ? '(SELECT total FROM d)' : fromCounts);
  let meta: string;
  let matches: string;
  if (origin !== undefined && destination !== undefined && stage === 'both') {
    // The level and, without an airline filter, the total come from one range of the
    // (origin, destination) counts. The origins the prefix matches are listed in the counts too,
    // so the route index (origin, destination) is read as one tight range per origin instead of
    // every entry of the origin prefix being checked for the destination.
    const places = { origin, destination };
    meta = `SELECT CASE WHEN s.n > 0 THEN 1 ELSE -1 END AS level,
      (CASE WHEN s.n > 0 THEN ${totalOf(noAirline ? 's.t' : countOf(statement, query, places))} ELSE 0 END)::int8 AS total
      FROM ${placeSums(statement, query, places)} s`;
    matches = `SELECT f.* FROM (SELECT c.origin_key COLLATE "default" AS k FROM catalog_place_counts c
        WHERE c.airline_id IS NULL AND c.destination_key IS NULL
          AND ${placeRange(statement, 'origin', origin, 'c')} AND c.low + c.mid + c.high > 0) o
      CROSS JOIN LATERAL (SELECT ${columns} FROM flights f WHERE lower(f.origin) = o.k AND ${LISTED}
        AND ${placeRange(statement, 'destination', destination, 'f')} ${filters}) f`;
  } else if (origin !== undefined && destination !== undefined) {
    // No listed flight matches both places, so the two single-place counts do not overlap; the
    // destination branch leaves out origin matches in case one was written since the first stage.
    const o = placeRange(statement, 'origin', origin, 'f');
    const total = totalOf(
      noAirline
        ? 'so.t + sd.t'
        : `${countOf(statement, query, { origin })} + ${countOf(statement, query, { destination })}`,
    );
    meta = `SELECT CASE WHEN so.n > 0 OR sd.n > 0 THEN 2 ELSE 0 END AS level,
      (CASE WHEN so.n > 0 OR sd.n > 0 THEN ${total} ELSE 0 END)::int8 AS total
      FROM ${placeSums(statement, query, { origin })} so, ${placeSums(statement, query, { destination })} sd`;
    matches = `SELECT ${columns} FROM flights f WHERE ${LISTED} AND ${o} ${filters}
      UNION ALL
      SELECT ${columns} FROM flights f WHERE ${LISTED}
        AND ${placeRange(statement, 'destination', destination, 'f')} AND NOT ${o} ${filters}`;
  } else {
    const place: Place = origin !== undefined ? 'origin' : 'destination';
    const text = (origin ?? destination)!;
    const places = { [place]: text };
    meta = `SELECT CASE WHEN s.n > 0 THEN 1 ELSE 0 END AS level,
      (CASE WHEN s.n > 0 THEN ${totalOf(noAirline ? 's.t' : countOf(statement, query, places))} ELSE 0 END)::int8 AS total
      FROM ${placeSums(statement, query, places)} s`;
    matches = `SELECT ${columns} FROM flights f
      WHERE ${LISTED} AND ${placeRange(statement, place, text, 'f')} ${filters}`;
  }
  // Without a match the branches read nothing (the counts and the flights are of one snapshot).
  const metaCte = `m AS MATERIALIZED (
  SELECT l.level, l.total, ${REVISION} AS revision, ${STATE} AS state FROM (${meta}) l)`;
  const ctes = dated
    ? `s AS (${matches}),\n${DATED_COUNTS},\n${metaCte}`
    : `${metaCte},\ns AS (${matches})`;
  return {
    text: pageStatement(statement, sort, ctes, matchIds(request, statement), query),
    values: statement.values,
  };
}

const LEVELS: Record<number, PageResult['level']> = {
  1: 'both',
  2: 'either',
  0: 'notFound',
  [-1]: 'notBoth',
};

/** Runs a page statement and assembles the answer's JSON from the rows' own JSON. */
export async function runPageStatement(
  sql: Sql,
  statement: { text: string; values: unknown[] },
  query: CatalogQuery,
  kind: 'listing' | 'search' | 'notFound',
): Promise<PageResult> {
  const [row] = (await sql.unsafe(statement.text, statement.values as never[], {
    prepare: true,
  })) as unknown as PageRow[];
  const level: PageResult['level'] =
    kind === 'search'
      ? (LEVELS[row!.level ?? 0] ?? 'notFound')
      : kind === 'listing'
        ? 'none'
        : kind;
  const { total, revision, state, days, items, firstKey, firstId, lastKey, lastId } = row!;
  const pageCount = Math.ceil(total / query.pageSize);
  // The field order of FlightCatalogPageSchema, as JSON.stringify would write the object.
  const departureDays = hasDepartureRange(query) ? `,"departureDays":[${days ?? ''}]` : '';
  const body =
    `{"items":[${items ?? ''}],"page":${query.page},"pageSize":${query.pageSize},` +
    `"total":${total},"pageCount":${pageCount},"originNotFound":${level === 'notFound'}` +
    `${departureDays}}`;
  const first = firstId === null || firstKey === null ? undefined : { key: firstKey, id: firstId };
  const last = lastId === null || lastKey === null ? undefined : { key: lastKey, id: lastId };
  return { body, total, revision, version: state, level, first, last };
}

/** The statement of the catalogue's version alone (`revision`, `state`). */
export const CATALOG_VERSION_SQL = `SELECT ${REVISION} AS revision, ${STATE} AS state`;

/**
 * Options of a statement without parameters that is run again and again: postgres.js sends a
 * parameterless `unsafe` as a simple query unless told otherwise, which PostgreSQL parses and
 * plans on every execution (the version statement: ~250 µs of PostgreSQL's CPU planned, ~50 µs
 * prepared, at 100,000 flights, because planning looks at every index of flights).
 */
export const PREPARED_WITHOUT_PARAMETERS = { prepare: true, simple: false } as { prepare: true };

/**
 * The catalogue's version alone (for If-None-Match, and to check a remembered answer): a few
 * index lookups.
 */
export async function findCatalogVersion(sql: Sql): Promise<{ revision: number; version: string }> {
  const [row] = (await sql.unsafe(
    CATALOG_VERSION_SQL,
    [],
    PREPARED_WITHOUT_PARAMETERS,
  )) as unknown as { revision: number; state: string }[];
  return { revision: row!.revision, version: row!.state };
}

/** Listed flights per airline and band (011's airline grouping), for choosing strategies. */
export async function findAirlineListingSizes(
  sql: Sql,
): Promise<{ airlineId: string; low: number; mid: number; high: number }[]> {
  return (await sql.unsafe(
    `SELECT c.airline_id AS "airlineId", c.low, c.mid, c.high FROM catalog_airline_counts c`,
    [],
    PREPARED_WITHOUT_PARAMETERS,
  )) as unknown as { airlineId: string; low: number; mid: number; high: number }[];
}

/** `GET /api/flights/:id`: a flight that is not deleted, sold out or not; undefined otherwise. */
export async function findFlightById(sql: Sql, id: string): Promise<FlightDetail | undefined> {
  const [row] = await sql<FlightDetail[]>`
    SELECT ${sql.unsafe(FLIGHT_WIRE_COLUMNS)}, f.tickets = 0 AS "soldOut"
    FROM flights f WHERE f.id = ${id} AND NOT f.deleted`;
  return row ? { ...row } : undefined;
}

function offsetOf(query: { page: number; pageSize: number }): number {
  return (query.page - 1) * query.pageSize;
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
