import path from 'node:path';
import { CatalogQuerySchema, type CatalogQuery } from '@skyport/shared';
import { createSql, type Sql } from '../src/db/client.ts';
import { findCatalogPage } from '../src/features/catalog/queries.ts';
import { startChildServer, type ChildServer } from './lib/child-server.ts';
import { runDirectLoad } from './lib/direct-load.ts';
import { runHttpLoad } from './lib/http-load.ts';
import { median, round, type LoadResult } from './lib/stats.ts';

/**
 * GET /api/flights under load, three ways side by side on the same database and the same queries:
 *   full    the product's server (createApp on @hono/node-server, validation, middleware, logging)
 *   minimal (b) a bare Hono handler running the same SQL and returning its result
 *   direct  (a) the same SQL through postgres.js, in-process, no HTTP
 * The figures that matter are full / minimal (what validation, logging and serialisation cost) and
 * full's p99.
 */

export const VARIANTS = ['direct', 'minimal', 'full'] as const;
export type Variant = (typeof VARIANTS)[number];

export interface CatalogMix {
  name: string;
  description: string;
  /** Query strings requested in turn. */
  queries: Record<string, string>[];
}

export interface CatalogBenchOptions {
  databaseUrl: string;
  /** postgres.js pool size of every variant. */
  pool: number;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  logFile: string;
  /** Run only the mixes with these names. */
  only?: readonly string[];
  log: (message: string) => void;
}

export interface MixReport {
  name: string;
  description: string;
  paths: string[];
  /** Median over rounds of each variant. */
  results: Record<Variant, LoadResult>;
  rounds: Record<Variant, LoadResult[]>;
  /** full / minimal: throughput share and p99 ratio. */
  ratios: { throughput: number; p99: number };
  targets: { p99Under20ms: boolean; throughputAtLeast80Percent: boolean };
}

/** Filter mixes of the home screen, built from what the loaded catalogue holds. */
export async function catalogMixes(sql: Sql): Promise<CatalogMix[]> {
  const airlines = await sql<{ id: string; listed: number }[]>`
    SELECT airline_id AS id, sum(listed)::int AS listed FROM catalog_listing_counts
    GROUP BY airline_id ORDER BY sum(listed) DESC, airline_id`;
  const largest = airlines[0]?.id ?? '';
  const middle = airlines[Math.floor(airlines.length / 2)]?.id ?? largest;
  const routes = await sql<{ origin: string; destination: string }[]>`
    SELECT origin, destination FROM flights WHERE tickets > 0 AND NOT deleted
    GROUP BY origin, destination ORDER BY count(*) DESC, origin, destination LIMIT 4`;
  const origins = await sql<{ origin: string }[]>`
    SELECT origin FROM flights WHERE tickets > 0 AND NOT deleted
    GROUP BY origin ORDER BY count(*) DESC, origin LIMIT 4`;
  const prefix = (name: string, length: number) => name.slice(0, length).toLowerCase();
  return [
    {
      name: 'home',
      description: 'no filter, initial order, pages 1-4 (the landing page and paging through it)',
      queries: [{}, { page: '2' }, { page: '3' }, { page: '4' }],
    },
    {
      name: 'band+sort',
      description: 'one price band with a price or availability order, pages 1-2',
      queries: [
        { band: 'mid', sort: 'price_asc' },
        { band: 'high', sort: 'price_desc', page: '2' },
        { band: 'low', sort: 'stock_desc' },
        { band: 'mid', sort: 'airline_asc', page: '2' },
      ],
    },
    {
      name: 'airline+band',
      description:
        'the largest and a middle-sized airline, with and without a band, various orders',
      queries: [
        { airlineId: largest },
        { airlineId: largest, band: 'low', sort: 'price_desc' },
        { airlineId: middle, band: 'high', sort: 'stock_asc' },
        { airlineId: middle, sort: 'initial', page: '2' },
      ],
    },
    {
      name: 'search',
      description:
        'origin/destination prefixes of the busiest routes and origins (both, origin only, either)',
      queries: [
        ...routes
          .slice(0, 2)
          .map((r) => ({ origin: prefix(r.origin, 4), destination: prefix(r.destination, 3) })),
        ...origins.slice(0, 2).map((o) => ({ origin: prefix(o.origin, 5), sort: 'price_asc' })),
        { origin: prefix(origins[2]?.origin ?? 'a', 4), destination: 'xyz', sort: 'stock_desc' },
        { origin: 'Atlantis', band: 'mid' },
      ],
    },
  ];
}

function pathOf(query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  return `/api/flights${search ? `?${search}` : ''}`;
}

export async function runCatalogBench(options: CatalogBenchOptions): Promise<MixReport[]> {
  const { log } = options;
  const sql = createSql(options.databaseUrl, { max: options.pool });
  const servers: Partial<Record<'full' | 'minimal', ChildServer>> = {};
  try {
    const mixes = (await catalogMixes(sql)).filter(
      (mix) => !options.only || options.only.includes(mix.name),
    );
    const script = path.resolve(import.meta.dirname, 'catalog-server.ts');
    const serverArgs = [options.databaseUrl, String(options.pool), options.logFile];
    servers.full = await startChildServer(script, ['full', ...serverArgs]);
    servers.minimal = await startChildServer(script, ['minimal', ...serverArgs]);
    await checkSameAnswers(mixes, servers.full, servers.minimal, sql);

    const reports: MixReport[] = [];
    for (const mix of mixes) {
      const paths = mix.queries.map(pathOf);
      const parsed: CatalogQuery[] = mix.queries.map((q) => CatalogQuerySchema.parse(q));
      const rounds: Record<Variant, LoadResult[]> = { direct: [], minimal: [], full: [] };
      for (let round = 0; round < options.rounds; round++) {
        // Rotate the order each round so that no variant always runs first on a warm or noisy machine.
        const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!);
        for (const variant of order) {
          log(`  ${mix.name}: ${variant} (round ${round + 1}/${options.rounds}) …`);
          const load = {
            connections: options.connections,
            seconds: options.seconds,
            warmupSeconds: options.warmupSeconds,
          };
          const result =
            variant === 'direct'
              ? await runDirectLoad((i) => findCatalogPage(sql, parsed[i % parsed.length]!), {
                  concurrency: options.connections,
                  seconds: options.seconds,
                  warmupSeconds: options.warmupSeconds,
                })
              : await runHttpLoad({ baseUrl: servers[variant]!.baseUrl, paths, ...load });
          rounds[variant].push(result);
        }
      }
      const results = {
        direct: medianResult(rounds.direct),
        minimal: medianResult(rounds.minimal),
        full: medianResult(rounds.full),
      };
      const ratios = {
        throughput: round(results.full.rps / results.minimal.rps, 3),
        p99: round(results.full.p99 / Math.max(results.minimal.p99, 0.001), 3),
      };
      reports.push({
        name: mix.name,
        description: mix.description,
        paths,
        results,
        rounds,
        ratios,
        targets: {
          p99Under20ms: results.full.p99 < 20,
          throughputAtLeast80Percent: ratios.throughput >= 0.8,
        },
      });
    }
    return reports;
  } finally {
    await servers.full?.stop();
    await servers.minimal?.stop();
    await sql.end({ timeout: 1 });
  }
}

/** Before measuring: the three variants answer every query of every mix identically. */
async function checkSameAnswers(
  mixes: readonly CatalogMix[],
  full: ChildServer,
  minimal: ChildServer,
  sql: Sql,
) {
  for (const mix of mixes) {
    for (const query of mix.queries) {
      const path = pathOf(query);
      const [a, b] = await Promise.all([fetch(full.baseUrl + path), fetch(minimal.baseUrl + path)]);
      if (a.status !== 200 || b.status !== 200)
        throw new Error(`${path}: status ${a.status} / ${b.status}`);
      const [fullBody, minimalBody] = [await a.text(), await b.text()];
      const direct = JSON.stringify(await findCatalogPage(sql, CatalogQuerySchema.parse(query)));
      if (fullBody !== minimalBody || fullBody !== direct)
        throw new Error(`${path}: the variants answer differently`);
    }
  }
}

function medianResult(results: readonly LoadResult[]): LoadResult {
  return {
    requests: Math.round(median(results.map((r) => r.requests))),
    rps: round(median(results.map((r) => r.rps))),
    p50: round(median(results.map((r) => r.p50)), 2),
    p99: round(median(results.map((r) => r.p99)), 2),
    errors: Math.max(0, ...results.map((r) => r.errors)),
    seconds: round(median(results.map((r) => r.seconds)), 2),
  };
}
