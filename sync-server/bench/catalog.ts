import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  CATALOG_SORTS,
  CatalogQuerySchema,
  PRICE_BAND_LOW_MAX_CENTS,
  PRICE_BANDS,
  PRICE_BAND_MID_MAX_CENTS,
  searchTerms,
  type CatalogQuery,
  type CatalogSort,
  type PriceBand,
} from '@skyport/shared';
import { CONFIG_VARIABLES } from '../src/config.ts';
import { createSql, type Sql } from '../src/db/client.ts';
import { startChildServer } from './lib/child-server.ts';
import { table } from './lib/report.ts';
import type { LoadResult } from './lib/stats.ts';

/*
 * GET /api/flights under load: the endpoint as shipped against the best query for each page.
 *
 *   endpoint  the product: the production bundle when run.ts hands over its build
 *             (lib/product.ts), else createApp configured as main.ts configures it
 *             (catalog-server.ts full): NODE_ENV=production, the pool of DATABASE_POOL_MAX's
 *             default, request logging at info into a file, the PWA served.
 *   baseline  a bare Hono handler (catalog-server.ts baseline) that answers every benchmarked URL
 *             with the best query for that exact page, written here: an index-only keyset read
 *             from the page's first flight (found before the run, so no page is walked), the rows
 *             by id with their JSON built by PostgreSQL, the total from the maintained counts; for
 *             a search the level is known beforehand and only its matches are read. Same pool.
 *
 * Both answer the same bytes (checked before measuring). Each mix is a set of URLs requested in
 * turn on `connections` connections (autocannon, closed loop); the endpoint passes a mix when it
 * serves at least 0.8× the baseline's requests per second with a p99 of at most 25 ms.
 */

export const TARGET_RATIO = 0.8;
export const TARGET_P99_MS = 25;

export interface CatalogBenchOptions {
  /** A migrated database holding the catalogue (run.ts loads 100,000 synthetic flights). */
  databaseUrl: string;
  /** Concurrent connections (default 50). */
  connections?: number;
  /** Measured seconds per variant and mix (default 10), after `warmupSeconds` (default 2). */
  seconds?: number;
  warmupSeconds?: number;
  /** Repeat every mix, alternating which variant goes first; medians are reported (default 1). */
  rounds?: number;
  /** Only the mixes with these names, or of these groups (`sort` runs every `sort:*`). */
  only?: readonly string[];
  /** The endpoint's request log (default /dev/null). */
  logFile?: string;
  /** The PWA build the endpoint serves (default: pwa/dist when built, else an empty shell). */
  publicDir?: string;
  /** The baseline's pool (default: DATABASE_POOL_MAX's default, the endpoint's). */
  pool?: number;
  /** run.ts's production build (lib/build.ts): the endpoint is then the production bundle. */
  build?: unknown;
  /**
   * Also measure the endpoint's route alone (catalog-server.ts route: no application middleware),
   * to tell what the endpoint costs over the best query from what the shipped middleware costs
   * (default true; informational, no target).
   */
  diagnose?: boolean;
  log?: (message: string) => void;
}

/** A load run (`requests` counts 2xx answers and, in the revalidation mix, 304s). */
export interface LoadStats extends LoadResult {
  /**
   * CPU time per answer in µs of the server process and of its PostgreSQL backends (from /proc,
   * when PostgreSQL runs on this machine): unlike req/s, hardly affected by other work on a
   * shared machine. The load generator's own CPU is not counted.
   */
  cpu?: { server: number; postgres: number; total: number };
}

export interface CatalogMixResult {
  name: string;
  description: string;
  paths: string[];
  /** Whether the 0.8× and p99 targets apply (not to informational mixes). */
  target: boolean;
  /** Flight writes per second running during both variants' runs (0: none). */
  writesPerSecond: number;
  baseline: LoadStats;
  endpoint: LoadStats;
  /** The endpoint's route without the application's middleware (when diagnosing). */
  route?: LoadStats;
  /** endpoint / baseline requests per second. */
  ratio: number;
  /** route / baseline requests per second (when diagnosing). */
  routeRatio?: number;
  /** baseline / endpoint CPU per answer (server and PostgreSQL), when measured. */
  cpuRatio?: number;
  pass: { ratio: boolean; p99: boolean; both: boolean };
  rounds: { baseline: LoadStats[]; endpoint: LoadStats[]; route: LoadStats[] };
  load: { before: number[]; after: number[] };
}

/** A figure for run.ts's summary table (the shape of bench/lib/report.ts `Measurement`). */
export interface CatalogMeasurement {
  suite: 'catalog';
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  ratio?: number;
  limit?: { text: string; pass: boolean };
  load?: { before: number[]; after: number[] };
}

export interface CatalogBenchReport {
  startedAt: string;
  settings: {
    connections: number;
    seconds: number;
    warmupSeconds: number;
    rounds: number;
    pool: number;
    endpoint: string;
    flights: number;
    listed: number;
  };
  machine: { cores: number; cpu: string | undefined; loadBefore: number[]; loadAfter: number[] };
  mixes: CatalogMixResult[];
  measurements: CatalogMeasurement[];
}

interface BenchRequest {
  path: string;
  headers?: Record<string, string>;
}

interface CatalogMix {
  name: string;
  description: string;
  requests: BenchRequest[];
  target: boolean;
  writesPerSecond?: number;
}

/** What the baseline server (catalog-server.ts) runs for one URL. */
export interface BaselinePlan {
  path: string;
  text: string;
  values: unknown[];
  page: number;
  pageSize: number;
  originNotFound: boolean;
  /** Answer 304 to If-None-Match of the current revision (the revalidation mix). */
  revalidate?: boolean;
}

function configDefault(name: string): number {
  return CONFIG_VARIABLES.find((v) => v.name === name)!.defaultValue as number;
}

const PARAM_ORDER = [
  'origin',
  'destination',
  'airlineId',
  'band',
  'sort',
  'page',
  'pageSize',
  'after',
  'revalidate',
];

function pathOf(params: Record<string, string>): string {
  const search = new URLSearchParams();
  for (const key of PARAM_ORDER) if (params[key] !== undefined) search.set(key, params[key]!);
  const text = search.toString();
  return `/api/flights${text ? `?${text}` : ''}`;
}

const get = (params: Record<string, string>): BenchRequest => ({ path: pathOf(params) });

/** The mixes, from what the loaded catalogue holds. */
async function catalogMixes(sql: Sql, endpointUrl: string): Promise<CatalogMix[]> {
  const airlines = await sql<{ id: string; listed: number }[]>`
    SELECT airline_id AS id, (low + mid + high)::int AS listed FROM catalog_airline_counts
    WHERE low + mid + high > 0 ORDER BY low + mid + high DESC, airline_id`;
  const largest = airlines[0]?.id ?? '';
  const middle = airlines[Math.floor(airlines.length / 2)]?.id ?? largest;
  const small = airlines.filter((a) => a.listed >= 20).at(-1)?.id ?? largest;
  const routes = await sql<{ origin: string; destination: string }[]>`
    SELECT origin, destination FROM flights WHERE tickets > 0 AND NOT deleted
    GROUP BY origin, destination ORDER BY count(*) DESC, origin, destination LIMIT 4`;
  const origins = await sql<{ place: string }[]>`
    SELECT origin AS place FROM flights WHERE tickets > 0 AND NOT deleted
    GROUP BY origin ORDER BY count(*) DESC, origin LIMIT 4`;
  const destinations = await sql<{ place: string }[]>`
    SELECT destination AS place FROM flights WHERE tickets > 0 AND NOT deleted
    GROUP BY destination ORDER BY count(*) DESC, destination LIMIT 4`;
  const prefix = (name: string | undefined, length: number) =>
    (name ?? 'a').slice(0, length).toLowerCase();

  // The keyset links of the endpoint's own answers: what a client following "next" requests.
  const nextLinks: BenchRequest[] = [];
  for (const sort of ['initial', 'price_desc'] as const) {
    let url: string | undefined = pathOf({ sort, page: '1' });
    for (let page = 1; page <= 4 && url; page++) {
      const response = await fetch(endpointUrl + url);
      await response.arrayBuffer();
      url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
      if (url) nextLinks.push({ path: url });
    }
  }

  const mixes: CatalogMix[] = [
    {
      name: 'home',
      description: 'the landing page: no filter, initial order, page 1',
      requests: [get({})],
      target: true,
    },
    {
      name: 'home:pages 2-4',
      description: 'paging through the landing page by number',
      requests: [2, 3, 4].map((page) => get({ page: String(page) })),
      target: true,
    },
    ...(
      ['price_desc', 'price_asc', 'airline_asc', 'airline_desc', 'stock_desc', 'stock_asc'] as const
    ).map((sort): CatalogMix => ({
      name: `sort:${sort}`,
      description: `no filter, ${sort}, page 1`,
      requests: [get({ sort })],
      target: true,
    })),
    {
      name: 'band',
      description: 'each price band, initial order, page 1',
      requests: (['low', 'mid', 'high'] as const).map((band) => get({ band })),
      target: true,
    },
    {
      name: 'band+sort',
      description: 'a price band with a price, availability or airline order',
      requests: [
        get({ band: 'mid', sort: 'price_asc' }),
        get({ band: 'high', sort: 'price_desc', page: '2' }),
        get({ band: 'low', sort: 'stock_desc' }),
        get({ band: 'mid', sort: 'airline_asc', page: '2' }),
      ],
      target: true,
    },
    {
      name: 'airline:largest',
      description: 'the airline with the most listed flights, initial order, pages 1-2',
      requests: [get({ airlineId: largest }), get({ airlineId: largest, page: '2' })],
      target: true,
    },
    {
      name: 'airline:small',
      description: 'the smallest airline with ≥ 20 listed flights, price order and initial',
      requests: [get({ airlineId: small }), get({ airlineId: small, sort: 'price_asc' })],
      target: true,
    },
    {
      name: 'airline+band',
      description: 'the largest and a middle-sized airline with a band, various orders',
      requests: [
        get({ airlineId: largest, band: 'low', sort: 'price_desc' }),
        get({ airlineId: largest, band: 'mid', sort: 'stock_asc' }),
        get({ airlineId: middle, band: 'high', sort: 'stock_asc' }),
        get({ airlineId: middle, band: 'low', sort: 'initial', page: '2' }),
      ],
      target: true,
    },
    {
      name: 'search:route',
      description: 'origin and destination prefixes of the busiest routes (both match)',
      requests: routes.map((r) =>
        get({ origin: prefix(r.origin, 4), destination: prefix(r.destination, 3) }),
      ),
      target: true,
    },
    {
      name: 'search:origin',
      description: 'a prefix of the busiest origins, price order',
      requests: origins
        .slice(0, 2)
        .map((o) => get({ origin: prefix(o.place, 5), sort: 'price_asc' })),
      target: true,
    },
    {
      name: 'search:destination',
      description: 'a prefix of busy destinations, availability order',
      requests: destinations
        .slice(1, 3)
        .map((d) => get({ destination: prefix(d.place, 4), sort: 'stock_desc' })),
      target: true,
    },
    {
      name: 'search:either',
      description: 'an origin that exists with a destination that does not (the "either" level)',
      requests: [
        get({ origin: prefix(origins[2]?.place, 4), destination: 'xyz', sort: 'stock_desc' }),
        get({ origin: 'qq', destination: prefix(destinations[3]?.place, 4) }),
      ],
      target: true,
    },
    {
      name: 'search:not found',
      description: 'a place in no listed flight: the listing, flagged "origin not found"',
      requests: [get({ origin: 'Atlantis', band: 'mid' }), get({ destination: 'Xanadu' })],
      target: true,
    },
    {
      name: 'deep:page 500',
      description: 'page 500 (rows 2994-2999) of the landing page',
      requests: [get({ page: '500' })],
      target: true,
    },
    {
      name: 'deep:sorts',
      description: 'page 500 in price, airline and availability orders',
      requests: [
        get({ sort: 'price_desc', page: '500' }),
        get({ sort: 'airline_asc', page: '500' }),
        get({ sort: 'stock_asc', page: '500' }),
      ],
      target: true,
    },
    {
      name: 'deep:filters',
      description: 'deep pages of a band and of the largest airline',
      requests: [
        get({ band: 'mid', sort: 'price_asc', page: '500' }),
        get({ airlineId: largest, page: '300' }),
      ],
      target: true,
    },
    {
      name: 'deep:page 500 + writes',
      description:
        'page 500 while 20 stock changes per second (never selling out) change the revision',
      requests: [get({ page: '500' }), get({ sort: 'price_desc', page: '500' })],
      target: true,
      writesPerSecond: 20,
    },
    {
      name: 'cursor:next',
      description: 'pages 2-5 by the keyset cursors of the Link rel="next" headers',
      requests: nextLinks,
      target: true,
    },
    {
      // Every other mix repeats a few URLs, which the endpoint answers from its remembered answers
      // after the first request (pages.ts `answer`). Here more distinct URLs than it remembers
      // answers (2,000) or parsed queries (1,000) are requested in a fixed shuffled order, so no
      // answer is ever remembered when it is asked for again: every request parses its query and
      // runs its page statement (deep pages by the boundaries their first reads remembered).
      name: 'distinct:2800 urls',
      description:
        '7 orders (not fastest) × 4 bands × pages 1-100, shuffled: no remembered answer (first-request cost; informational)',
      requests: distinctListingRequests(),
      target: false,
    },
    {
      name: 'revalidate',
      description:
        'the landing page with If-None-Match of the current ETag (304, no page read; informational)',
      // If-None-Match: the endpoint's current ETag, read before each run (mixRequests).
      requests: [
        { path: pathOf({ page: '1', revalidate: '1' }), headers: { 'if-none-match': '' } },
      ],
      target: false,
    },
  ];
  return mixes;
}

/** The URLs of the distinct mix: 2,800 listing pages, in an order shuffled by a fixed seed. */
function distinctListingRequests(): BenchRequest[] {
  const requests: BenchRequest[] = [];
  for (const sort of CATALOG_SORTS.filter((s) => s !== 'fastest'))
    for (const band of PRICE_BANDS)
      for (let page = 1; page <= 100; page++)
        requests.push(get({ ...(band === 'all' ? {} : { band }), sort, page: String(page) }));
  // A fixed permutation (a linear congruential generator), the same in every run.
  let seed = 15;
  for (let i = requests.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [requests[i], requests[j]] = [requests[j]!, requests[i]!];
  }
  return requests;
}

// The baseline's best queries ---------------------------------------------------------------------

const WIRE = `f.id, f.airline_id AS "airlineId", f.airline_name AS "airlineName", f.origin,
  f.destination, to_char(f.departure_date, 'YYYY-MM-DD') AS "departureDate",
  to_char(f.departure_hour, 'HH24:MI') AS "departureHour",
  to_char(f.arrival_date, 'YYYY-MM-DD') AS "arrivalDate",
  to_char(f.arrival_hour, 'HH24:MI') AS "arrivalHour", f.duration_estimated AS "durationEstimated",
  f.price_cents AS "priceCents", f.tickets, f.logo, f.description,
  (extract(epoch FROM f.created_at) * 1000)::int8 AS "createdAt"`;

interface SortSql {
  key: string;
  keyOut: string;
  param: string;
  descending: boolean;
}

const SORT_SQL: Record<CatalogSort, SortSql> = {
  initial: {
    key: 'f.created_at',
    keyOut: '(extract(epoch FROM f.created_at) * 1000)::int8',
    param: `(timestamptz 'epoch' + $1::int8 * interval '1 millisecond')`,
    descending: false,
  },
  price_asc: {
    key: 'f.price_cents',
    keyOut: 'f.price_cents',
    param: '$1::int8',
    descending: false,
  },
  price_desc: {
    key: 'f.price_cents',
    keyOut: 'f.price_cents',
    param: '$1::int8',
    descending: true,
  },
  airline_asc: {
    key: 'lower(f.airline_name) COLLATE "C"',
    keyOut: 'lower(f.airline_name)',
    param: '($1::text COLLATE "C")',
    descending: false,
  },
  airline_desc: {
    key: 'lower(f.airline_name) COLLATE "C"',
    keyOut: 'lower(f.airline_name)',
    param: '($1::text COLLATE "C")',
    descending: true,
  },
  stock_asc: { key: 'f.tickets', keyOut: 'f.tickets', param: '$1::int4', descending: false },
  stock_desc: { key: 'f.tickets', keyOut: 'f.tickets', param: '$1::int4', descending: true },
  fastest: {
    key: 'catalog_flight_minutes(f.departure_date, f.departure_hour, f.arrival_date, f.arrival_hour)',
    keyOut:
      'catalog_flight_minutes(f.departure_date, f.departure_hour, f.arrival_date, f.arrival_hour)',
    param: '$1::int4',
    descending: false,
  },
};

const LISTED = 'f.tickets > 0 AND NOT f.deleted';

function bandSql(band: PriceBand): string {
  if (band === 'low') return `AND f.price_cents <= ${PRICE_BAND_LOW_MAX_CENTS}`;
  if (band === 'mid')
    return `AND f.price_cents > ${PRICE_BAND_LOW_MAX_CENTS} AND f.price_cents < ${PRICE_BAND_MID_MAX_CENTS}`;
  if (band === 'high') return `AND f.price_cents >= ${PRICE_BAND_MID_MAX_CENTS}`;
  return '';
}

function orderSql(sort: SortSql): string {
  return `${sort.key}${sort.descending ? ' DESC' : ''}, f.id`;
}

/** Rows from (`>=`) or after (`>`) the flight ($1 key, $2 id) in the ordering. */
function fromSql(sort: SortSql, inclusive: boolean): string {
  if (!sort.descending)
    return `AND (${sort.key}, f.id) ${inclusive ? '>=' : '>'} (${sort.param}, $2::uuid)`;
  return `AND ${sort.key} <= ${sort.param} AND (${sort.key} < ${sort.param} OR f.id ${inclusive ? '>=' : '>'} $2::uuid)`;
}

function prefixBounds(prefix: string): [string, string | null] {
  const points = Array.from(prefix);
  const last = points.pop()!;
  const next = last.codePointAt(0)! + 1;
  return [prefix, next > 0x10ffff ? null : points.join('') + String.fromCodePoint(next)];
}

/** A text literal (for values read from the database, never for request input). */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** SQL of the flights a query lists at a search level (no search: the listing), over `f`. */
function matchSets(
  query: CatalogQuery,
  level: 'none' | 'both' | 'either',
  values: unknown[],
  origins: readonly string[] = [],
): { from: string; airlineSortable: boolean } {
  const param = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const filters = `${bandSql(query.band)}${query.airlineId ? ` AND f.airline_id = ${param(query.airlineId, 'uuid')}` : ''}`;
  const columns = 'f.id, f.created_at, f.price_cents, f.tickets, f.airline_name';
  const terms = searchTerms(query);
  const range = (column: string, prefix: string) => {
    const [from, to] = prefixBounds(prefix);
    return `(lower(f.${column}) ~>=~ ${param(from, 'text')}${to ? ` AND lower(f.${column}) ~<~ ${param(to, 'text')}` : ''})`;
  };
  if (level === 'none')
    return {
      from: `(SELECT ${columns} FROM flights f WHERE ${LISTED} ${filters} OFFSET 0) f`,
      airlineSortable: true,
    };
  if (terms.origin !== undefined && terms.destination !== undefined) {
    if (level === 'both') {
      // The origins the prefix matches, known beforehand and written in the statement (a
      // parameter array would be re-planned on every execution): one tight range of the route
      // index each.
      return {
        from: `(SELECT f.* FROM unnest(ARRAY[${origins.map(literal).join(', ') || 'NULL'}]::text[]) AS o (k)
          CROSS JOIN LATERAL (SELECT ${columns} FROM flights f WHERE lower(f.origin) = o.k AND ${LISTED}
            AND ${range('destination', terms.destination)} ${filters}) f) f`,
        airlineSortable: false,
      };
    }
    const o = range('origin', terms.origin);
    return {
      from: `(SELECT ${columns} FROM flights f WHERE ${LISTED} AND ${o} ${filters}
        UNION ALL SELECT ${columns} FROM flights f WHERE ${LISTED} AND ${range('destination', terms.destination)} AND NOT ${o} ${filters}) f`,
      airlineSortable: false,
    };
  }
  const place = terms.origin !== undefined ? 'origin' : 'destination';
  return {
    from: `(SELECT ${columns} FROM flights f WHERE ${LISTED} AND ${range(place, (terms.origin ?? terms.destination)!)} ${filters}) f`,
    airlineSortable: false,
  };
}

/** The total of a query at a level, from the maintained counts (catalog_*_counts, db/functions/catalog_counts_apply.sql). */
function totalSql(
  query: CatalogQuery,
  level: 'none' | 'both' | 'either',
  values: unknown[],
): string {
  const param = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const sum = `coalesce(sum(${query.band === 'all' ? 'c.low + c.mid + c.high' : `c.${query.band}`}), 0)`;
  if (level === 'none') {
    return `(SELECT ${sum} FROM catalog_airline_counts c${query.airlineId ? ` WHERE c.airline_id = ${param(query.airlineId, 'uuid')}` : ''})`;
  }
  const terms = searchTerms(query);
  const airline = query.airlineId
    ? `c.airline_id = ${param(query.airlineId, 'uuid')}`
    : 'c.airline_id IS NULL';
  const range = (column: string, prefix: string | undefined) => {
    if (prefix === undefined) return `c.${column}_key IS NULL`;
    const [from, to] = prefixBounds(prefix);
    return `c.${column}_key >= ${param(from, 'text')}${to ? ` AND c.${column}_key < ${param(to, 'text')}` : ''}`;
  };
  const count = (origin: string | undefined, destination: string | undefined) =>
    `(SELECT ${sum} FROM catalog_place_counts c WHERE ${airline} AND ${range('origin', origin)} AND ${range('destination', destination)})`;
  if (level === 'both') return count(terms.origin, terms.destination);
  return `${count(terms.origin, undefined)} + ${count(undefined, terms.destination)}`;
}

async function searchLevelOf(
  sql: Sql,
  query: CatalogQuery,
): Promise<'none' | 'both' | 'either' | 'notFound'> {
  const terms = searchTerms(query);
  if (terms.origin === undefined && terms.destination === undefined) return 'none';
  const matches = async (origin?: string, destination?: string) => {
    const [row] = await sql<{ found: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM flights WHERE tickets > 0 AND NOT deleted
        AND (${origin ?? null}::text IS NULL OR starts_with(lower(origin), ${origin ?? ''}))
        AND (${destination ?? null}::text IS NULL OR starts_with(lower(destination), ${destination ?? ''}))) AS found`;
    return row!.found;
  };
  if (await matches(terms.origin, terms.destination)) return 'both';
  if (terms.origin !== undefined && terms.destination !== undefined) {
    if ((await matches(terms.origin)) || (await matches(undefined, terms.destination)))
      return 'either';
  }
  return 'notFound';
}

/**
 * The best statement for one URL: where its page starts is found first (however slowly), so the
 * statement only reads the page. For an airline filter, both a walk of the ordering's index and a
 * sort of the airline's flights are timed and the faster is kept.
 */
export async function baselinePlan(sql: Sql, request: BenchRequest): Promise<BaselinePlan> {
  const params = Object.fromEntries(new URL(request.path, 'http://x').searchParams);
  const query = CatalogQuerySchema.parse(params);
  const found = await searchLevelOf(sql, query);
  const level = found === 'notFound' ? 'none' : found;
  const sort = SORT_SQL[query.sort];
  const plan = {
    path: request.path,
    page: query.page,
    pageSize: query.pageSize,
    originNotFound: found === 'notFound',
    revalidate: params.revalidate === '1',
  };

  // Where the page starts: after a cursor's flight, or the flight at its offset.
  let start: { key: unknown; id: string; inclusive: boolean } | undefined;
  const originKeys =
    level === 'both' &&
    searchTerms(query).origin !== undefined &&
    searchTerms(query).destination !== undefined
      ? (
          await sql<{ k: string }[]>`
            SELECT DISTINCT lower(origin) AS k FROM flights WHERE tickets > 0 AND NOT deleted
            AND starts_with(lower(origin), ${searchTerms(query).origin!})`
        ).map((r) => r.k)
      : [];
  if (params.after) {
    const [, key, id] = JSON.parse(Buffer.from(params.after, 'base64url').toString()) as [
      string,
      unknown,
      string,
    ];
    start = { key, id, inclusive: false };
  } else {
    const values: unknown[] = [];
    // A listing without airline is walked along its order's index (fast to find, for the
    // thousands of URLs of the distinct mix); others are sorted (the airline orders' fence).
    const { from } =
      level === 'none' && query.airlineId === undefined
        ? { from: `(SELECT * FROM flights f WHERE ${LISTED} ${bandSql(query.band)}) f` }
        : matchSets(query, level, values, originKeys);
    values.push((query.page - 1) * query.pageSize);
    const [row] = (await sql.unsafe(
      `SELECT ${sort.keyOut} AS k, f.id FROM ${from} ORDER BY ${orderSql(sort)} OFFSET $${values.length}::int8 LIMIT 1`,
      values as never[],
    )) as unknown as { k: unknown; id: string }[];
    if (row) start = { key: row.k, id: row.id, inclusive: true };
  }

  // The first page reads from the start of the order: no position to seek.
  const firstPage = !params.after && query.page === 1;
  const statement = (strategy: 'walk' | 'sort') => {
    // $1 and $2: the first flight's key and id (fromSql), when the page is read from it.
    const seek = start && !firstPage ? start : undefined;
    const values: unknown[] = seek ? [seek.key, seek.id] : [];
    const from = seek ? fromSql(sort, seek.inclusive) : '';
    const total = totalSql(query, level, values);
    let ids: string;
    if (!start) ids = 'SELECT NULL::uuid WHERE false';
    else if (level === 'none' && strategy === 'walk') {
      const filters = `${bandSql(query.band)}${query.airlineId ? ` AND f.airline_id = $${values.push(query.airlineId)}::uuid` : ''}`;
      ids = `SELECT f.id FROM flights f WHERE ${LISTED} ${filters} ${from}
        ORDER BY ${orderSql(sort)} LIMIT ${query.pageSize}`;
    } else {
      const matches = matchSets(query, level, values, originKeys);
      ids = `SELECT f.id FROM ${matches.from} WHERE true ${from} ORDER BY ${orderSql(sort)} LIMIT ${query.pageSize}`;
    }
    return {
      // One row: the total and the flights' JSON joined in order.
      text: `SELECT (${total})::int8 AS total, (SELECT string_agg(p.j, ',' ORDER BY
            p.k${query.sort.startsWith('airline') ? ' COLLATE "C"' : ''}${sort.descending ? ' DESC' : ''}, p.id)
          FROM (SELECT ${sort.keyOut} AS k, f.id, row_to_json(w)::text AS j
            FROM flights f CROSS JOIN LATERAL (SELECT ${WIRE}) w WHERE f.id = ANY (ARRAY(${ids}))) p) AS items`,
      values,
    };
  };
  let best = statement('walk');
  if (level === 'none' && query.airlineId !== undefined) {
    // The faster of three timings of 30 executions each, alternating (a shared machine is noisy).
    const run = async (candidate: { text: string; values: unknown[] }) => {
      const started = performance.now();
      for (let i = 0; i < 30; i++)
        await sql.unsafe(candidate.text, candidate.values as never[], { prepare: true });
      return performance.now() - started;
    };
    const sorted = statement('sort');
    let [walkTime, sortTime] = [Infinity, Infinity];
    await run(best);
    await run(sorted);
    for (let i = 0; i < 3; i++) {
      walkTime = Math.min(walkTime, await run(best));
      sortTime = Math.min(sortTime, await run(sorted));
    }
    if (sortTime < walkTime) best = sorted;
  }
  return { ...plan, ...best };
}

// Load ----------------------------------------------------------------------------------------

/**
 * A mix's requests as sent now: an If-None-Match gets the endpoint's current ETag (its version
 * also moves with the minute).
 */
async function mixRequests(mix: CatalogMix, endpointUrl: string): Promise<BenchRequest[]> {
  if (!mix.requests.some((r) => r.headers?.['if-none-match'] !== undefined)) return mix.requests;
  const response = await fetch(`${endpointUrl}/api/flights`);
  await response.arrayBuffer();
  const etag = response.headers.get('etag') ?? '""';
  return mix.requests.map((r) =>
    r.headers?.['if-none-match'] === undefined
      ? r
      : { ...r, headers: { ...r.headers, 'if-none-match': etag } },
  );
}

async function drive(
  baseUrl: string,
  requests: readonly BenchRequest[],
  connections: number,
  seconds: number,
): Promise<LoadStats> {
  let next = 0;
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const r = requests[next++ % requests.length]!;
          return { ...request, path: r.path, headers: { ...request.headers, ...r.headers } };
        },
      },
    ],
  });
  const ok = result['2xx'] + result['3xx'];
  return {
    requests: ok,
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result['4xx'] + result['5xx'] + result['1xx'],
    seconds: result.duration,
  };
}

/** Stock changes that never sell out (so no count moves), `perSecond` of them, until stopped. */
function startWriter(sql: Sql, ids: readonly string[], perSecond: number): () => Promise<void> {
  let stopped = false;
  let i = 0;
  const loop = (async () => {
    while (!stopped && ids.length > 0) {
      const started = performance.now();
      await sql`UPDATE flights SET tickets = CASE WHEN tickets % 2 = 0 THEN tickets + 1 ELSE tickets - 1 END
                WHERE id = ${ids[i++ % ids.length]!}`;
      const wait = 1000 / perSecond - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
};
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function medianStats(runs: readonly LoadStats[]): LoadStats {
  const cpu = runs.every((r) => r.cpu)
    ? {
        server: round(median(runs.map((r) => r.cpu!.server))),
        postgres: round(median(runs.map((r) => r.cpu!.postgres))),
        total: round(median(runs.map((r) => r.cpu!.total))),
      }
    : undefined;
  return {
    ...(cpu ? { cpu } : {}),
    requests: Math.round(median(runs.map((r) => r.requests))),
    rps: round(median(runs.map((r) => r.rps))),
    p50: round(median(runs.map((r) => r.p50)), 2),
    p99: round(median(runs.map((r) => r.p99)), 2),
    errors: Math.max(0, ...runs.map((r) => r.errors)),
    seconds: round(median(runs.map((r) => r.seconds)), 2),
  };
}

interface Endpoint {
  baseUrl: string;
  description: string;
  /** The server process and the application_name of its database connections. */
  process?: ServerProcess;
  stop(): Promise<void>;
}

interface ServerProcess {
  pid: number;
  applicationName: string;
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system CPU time of a process in µs, or undefined when it cannot be read. */
function cpuMicros(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Reads a server's and its PostgreSQL backends' CPU time, to take differences of. */
async function cpuMeter(sql: Sql, server: ServerProcess | undefined) {
  if (!server) return undefined;
  const backends = (
    await sql<{ pid: number }[]>`
      SELECT pid FROM pg_stat_activity WHERE application_name = ${server.applicationName}`
  ).map((row) => row.pid);
  const read = () => {
    const own = cpuMicros(server.pid);
    const postgres = backends.map(cpuMicros);
    if (own === undefined || postgres.some((v) => v === undefined)) return undefined;
    return { server: own, postgres: postgres.reduce((a, b) => a! + b!, 0)! };
  };
  const start = read();
  return (requests: number) => {
    const end = read();
    if (!start || !end || requests === 0) return undefined;
    const server = round((end.server - start.server) / requests);
    const postgres = round((end.postgres - start.postgres) / requests);
    return { server, postgres, total: round(server + postgres) };
  };
}

/** The process behind a server of catalog-server.ts (its `/__bench/process`). */
async function benchProcess(baseUrl: string): Promise<ServerProcess> {
  return (await (await fetch(`${baseUrl}/__bench/process`)).json()) as ServerProcess;
}

/** The product: the production bundle when run.ts built one, else createApp as main.ts builds it. */
async function startEndpoint(
  options: CatalogBenchOptions,
  publicDir: string,
  logFile: string,
): Promise<Endpoint> {
  if (options.build) {
    // lib/product.ts belongs to the bench runner; loaded only when it hands over a build.
    const productModule = './lib/product.ts';
    const { startProduct } = (await import(productModule)) as {
      startProduct(
        o: Record<string, unknown>,
      ): Promise<{ baseUrl: string; pid: number; stop(): Promise<void> }>;
    };
    const product = await startProduct({
      build: options.build,
      databaseUrl: options.databaseUrl,
      publicDir,
      logFile,
      name: 'catalog-endpoint',
    });
    // main.ts names its connections skyport-<host>-<pid>.
    const applicationName = `skyport-${os.hostname()}-${product.pid}`.slice(0, 63);
    return {
      ...product,
      description: 'production bundle (lib/product.ts)',
      process: { pid: product.pid, applicationName },
    };
  }
  const script = path.resolve(import.meta.dirname, 'catalog-server.ts');
  const child = await startChildServer(script, ['full', options.databaseUrl, logFile, publicDir]);
  return {
    ...child,
    description: 'createApp as main.ts (catalog-server.ts full)',
    process: await benchProcess(child.baseUrl),
  };
}

export async function runCatalogBench(options: CatalogBenchOptions): Promise<CatalogBenchReport> {
  const log = options.log ?? ((message: string) => console.log(message));
  const connections = options.connections ?? 50;
  const seconds = options.seconds ?? 10;
  const warmupSeconds = options.warmupSeconds ?? 2;
  const rounds = options.rounds ?? 1;
  const pool = options.pool ?? configDefault('DATABASE_POOL_MAX');
  const logFile = options.logFile ?? '/dev/null';
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'skyport-catalog-bench-'));
  const builtPwa = path.resolve(import.meta.dirname, '../../pwa/dist');
  let publicDir =
    options.publicDir ?? (existsSync(path.join(builtPwa, 'index.html')) ? builtPwa : undefined);
  if (!publicDir) {
    // No PWA build: an empty shell, so that the static files and their middleware are mounted.
    publicDir = path.join(scratch, 'public');
    await import('node:fs/promises').then((fs) => fs.mkdir(publicDir!, { recursive: true }));
    await writeFile(path.join(publicDir, 'index.html'), '<!doctype html><title>Skyport</title>\n');
  }

  const sql = createSql(options.databaseUrl, { max: 2 });
  const writerSql = createSql(options.databaseUrl, { max: 1 });
  let endpoint: Endpoint | undefined;
  let baseline: Awaited<ReturnType<typeof startChildServer>> | undefined;
  let route: Awaited<ReturnType<typeof startChildServer>> | undefined;
  try {
    const [{ flights, listed }] = (await sql`
      SELECT (SELECT count(*) FROM flights)::int AS flights,
             (SELECT count(*) FROM flights WHERE tickets > 0 AND NOT deleted)::int AS listed`) as unknown as [
      { flights: number; listed: number },
    ];
    endpoint = await startEndpoint(options, publicDir, logFile);
    const mixes = (await catalogMixes(sql, endpoint.baseUrl)).filter(
      (mix) =>
        !options.only ||
        options.only.some(
          (name) => mix.name === name || mix.name.startsWith(`${name.replace(/:$/, '')}:`),
        ),
    );
    log(`catalog: ${mixes.length} mixes; preparing the baseline's queries …`);
    const plans = new Map<string, BaselinePlan>();
    for (const mix of mixes)
      for (const request of mix.requests)
        if (!plans.has(request.path)) plans.set(request.path, await baselinePlan(sql, request));
    const plansFile = path.join(scratch, 'plans.json');
    await writeFile(plansFile, JSON.stringify([...plans.values()]));
    baseline = await startChildServer(path.resolve(import.meta.dirname, 'catalog-server.ts'), [
      'baseline',
      options.databaseUrl,
      String(pool),
      plansFile,
    ]);
    if (options.diagnose ?? true) {
      route = await startChildServer(path.resolve(import.meta.dirname, 'catalog-server.ts'), [
        'route',
        options.databaseUrl,
        String(pool),
      ]);
    }
    const processes = {
      baseline: await benchProcess(baseline.baseUrl),
      endpoint: endpoint.process,
      route: route ? await benchProcess(route.baseUrl) : undefined,
    };
    await checkSameAnswers(mixes, endpoint.baseUrl, baseline.baseUrl);
    const writable = (
      await sql<{ id: string }[]>`
        SELECT id FROM flights WHERE tickets BETWEEN 2 AND 400 AND NOT deleted ORDER BY id LIMIT 500`
    ).map((r) => r.id);

    // Both servers warm up on every URL first (JIT, the pools' connections and their prepared
    // statements), so that the first mix is not measured on a cold process.
    const everything = mixes.flatMap((mix) => mix.requests.filter((r) => !r.headers));
    if (warmupSeconds > 0 && everything.length > 0) {
      log(`  warming up the servers on ${everything.length} URLs …`);
      for (const baseUrl of [baseline.baseUrl, endpoint.baseUrl, route?.baseUrl ?? ''].filter(
        Boolean,
      ))
        await drive(baseUrl, everything, connections, Math.max(5, warmupSeconds * 3));
    }
    const loadBefore = os.loadavg();
    const results: CatalogMixResult[] = [];
    for (const mix of mixes) {
      const runs = {
        baseline: [] as LoadStats[],
        endpoint: [] as LoadStats[],
        route: [] as LoadStats[],
      };
      const mixLoadBefore = os.loadavg();
      for (let r = 0; r < rounds; r++) {
        // Alternate which variant goes first; the diagnostic one runs last.
        const pair =
          r % 2 === 0 ? (['baseline', 'endpoint'] as const) : (['endpoint', 'baseline'] as const);
        for (const variant of route ? [...pair, 'route' as const] : pair) {
          const baseUrl =
            variant === 'baseline'
              ? baseline.baseUrl
              : variant === 'endpoint'
                ? endpoint.baseUrl
                : route!.baseUrl;
          log(`  ${mix.name}: ${variant} (round ${r + 1}/${rounds}) …`);
          const stopWriter = mix.writesPerSecond
            ? startWriter(writerSql, writable, mix.writesPerSecond)
            : undefined;
          try {
            const requests = await mixRequests(mix, endpoint.baseUrl);
            if (warmupSeconds > 0) await drive(baseUrl, requests, connections, warmupSeconds);
            const meter = await cpuMeter(sql, processes[variant]);
            const stats = await drive(baseUrl, requests, connections, seconds);
            const cpu = meter?.(stats.requests);
            runs[variant].push(cpu ? { ...stats, cpu } : stats);
          } finally {
            await stopWriter?.();
          }
        }
      }
      const b = medianStats(runs.baseline);
      const e = medianStats(runs.endpoint);
      const ratio = round(e.rps / Math.max(b.rps, 1e-9), 3);
      const routeStats = route ? medianStats(runs.route) : undefined;
      const cpuRatio =
        b.cpu && e.cpu ? round(b.cpu.total / Math.max(e.cpu.total, 1e-9), 3) : undefined;
      const pass = { ratio: ratio >= TARGET_RATIO, p99: e.p99 <= TARGET_P99_MS };
      results.push({
        name: mix.name,
        description: mix.description,
        paths: mix.requests.map((r) => r.path),
        target: mix.target,
        writesPerSecond: mix.writesPerSecond ?? 0,
        baseline: b,
        endpoint: e,
        ratio,
        ...(routeStats
          ? { route: routeStats, routeRatio: round(routeStats.rps / Math.max(b.rps, 1e-9), 3) }
          : {}),
        ...(cpuRatio === undefined ? {} : { cpuRatio }),
        pass: { ...pass, both: pass.ratio && pass.p99 },
        rounds: runs,
        load: { before: mixLoadBefore, after: os.loadavg() },
      });
    }
    return {
      startedAt: new Date().toISOString(),
      settings: {
        connections,
        seconds,
        warmupSeconds,
        rounds,
        pool,
        endpoint: endpoint.description,
        flights,
        listed,
      },
      machine: {
        cores: os.availableParallelism(),
        cpu: os.cpus()[0]?.model,
        loadBefore,
        loadAfter: os.loadavg(),
      },
      mixes: results,
      measurements: measurementsOf(results),
    };
  } finally {
    await baseline?.stop();
    await route?.stop();
    await endpoint?.stop();
    await sql.end({ timeout: 1 });
    await writerSql.end({ timeout: 1 });
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Before measuring: the endpoint and the baseline answer every URL with the same bytes. */
async function checkSameAnswers(
  mixes: readonly CatalogMix[],
  endpointUrl: string,
  baselineUrl: string,
) {
  for (const mix of mixes) {
    for (const request of mix.requests) {
      if (request.headers) continue;
      const [a, b] = await Promise.all([
        fetch(endpointUrl + request.path),
        fetch(baselineUrl + request.path),
      ]);
      const [endpointBody, baselineBody] = [await a.text(), await b.text()];
      if (a.status !== 200 || b.status !== 200)
        throw new Error(`${request.path}: status ${a.status} (endpoint) / ${b.status} (baseline)`);
      if (endpointBody !== baselineBody)
        throw new Error(
          `${request.path}: the endpoint and the baseline answer differently:\n${endpointBody.slice(0, 400)}\n${baselineBody.slice(0, 400)}`,
        );
    }
  }
}

function measurementsOf(mixes: readonly CatalogMixResult[]): CatalogMeasurement[] {
  return mixes.flatMap((mix): CatalogMeasurement[] => [
    {
      suite: 'catalog',
      name: `${mix.name}: req/s`,
      value: Math.round(mix.endpoint.rps),
      unit: '/s',
      baseline: { name: 'best query', value: Math.round(mix.baseline.rps) },
      ratio: mix.ratio,
      ...(mix.target ? { limit: { text: `>= ${TARGET_RATIO}`, pass: mix.pass.ratio } } : {}),
      load: mix.load,
    },
    {
      suite: 'catalog',
      name: `${mix.name}: p99`,
      value: mix.endpoint.p99,
      unit: 'ms',
      baseline: { name: 'best query', value: mix.baseline.p99 },
      ...(mix.target ? { limit: { text: `<= ${TARGET_P99_MS}`, pass: mix.pass.p99 } } : {}),
      load: mix.load,
    },
    ...(mix.endpoint.cpu && mix.baseline.cpu
      ? [
          {
            suite: 'catalog' as const,
            name: `${mix.name}: CPU per answer (server + PostgreSQL)`,
            value: mix.endpoint.cpu.total,
            unit: 'µs',
            baseline: { name: 'best query', value: mix.baseline.cpu.total },
            ...(mix.cpuRatio === undefined ? {} : { ratio: mix.cpuRatio }),
            load: mix.load,
          },
        ]
      : []),
  ]);
}

/** The report as a table: per mix, baseline and endpoint, their ratio and the targets. */
export function printCatalogBench(
  report: CatalogBenchReport,
  write: (text: string) => void = console.log,
): void {
  const { settings, machine } = report;
  const rows: (string | number)[][] = [
    [
      'mix',
      'best req/s',
      'p50',
      'p99',
      'endpoint req/s',
      'p50',
      'p99',
      'ratio',
      `≥ ${TARGET_RATIO}×`,
      `p99 ≤ ${TARGET_P99_MS}`,
      'best CPU',
      'endpoint CPU',
      'CPU ratio',
      'route req/s',
      'route ratio',
      'route CPU',
    ],
  ];
  for (const mix of report.mixes) {
    const mark = (ok: boolean) => (mix.target ? (ok ? 'pass' : 'FAIL') : '-');
    rows.push([
      mix.name,
      Math.round(mix.baseline.rps),
      mix.baseline.p50,
      mix.baseline.p99,
      Math.round(mix.endpoint.rps),
      mix.endpoint.p50,
      mix.endpoint.p99,
      mix.ratio,
      mark(mix.pass.ratio),
      mark(mix.pass.p99),
      mix.baseline.cpu ? Math.round(mix.baseline.cpu.total) : '-',
      mix.endpoint.cpu ? Math.round(mix.endpoint.cpu.total) : '-',
      mix.cpuRatio ?? '-',
      mix.route ? Math.round(mix.route.rps) : '-',
      mix.routeRatio ?? '-',
      mix.route?.cpu ? Math.round(mix.route.cpu.total) : '-',
    ]);
  }
  const errors = report.mixes.filter((m) => m.baseline.errors + m.endpoint.errors > 0);
  write(
    `\nGET /api/flights: ${settings.connections} connections, ${settings.seconds} s per run (+${settings.warmupSeconds} s warm-up), ` +
      `${settings.rounds} round(s); ${settings.listed} of ${settings.flights} flights listed; pool ${settings.pool}; ` +
      `endpoint: ${settings.endpoint}; ${machine.cores} cores, load ${machine.loadBefore.map((l) => l.toFixed(2)).join(' ')} → ` +
      `${machine.loadAfter.map((l) => l.toFixed(2)).join(' ')} (latencies in ms)\n` +
      'best: the best query for each page in a bare handler; endpoint: the product as shipped; ' +
      'route: the endpoint without the application middleware (diagnostic); ' +
      'CPU: µs per answer of the server process and its PostgreSQL backends\n',
  );
  write(table(rows));
  for (const mix of errors)
    write(`  ${mix.name}: errors baseline ${mix.baseline.errors}, endpoint ${mix.endpoint.errors}`);
  const failed = report.mixes.filter((m) => m.target && !m.pass.both).map((m) => m.name);
  write(failed.length ? `\nbelow target: ${failed.join(', ')}` : '\nevery mix meets both targets');
}
