import type { Sql } from '../client.ts';
import { ALL_COUNTRIES } from './countries.ts';
import { DEMO_AIRLINES, DESCRIPTION_EXTRAS, DESCRIPTION_OPENERS, logoPath } from './demo.ts';
import { createRandom } from './random.ts';

/**
 * Large synthetic catalogues for benchmarks: `airlines` new airlines (owner_user_id NULL: they
 * belong to no account) and `flights` flights among them, generated inside PostgreSQL by one
 * `INSERT … SELECT … FROM generate_series` so that 100,000 rows cost one round trip.
 *
 * The distributions exercise every filter and sort of the home screen: all three price bands
 * (about 40 % low, 35 % mid, 25 % high, with prices exactly on the band edges), 5 % sold out and
 * 12 % below 50 tickets, all 249 country names with a few busy origins, departures over the next
 * 365 days, and airlines of very different sizes (a few large carriers, a long tail of small ones).
 *
 * The content is a pure function of `seed` and `today` (hashes of the row number, not random());
 * ids are fresh UUIDs, so generating twice into one database adds a second catalogue.
 */
export interface SyntheticCatalogOptions {
  flights: number;
  /** How many airlines to create; default 60. */
  airlines?: number;
  /** Default 1. */
  seed?: number;
  /** The day departures are relative to (from the next day on); default now. */
  today?: Date;
}

export interface SyntheticCatalogResult {
  airlines: number;
  flights: number;
  /** Wall time of the load and the ANALYZE, in milliseconds. */
  ms: number;
}

const PREFIXES = [
  'Azure',
  'Crimson',
  'Golden',
  'Silver',
  'Northern',
  'Southern',
  'Eastern',
  'Western',
  'Coastal',
  'Island',
  'Summit',
  'Horizon',
  'Zenith',
  'Polar',
  'Tropic',
  'Cobalt',
  'Emerald',
  'Solar',
  'Lunar',
  'Stellar',
  'Jade',
  'Amber',
  'Ivory',
  'Falcon',
  'Condor',
  'Albatross',
  'Heron',
  'Kestrel',
  'Swift',
  'Orchid',
];
const CORES = [
  'Air',
  'Airways',
  'Airlines',
  'Wings',
  'Jet',
  'Skyways',
  'Aviation',
  'Express',
  'Connect',
  'Flyer',
];
/** One hash of the row number per random attribute (h0 … h12). */
const HASHES = Array.from({ length: 13 }, (_, k) => k);
/** Loads a synthetic catalogue in one transaction, then runs ANALYZE on the tables it filled. */
export async function generateSyntheticCatalog(
  sql: Sql,
  options: SyntheticCatalogOptions,
): Promise<SyntheticCatalogResult> {
  const flightCount = options.flights;
  const airlineCount = options.airlines ?? 60;
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(flightCount) || flightCount < 0)
    throw new RangeError('flights must be a non-negative integer');
  if (!Number.isSafeInteger(airlineCount) || airlineCount < 1)
    throw new RangeError('airlines must be a positive integer');
  if (!Number.isSafeInteger(seed) || Math.abs(seed) > 2 ** 40)
    throw new RangeError('seed must be an integer within ±2^40');

  const started = performance.now();
  const random = createRandom(seed);
  const today = options.today ?? new Date();
  const todayIso = new Date(Date.UTC(today.getFullYear(), today.getMonth(), today.getDate()))
    .toISOString()
    .slice(0, 10);

  const seen = new Map<string, number>();
  const airlines = Array.from({ length: airlineCount }, (_, index) => {
    const base = `${random.pick(PREFIXES)} ${random.pick(CORES)}`;
    const repeat = (seen.get(base) ?? 0) + 1;
    seen.set(base, repeat);
    const logo = DEMO_AIRLINES[index % DEMO_AIRLINES.length];
    return {
      id: random.uuid(),
      name: repeat === 1 ? base : `${base} ${repeat}`,
      image: logo ? logoPath(logo.slug) : '',
      owner_user_id: null,
    };
  });
  // Shuffled so that the skewed pick of origins favours different countries per seed, not A-names.
  const countries = random.sample(ALL_COUNTRIES, ALL_COUNTRIES.length);
  // Per-attribute hash keys: independent pseudo-random streams derived from the seed (integers
  // written into the statement text, as tx.unsafe needs them).
  const key = (k: number) => String(seed * 16 + k);

  await sql.begin(async (tx) => {
    await tx`INSERT INTO airlines ${tx(airlines)}`;
    if (flightCount === 0) return;
    // Maintaining a dozen indexes row by row costs most of the load; when the load at least
    // doubles the table, dropping the plain (non-constraint) indexes and building them again from
    // their own definitions after the insert is several times faster. It all happens inside this
    // transaction, so other sessions see either the old table or the new one with every index.
    const [{ existing } = { existing: 0 }] = await tx<{ existing: number }[]>`
      SELECT count(*)::int AS existing FROM flights`;
    const indexes =
      existing < flightCount
        ? await tx<{ name: string; definition: string }[]>`
            SELECT x.indexrelid::regclass::text AS name, pg_get_indexdef(x.indexrelid) AS definition
            FROM pg_index x
            WHERE x.indrelid = 'flights'::regclass
              AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`
        : [];
    for (const index of indexes) await tx.unsafe(`DROP INDEX ${index.name}`);
    // Airlines and countries join by position (hash joins on ordinality); subscripting a
    // 249-element text array per row costs about ten times more.
    await tx`
      WITH r AS (
        SELECT g.i,
               ${tx.unsafe(HASHES.map((k) => `hashint8extended(g.i, ${key(k)}) & 9223372036854775807 AS h${k}`).join(',\n               '))}
        FROM generate_series(1::bigint, ${flightCount}::bigint) AS g(i)
      ),
      v AS (
        SELECT r.*,
               -- a few large carriers and a long tail: u^2 piles up on the first airlines
               least(${airlineCount}::int, 1 + floor(${airlineCount}::int * power((h0 % 1000003)::float8 / 1000003, 2))::int) AS ai,
               -- busy origins: u^1.5 favours the first countries of the shuffled list
               1 + floor(${countries.length}::int * power((h1 % 1000003)::float8 / 1000003, 1.5))::int AS oi,
               1 + (h3 % 365)::int AS departure_day,
               (h4 % 288)::int * 5 AS departure_minute,
               40 + (h5 % 180)::int * 5 AS duration_minutes,
               h6 % 100 AS band_roll,
               h8 % 100 AS stock_roll
        FROM r
      ),
      f AS (
        SELECT v.*,
               -- any other country as destination: an offset of 1 … C-1 from the origin
               1 + (oi + (h2 % (${countries.length}::int - 1))::int) % ${countries.length}::int AS di,
               ${todayIso}::date + departure_day AS departure_date,
               ${todayIso}::date + departure_day + make_interval(mins => departure_minute + duration_minutes) AS arrives_at
        FROM v
      )
      INSERT INTO flights (airline_id, airline_name, origin, destination, departure_date, departure_hour,
                           arrival_date, arrival_hour, duration_estimated, price_cents, tickets, logo,
                           description, created_at)
      SELECT a.id, a.name, o.name, d.name, f.departure_date,
             make_time(departure_minute / 60, departure_minute % 60, 0),
             arrives_at::date, arrives_at::time,
             lpad((duration_minutes / 60)::text, 2, '0') || ':' || lpad((duration_minutes % 60)::text, 2, '0'),
             CASE
               WHEN band_roll < 40 THEN (30 + h7 % 171) * 10000       -- 3.000 … 20.000 (low)
               WHEN band_roll < 75 THEN (201 + h7 % 199) * 10000      -- 20.100 … 39.900 (mid)
               ELSE (400 + h7 % 1101) * 10000                         -- 40.000 … 150.000 (high)
             END,
             CASE
               WHEN stock_roll < 5 THEN 0
               WHEN stock_roll < 17 THEN 1 + (h9 % 49)::int
               ELSE 50 + (h9 % 251)::int
             END,
             a.image,
             (${tx.json(DESCRIPTION_OPENERS)}::jsonb ->> (h10 % ${DESCRIPTION_OPENERS.length})::int) || ' from ' || o.name || ' to ' || d.name
               || ' with ' || a.name || '. ' || (${tx.json(DESCRIPTION_EXTRAS)}::jsonb ->> (h11 % ${DESCRIPTION_EXTRAS.length})::int),
             now() - make_interval(secs => (h12 % 2592000)::int)
      FROM f
      JOIN jsonb_to_recordset(${tx.json(airlines.map((a, n) => ({ n: n + 1, id: a.id, name: a.name, image: a.image })))})
        AS a(n int, id uuid, name text, image text) ON a.n = f.ai
      JOIN jsonb_array_elements_text(${tx.json(countries)}) WITH ORDINALITY AS o(name, n) ON o.n = f.oi
      JOIN jsonb_array_elements_text(${tx.json(countries)}) WITH ORDINALITY AS d(name, n) ON d.n = f.di`;
    if (indexes.length > 0) await tx`SET LOCAL maintenance_work_mem = '256MB'`;
    for (const index of indexes) await tx.unsafe(index.definition);
  });
  await sql`ANALYZE airlines`;
  await sql`ANALYZE flights`;
  return {
    airlines: airlineCount,
    flights: flightCount,
    ms: Math.round(performance.now() - started),
  };
}
