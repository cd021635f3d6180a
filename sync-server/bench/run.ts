// Benchmarks on a real PostgreSQL: `pnpm --filter @skyport/sync-server run bench [-- options]`.
//   --flights N        catalogue size (default 100000)
//   --seconds N        measured seconds per variant and mix (default 10); --warmup N (default 2)
//   --connections N    concurrent connections / in-flight calls (default 50)
//   --pool N           postgres.js pool size of each variant (default: number of CPU cores)
//   --rounds N         repeat every mix N times and report medians (default 1)
//   --only a,b         run only these mixes (home, band+sort, airline+band, search)
//   --log-file PATH    where the full server's request log goes (default /dev/null)
//   --keep             reuse an already loaded skyport_bench database instead of reloading it
//   --suites a,b       which benchmarks to run: catalog, checkout, sync, pwa (default: all)
// Results are printed and written to bench-results/ (git-ignored) as JSON.
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSql } from '../src/db/client.ts';
import { generateSyntheticCatalog } from '../src/db/seed/synthetic.ts';
import { runCatalogBench, VARIANTS, type MixReport } from './catalog.ts';
import { openBenchServer, recreateDatabase, vacuumAnalyze, withDatabase } from './lib/database.ts';
import { table, writeResults } from './lib/report.ts';

const BENCH_DATABASE = 'skyport_bench';
const RESULTS_DIR = path.resolve(import.meta.dirname, '../../bench-results');

const { values } = parseArgs({
  options: {
    flights: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    pool: { type: 'string', default: String(os.availableParallelism()) },
    rounds: { type: 'string', default: '1' },
    only: { type: 'string' },
    'log-file': { type: 'string', default: '/dev/null' },
    keep: { type: 'boolean', default: false },
    suites: { type: 'string', default: 'catalog,checkout,sync,pwa' },
  },
  allowPositionals: true,
});
const numberOption = (name: keyof typeof values) => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer`);
  return value;
};
const options = {
  flights: numberOption('flights'),
  seconds: numberOption('seconds'),
  warmupSeconds: Number(values.warmup),
  connections: numberOption('connections'),
  pool: numberOption('pool'),
  rounds: numberOption('rounds'),
  only: values.only?.split(',').map((s) => s.trim()),
  logFile: values['log-file'] ?? '/dev/null',
};

const suites = new Set(values.suites?.split(',').map((s) => s.trim()));
const log = (message: string) => console.log(message);
const server = await openBenchServer(log);
try {
  log(`PostgreSQL (${server.source}): ${server.version}`);
  if (suites.has('catalog')) await runCatalogSuite();
  if (suites.has('checkout')) {
    const { runCheckoutBench, printCheckoutBench } = await import('./checkout.ts');
    const databaseUrl = await recreateDatabase(server, 'skyport_bench_checkout');
    const report = await runCheckoutBench({
      databaseUrl,
      connections: options.connections,
      seconds: options.seconds,
      pool: 20,
      log,
    });
    printCheckoutBench(report);
    await writeResults(RESULTS_DIR, 'checkout', {
      benchmark: 'checkout',
      postgres: server.source,
      report,
    });
  }
  if (suites.has('sync')) {
    const { runSyncBench } = await import('./sync.ts');
    const report = await runSyncBench({ server, log });
    console.log(`\nsync: ${JSON.stringify(report, null, 2)}`);
    await writeResults(RESULTS_DIR, 'sync', { benchmark: 'sync', postgres: server.source, report });
  }
  if (suites.has('pwa')) {
    const { runPwaBench } = await import('./pwa.ts');
    const report = await runPwaBench({ server, log });
    const { files, ...homeInitialJs } = report.homeInitialJs;
    console.log(
      `\npwa: ${JSON.stringify({ ...report, homeInitialJs: { ...homeInitialJs, scripts: files.length } }, null, 2)}`,
    );
    await writeResults(RESULTS_DIR, 'pwa', { benchmark: 'pwa', postgres: server.source, report });
  }
} finally {
  await server.stop();
}

async function runCatalogSuite() {
  const databaseUrl = values.keep
    ? withDatabase(server.adminUrl, BENCH_DATABASE)
    : await recreateDatabase(server, BENCH_DATABASE);
  const sql = createSql(databaseUrl, { max: 1 });
  try {
    if (!values.keep) {
      log(`loading ${options.flights} flights into ${BENCH_DATABASE} …`);
      const loaded = await generateSyntheticCatalog(sql, { flights: options.flights });
      // Index-only scans need the visibility map that a freshly loaded table does not have yet.
      await vacuumAnalyze(sql, 'flights');
      log(`  ${loaded.flights} flights, ${loaded.airlines} airlines in ${loaded.ms} ms`);
    }
  } finally {
    await sql.end();
  }

  const loadBefore = os.loadavg();
  const started = new Date();
  log(
    `catalog: ${options.connections} connections, ${options.seconds} s per run (+${options.warmupSeconds} s warm-up), ` +
      `pool ${options.pool}, ${options.rounds} round(s), ${os.availableParallelism()} cores`,
  );
  const mixes = await runCatalogBench({ ...options, databaseUrl, log });
  const loadAfter = os.loadavg();

  printCatalog(mixes);
  const file = await writeResults(RESULTS_DIR, 'catalog', {
    benchmark: 'catalog',
    startedAt: started.toISOString(),
    postgres: { source: server.source, version: server.version },
    machine: {
      cores: os.availableParallelism(),
      cpu: os.cpus()[0]?.model,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAfter,
    },
    options: { ...options, database: BENCH_DATABASE },
    mixes,
  });
  log(`\nresults: ${path.relative(process.cwd(), file)}`);
}

function printCatalog(mixes: readonly MixReport[]) {
  const label = { direct: '(a) SQL only', minimal: '(b) bare Hono', full: 'full server' } as const;
  const rows: (string | number)[][] = [['mix', 'variant', 'req/s', 'p50 ms', 'p99 ms', 'errors']];
  for (const mix of mixes) {
    for (const variant of VARIANTS) {
      const r = mix.results[variant];
      rows.push([mix.name, label[variant], Math.round(r.rps), r.p50, r.p99, r.errors]);
    }
  }
  console.log(`\nGET /api/flights at ${options.connections} concurrent connections\n`);
  console.log(table(rows));
  const ratioRows: (string | number)[][] = [
    ['mix', 'full/(b) req/s', 'full/(b) p99', 'full p99 < 20 ms', 'full ≥ 80 % of (b)'],
  ];
  for (const mix of mixes) {
    ratioRows.push([
      mix.name,
      `${Math.round(mix.ratios.throughput * 1000) / 10} %`,
      mix.ratios.p99,
      mix.targets.p99Under20ms ? 'yes' : 'NO',
      mix.targets.throughputAtLeast80Percent ? 'yes' : 'NO',
    ]);
  }
  console.log(`\n${table(ratioRows)}`);
}
