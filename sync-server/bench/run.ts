// Benchmarks on a real PostgreSQL: `npm run bench [-- options]` (root) or
// `pnpm --filter @skyport/sync-server run bench [-- options]`.
//   --suites a,b         suites or groups (default: all):
//                          catalog, checkout, sync, pwa, write-storm, streams, client-sync;
//                          scale = write-storm,catalog,streams,client-sync; all = every suite
//   --server-ref REF     measure the server built from a git commit (e.g. HEAD) instead of the
//                        working tree (`git archive`; the tree is not touched)
//   --build-dir DIR      reuse a build folder under sync-server/ (kept afterwards)
//   --clean              drop every database this bench created (marked) and exit
//   catalog:     --flights N (100000), --seconds N (10), --warmup N (2), --connections N (50),
//                --rounds N (1), --only a,b (mixes), --keep (reuse its loaded database)
//   checkout:    --seconds, --warmup, --connections
//   write-storm: --customers N (200), --storm-seconds N (15), --storm-warmup N (3)
//   streams:     --streams N (10000);  client-sync: --client-sync-flights a,b (10000,100000)
// Environment: BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' adds Node flags to the
// servers under test (to profile them; Node refuses those in NODE_OPTIONS).
// Every server under test is the production bundle started as production (lib/product.ts: pool
// = DATABASE_POOL_MAX's default, info logging to a file, the bench's own PWA build served).
// Databases: `<DATABASE_URL's database name, else skyport>_bench_<suite>`, created and marked by
// the bench (COMMENT 'skyport bench'); nothing else is ever dropped. Builds go to
// sync-server/.bench-build/ (git-ignored), results and server logs to bench-results/ (git-ignored).
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSql } from '../src/db/client.ts';
import { generateSyntheticCatalog } from '../src/db/seed/synthetic.ts';
import { prepareBuild, type BenchBuild } from './lib/build.ts';
import {
  createBenchDatabase,
  dropBenchDatabases,
  lockBenchRun,
  openBenchServer,
  vacuumAnalyze,
} from './lib/database.ts';
import { configDefault, productSettings } from './lib/product.ts';
import {
  limit,
  measurementTable,
  table,
  writeResults,
  type LoadAverages,
  type Measurement,
} from './lib/report.ts';
import { round } from './lib/stats.ts';
import type { ClientSyncReport } from './client-sync.ts';
import type { StreamsReport } from './streams.ts';

const RESULTS_DIR = path.resolve(import.meta.dirname, '../../bench-results');
const SUITES = [
  'catalog',
  'checkout',
  'sync',
  'pwa',
  'write-storm',
  'streams',
  'client-sync',
] as const;
type Suite = (typeof SUITES)[number];
const GROUPS: Record<string, readonly Suite[]> = {
  all: SUITES,
  scale: ['write-storm', 'catalog', 'streams', 'client-sync'],
};

const { values } = parseArgs({
  options: {
    suites: { type: 'string', default: 'all' },
    'server-ref': { type: 'string' },
    'build-dir': { type: 'string' },
    clean: { type: 'boolean', default: false },
    flights: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '1' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    customers: { type: 'string', default: '200' },
    'storm-seconds': { type: 'string', default: '15' },
    'storm-warmup': { type: 'string', default: '3' },
    streams: { type: 'string', default: '10000' },
    'client-sync-flights': { type: 'string', default: '10000,100000' },
  },
  allowPositionals: true,
});
const positive = (name: keyof typeof values) => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer`);
  return value;
};
const nonNegative = (name: keyof typeof values) => {
  const value = Number(values[name]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number ≥ 0`);
  return value;
};
const list = (name: keyof typeof values) =>
  String(values[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const options = {
  flights: positive('flights'),
  seconds: positive('seconds'),
  warmupSeconds: nonNegative('warmup'),
  connections: positive('connections'),
  rounds: positive('rounds'),
  only: values.only ? list('only') : undefined,
  customers: positive('customers'),
  stormSeconds: positive('storm-seconds'),
  stormWarmupSeconds: nonNegative('storm-warmup'),
  streams: positive('streams'),
  clientSyncFlights: list('client-sync-flights').map(Number),
};
const suites = new Set<Suite>();
for (const name of list('suites')) {
  const group = GROUPS[name];
  if (group) group.forEach((s) => suites.add(s));
  else if ((SUITES as readonly string[]).includes(name)) suites.add(name as Suite);
  else
    throw new Error(
      `unknown suite ${name}: one of ${[...SUITES, ...Object.keys(GROUPS)].join(', ')}`,
    );
}

const log = (message: string) => console.log(message);
const server = await openBenchServer(log);
const loadNow = () => os.loadavg().map((l) => round(l, 2));
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const logDir = path.join(RESULTS_DIR, 'logs', stamp);

interface SuiteOutcome {
  suite: Suite;
  ok: boolean;
  error?: string;
  load: LoadAverages;
  seconds: number;
  measurements: Measurement[];
  file?: string;
}

function machine() {
  return {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  };
}

async function runSuite(suite: Suite, build: BenchBuild): Promise<SuiteOutcome> {
  log(`\n=== ${suite} ===`);
  const before = loadNow();
  const started = performance.now();
  try {
    const result = await SUITE_RUNNERS[suite](build);
    const load = { before, after: loadNow() };
    // Figures measured without a load average of their own get the suite's.
    const measurements = result.measurements.map((m) => (m.load ? m : { ...m, load }));
    const report = result.report;
    const seconds = round((performance.now() - started) / 1000);
    if (measurements.length > 0) console.log(`\n${measurementTable(measurements)}`);
    log(`load average ${before.join(' ')} → ${load.after.join(' ')} (${seconds} s)`);
    const file = await writeResults(RESULTS_DIR, suite, {
      benchmark: suite,
      startedAt: stamp,
      postgres: { source: server.source, version: server.version },
      machine: machine(),
      serverSource: build.serverSource,
      load,
      measurements,
      report,
    });
    return {
      suite,
      ok: true,
      load,
      seconds,
      measurements,
      file: path.relative(process.cwd(), file),
    };
  } catch (error) {
    const message = (error as Error).stack ?? String(error);
    log(`${suite} failed: ${message}`);
    const load = { before, after: loadNow() };
    return {
      suite,
      ok: false,
      error: (error as Error).message,
      load,
      seconds: round((performance.now() - started) / 1000),
      measurements: [],
    };
  }
}

function limitsText(measurements: readonly Measurement[]): string {
  const limited = measurements.filter((m) => m.limit);
  if (limited.length === 0) return 'no limits';
  const failed = limited.filter((m) => !m.limit!.pass).length;
  return failed
    ? `${failed} of ${limited.length} limits FAILED`
    : `${limited.length} limits passed`;
}

function printSummary() {
  const rows: (string | number)[][] = [['suite', 'result', 's', 'load before → after', 'results']];
  for (const o of outcomes) {
    rows.push([
      o.suite,
      o.ok ? limitsText(o.measurements) : `ERROR: ${o.error?.slice(0, 80)}`,
      o.seconds,
      `${o.load.before.join(' ')} → ${o.load.after.join(' ')}`,
      o.file ?? '',
    ]);
  }
  console.log(`\n=== summary ===\n\n${table(rows)}`);
  const all = outcomes.flatMap((o) => o.measurements);
  if (outcomes.length > 1 && all.length > 0) console.log(`\n${measurementTable(all)}`);
}

type SuiteRunner = (build: BenchBuild) => Promise<{ report: unknown; measurements: Measurement[] }>;

/**
 * A suite module written elsewhere, loaded when its suite runs: a missing file or export is
 * reported by name instead of failing the whole run at start-up.
 */
async function loadSuiteModule(
  file: string,
  required: readonly string[],
): Promise<Record<string, unknown>> {
  let module: Record<string, unknown>;
  try {
    module = (await import(new URL(file, import.meta.url).href)) as Record<string, unknown>;
  } catch (error) {
    if (
      (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' &&
      String(error).includes(file.slice(2))
    )
      throw new Error(`sync-server/bench/${file.slice(2)} does not exist yet`, { cause: error });
    throw error;
  }
  const missing = required.filter((name) => typeof module[name] !== 'function');
  if (missing.length > 0)
    throw new Error(
      `sync-server/bench/${file.slice(2)} does not export ${missing.join(', ')} ` +
        `(it exports: ${Object.keys(module).join(', ') || 'nothing'})`,
    );
  return module;
}

/** The measurements a suite module reports itself, when its report carries them. */
function reportedMeasurements(report: unknown, suite: string): Measurement[] {
  const list = (report as { measurements?: unknown } | null)?.measurements;
  if (!Array.isArray(list)) return [];
  return list
    .filter((m): m is Measurement => typeof (m as Measurement)?.name === 'string')
    .map((m) => ({ ...m, suite: m.suite ?? suite }));
}

const SUITE_RUNNERS: Record<Suite, SuiteRunner> = {
  async catalog(build) {
    const module = await loadSuiteModule('./catalog.ts', ['runCatalogBench']);
    const db = await createBenchDatabase(server, 'catalog', build.migrationsDir, {
      keep: values.keep,
    });
    const sql = createSql(db.url, { max: 1 });
    try {
      const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM flights`;
      if (!db.reused || !row?.n) {
        log(`loading ${options.flights} flights into ${db.name} …`);
        const loaded = await generateSyntheticCatalog(sql, { flights: options.flights });
        // Index-only scans need the visibility map that a freshly loaded table does not have yet.
        await vacuumAnalyze(sql, 'flights');
        log(`  ${loaded.flights} flights, ${loaded.airlines} airlines in ${loaded.ms} ms`);
      } else log(`reusing ${db.name} (${row.n} flights)`);
    } finally {
      await sql.end();
    }
    const runCatalogBench = module.runCatalogBench as (
      o: Record<string, unknown>,
    ) => Promise<unknown>;
    const report = await runCatalogBench({
      databaseUrl: db.url,
      pool: configDefault<number>('DATABASE_POOL_MAX'),
      connections: options.connections,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      rounds: options.rounds,
      only: options.only,
      logFile: path.join(logDir, 'catalog-full.log'),
      log,
      // For a catalog bench that starts the product itself (lib/product.ts).
      build,
      publicDir: build.pwaDir(),
    });
    const print = (module.printCatalogBench ?? module.printCatalog) as
      ((r: unknown) => void) | undefined;
    if (print) print(report);
    const measurements = reportedMeasurements(report, 'catalog');
    return {
      report,
      measurements: measurements.length ? measurements : catalogMeasurements(report),
    };
  },

  async checkout(build) {
    const { runCheckoutBench, printCheckoutBench } = await import('./checkout.ts');
    const report = await runCheckoutBench({
      server,
      build,
      logDir,
      connections: options.connections,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      log,
    });
    printCheckoutBench(report);
    return { report, measurements: report.measurements };
  },

  async sync(build) {
    const { runSyncBench, syncMeasurements } = await import('./sync.ts');
    const report = await runSyncBench({ server, build, logDir, log });
    console.log(`\nsync: ${JSON.stringify(report, null, 2)}`);
    return { report, measurements: syncMeasurements(report) };
  },

  async pwa(build) {
    const { runPwaBench, pwaMeasurements } = await import('./pwa.ts');
    const report = await runPwaBench({ server, build, logDir, log });
    const { files, ...homeInitialJs } = report.homeInitialJs;
    console.log(
      `\npwa: ${JSON.stringify({ ...report, homeInitialJs: { ...homeInitialJs, scripts: files.length } }, null, 2)}`,
    );
    return { report, measurements: pwaMeasurements(report) };
  },

  async 'write-storm'(build) {
    const { runWriteStormBench, printWriteStormBench } = await import('./write-storm.ts');
    const report = await runWriteStormBench({
      server,
      build,
      logDir,
      log,
      customers: options.customers,
      seconds: options.stormSeconds,
      warmupSeconds: options.stormWarmupSeconds,
    });
    printWriteStormBench(report);
    return { report, measurements: report.measurements };
  },

  async streams(build) {
    const module = await loadSuiteModule('./streams.ts', ['runStreamsBench', 'printStreamsBench']);
    const db = await createBenchDatabase(server, 'streams', build.migrationsDir);
    const report = await (
      module.runStreamsBench as (o: Record<string, unknown>) => Promise<unknown>
    )({
      databaseUrl: db.url,
      streams: options.streams,
      log,
      build,
      logDir,
      publicDir: build.pwaDir(),
    });
    (module.printStreamsBench as (r: unknown) => void)(report);
    return { report, measurements: streamsMeasurements(report as StreamsReport) };
  },

  async 'client-sync'(build) {
    const module = await loadSuiteModule('./client-sync.ts', [
      'runClientSyncBench',
      'printClientSyncBench',
    ]);
    const db = await createBenchDatabase(server, 'client_sync', build.migrationsDir);
    const report = await (
      module.runClientSyncBench as (o: Record<string, unknown>) => Promise<unknown>
    )({
      databaseUrl: db.url,
      flights: options.clientSyncFlights,
      log,
      product: { build, logDir, publicDir: build.pwaDir() },
    });
    (module.printClientSyncBench as (r: unknown) => void)(report);
    return { report, measurements: clientSyncMeasurements(report as ClientSyncReport) };
  },
};

/** The largest streams run against issue 15's targets, for the summary table. */
function streamsMeasurements(report: StreamsReport): Measurement[] {
  const largest = report.runs.at(-1);
  if (!largest) return [];
  const t = report.targets;
  const at = `${largest.streams} streams`;
  return [
    {
      suite: 'streams',
      name: `${at}: share with the change within ${t.deliveryMs} ms`,
      value: round(largest.delivery.within250Ms * 100, 1),
      unit: '%',
      limit: limit(largest.delivery.within250Ms * 100, '>=', t.deliveredShare * 100),
    },
    { suite: 'streams', name: `${at}: delivery p95`, value: largest.delivery.p95Ms, unit: 'ms' },
    {
      suite: 'streams',
      name: `${at}: server memory per stream (RSS)`,
      value: round(largest.memory.rssKbPerStream, 1),
      unit: 'KiB',
      limit: limit(largest.memory.rssKbPerStream, '<=', t.kbPerStream),
    },
  ];
}

/** Each client-sync case (size, CPU rate) against its floor and the long-task limit. */
function clientSyncMeasurements(report: ClientSyncReport): Measurement[] {
  return report.cases.flatMap((c) => {
    const name = `${c.flights} flights at ${c.cpuRate}× CPU`;
    return [
      {
        suite: 'client-sync',
        name: `${name}: initial sync`,
        value: c.syncMs,
        unit: 'ms',
        baseline: { name: 'floor: same requests, bare puts', value: c.floorMs },
        ratio: round(c.ratio, 2),
        limit: limit(c.ratio, '<=', report.targets.ratio),
      },
      {
        // No limit: how much of the ratio above is the local storage's layout (client-sync.ts).
        suite: 'client-sync',
        name: `${name}: initial sync, against RxDB's layout`,
        value: c.syncMs,
        unit: 'ms',
        baseline: {
          name: "layout floor: same requests, bare puts, RxDB's indexes",
          value: c.layoutFloorMs,
        },
        ratio: round(c.ratioToLayout, 2),
      },
      {
        suite: 'client-sync',
        name: `${name}: longest main-thread task`,
        value: c.longestTaskMs,
        unit: 'ms',
        limit: limit(c.longestTaskMs, '<=', report.targets.longTaskMs),
      },
    ];
  });
}

/** The catalog report as bench/catalog.ts returns it today (mixes with full/minimal/direct). */
interface CatalogMixLike {
  name: string;
  results: Record<string, { rps: number; p50: number; p99: number; errors: number }>;
  ratios?: { throughput: number; p99: number };
}

function catalogMeasurements(report: unknown): Measurement[] {
  if (!Array.isArray(report)) return [];
  const rows: (string | number)[][] = [['mix', 'variant', 'req/s', 'p50 ms', 'p99 ms', 'errors']];
  const measurements: Measurement[] = [];
  for (const mix of report as CatalogMixLike[]) {
    for (const [variant, r] of Object.entries(mix.results ?? {}))
      rows.push([mix.name, variant, Math.round(r.rps), r.p50, r.p99, r.errors]);
    const full = mix.results?.full;
    const minimal = mix.results?.minimal;
    if (!full || !minimal) continue;
    const ratio = round(full.rps / Math.max(minimal.rps, 1e-9), 3);
    measurements.push(
      {
        suite: 'catalog',
        name: `${mix.name}: full req/s`,
        value: Math.round(full.rps),
        unit: '/s',
        baseline: { name: 'minimal', value: Math.round(minimal.rps) },
        ratio,
        limit: limit(ratio, '>=', 0.8),
      },
      {
        suite: 'catalog',
        name: `${mix.name}: full p99`,
        value: full.p99,
        unit: 'ms',
        baseline: { name: 'minimal', value: minimal.p99 },
        limit: limit(full.p99, '<', 20),
      },
    );
  }
  console.log(
    `\nGET /api/flights at ${options.connections} concurrent connections\n\n${table(rows)}`,
  );
  return measurements;
}

// The run itself, after every definition above.
let unlock: (() => Promise<void>) | undefined;
let build: BenchBuild | undefined;
const outcomes: SuiteOutcome[] = [];
try {
  log(`PostgreSQL (${server.source}): ${server.version}`);
  unlock = await lockBenchRun(server);
  if (values.clean) {
    const dropped = await dropBenchDatabases(server);
    log(dropped.length ? `dropped ${dropped.join(', ')}` : 'no bench databases to drop');
    process.exitCode = 0;
  } else {
    await mkdir(logDir, { recursive: true });
    log(
      `${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? '?'}), load ${loadNow().join(' ')}; ` +
        `servers: pool ${configDefault<number>('DATABASE_POOL_MAX')} (DATABASE_POOL_MAX default), logs in ${path.relative(process.cwd(), logDir)}`,
    );
    build = await prepareBuild({ dir: values['build-dir'], serverRef: values['server-ref'], log });
    for (const suite of SUITES) if (suites.has(suite)) outcomes.push(await runSuite(suite, build));
    printSummary();
    const file = await writeResults(RESULTS_DIR, 'run', {
      startedAt: stamp,
      postgres: { source: server.source, version: server.version },
      machine: machine(),
      servers: productSettings(),
      serverSource: build.serverSource,
      suites: outcomes,
    });
    log(`\nresults: ${path.relative(process.cwd(), file)}`);
    if (outcomes.some((o) => !o.ok)) process.exitCode = 1;
  }
} finally {
  await build?.remove();
  await unlock?.();
  await server.stop();
}
