// The local-first sync benchmarks (issue 5), in Debian's chromium through playwright-core, against
// a real server on a fresh database of 10,000 flights:
//   1. initial sync: a fresh browser (empty IndexedDB) opens the page until the flights
//      replication has done its first full pull and the 10,000 flights are stored in IndexedDB,
//      counted from navigation start (seconds; target < 3 s);
//   2. a local catalogue page query with a filter and a sort over those flights (median ms;
//      target < 16 ms), the one-time index build reported beside it;
//   3. live update delay: a flight changed on the server until the change is in a streaming
//      client's local database (p50 / p95 ms; target p95 < 500 ms).
// The page is the PWA's local-first harness (pwa/e2e/local-first, a production build into the
// bench's build folder), served by the product (lib/product.ts) on the bench's `sync` database;
// live changes are committed with SQL as an airline's edit commits them.
// Call `runSyncBench({ server, build, logDir, log })` from bench/run.ts.
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { createSql } from '../src/db/client.ts';
import { generateSyntheticCatalog } from '../src/db/seed/synthetic.ts';
import type { BenchBuild } from './lib/build.ts';
import { createBenchDatabase, vacuumAnalyze, type BenchServer } from './lib/database.ts';
import { CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH } from './lib/chromium.ts';
import { startProduct, type ProductServer } from './lib/product.ts';
import { limit, type Measurement } from './lib/report.ts';
import { median, percentile, round } from './lib/stats.ts';

/** Targets of issue 5. */
export const SYNC_TARGETS = {
  initialSyncSeconds: 3,
  pageQueryMs: 16,
  liveUpdateP95Ms: 500,
} as const;

export interface SyncBenchOptions {
  server: BenchServer;
  build: BenchBuild;
  /** Folder for the server's log. */
  logDir: string;
  log: (message: string) => void;
  /** Catalogue size (default 10,000). */
  flights?: number;
  /** Fresh-browser initial syncs, each beside a bare run; medians are reported (default 5). */
  syncRuns?: number;
  /** Page queries timed (default 50). */
  queryRuns?: number;
  /** Live updates measured (default 40). */
  liveUpdates?: number;
  chromiumPath?: string;
}

export interface SyncBenchReport {
  flights: number;
  initialSync: {
    runsSeconds: number[];
    seconds: number;
    /** The same flights fetched page by page and put into IndexedDB bare, in the same browser. */
    bare: { fetchSeconds: number; putSeconds: number; seconds: number };
    /** initial sync ÷ bare: what RxDB, Dexie and the app add on top of the network and the puts. */
    ratioToBare: number;
    target: number;
    pass: boolean;
  };
  pageQuery: {
    query: Record<string, unknown>;
    medianMs: number;
    indexBuildMs: number;
    matching: number;
    target: number;
    pass: boolean;
  };
  liveUpdate: {
    samples: number;
    p50Ms: number;
    p95Ms: number;
    maxMs: number;
    target: number;
    pass: boolean;
  };
}

declare const window: {
  harness: {
    ready: Promise<boolean>;
    initialSync(count: number): Promise<number>;
    bareBaseline(): Promise<{ fetchMs: number; putMs: number; count: number }>;
    awaitInSync(): Promise<void>;
    timeQuery(
      input: Record<string, unknown>,
      runs: number,
    ): Promise<{ medianMs: number; indexMs: number; total: number; flights: number }>;
    firstFlightIds(count: number): Promise<string[]>;
    watchPrice(flightId: string, priceCents: number): Promise<void>;
    arrival(flightId: string): Promise<number>;
  };
};

export async function runSyncBench(options: SyncBenchOptions): Promise<SyncBenchReport> {
  const { log } = options;
  const flights = options.flights ?? 10_000;
  const harness = options.build.harnessDir();
  const db = await createBenchDatabase(options.server, 'sync', options.build.migrationsDir);
  const sql = createSql(db.url, { max: 2 });
  let product: ProductServer | undefined;
  let browser: Browser | undefined;
  try {
    log(`sync bench: ${flights} flights into ${db.name}, served by the product`);
    await generateSyntheticCatalog(sql, { flights, airlines: 20 });
    await vacuumAnalyze(sql, 'flights');
    product = await startProduct({
      build: options.build,
      databaseUrl: db.url,
      publicDir: harness,
      logFile: path.join(options.logDir, 'sync-server.log'),
      name: 'sync server',
    });
    // localhost: a secure context for the harness (IndexedDB, as on a real origin).
    const server = { url: product.localhostUrl };
    browser = await chromium.launch({
      executablePath: options.chromiumPath ?? DEFAULT_CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    });

    // 1. Initial sync into fresh browsers (a new context has an empty IndexedDB), each run followed
    // by its floor: the same pulls and bare IndexedDB puts, so that both see the same machine.
    const runsSeconds: number[] = [];
    const bareRuns: { fetchMs: number; putMs: number }[] = [];
    for (let run = 0; run < (options.syncRuns ?? 5); run++) {
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      await page.goto(server.url);
      const ms = await page.evaluate((count) => window.harness.initialSync(count), flights);
      runsSeconds.push(round(ms / 1000, 2));
      await context.close();

      const bareContext = await browser.newContext({ serviceWorkers: 'block' });
      const barePage = await bareContext.newPage();
      await barePage.goto(`${server.url}/?baseline`);
      const bare = await barePage.evaluate(() => window.harness.bareBaseline());
      if (bare.count < flights)
        throw new Error(`the bare baseline fetched ${bare.count} of ${flights} flights`);
      bareRuns.push(bare);
      await bareContext.close();
      log(
        `  initial sync ${run + 1}: ${round(ms / 1000, 2)} s; bare fetch + IndexedDB puts: ${round(bare.fetchMs / 1000, 2)} s + ${round(bare.putMs / 1000, 2)} s`,
      );
    }
    const bareFetch = median(bareRuns.map((run) => run.fetchMs)) / 1000;
    const barePut = median(bareRuns.map((run) => run.putMs)) / 1000;

    // 2 and 3 in one synced page.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.evaluate((count) => window.harness.initialSync(count), flights);
    const query = { band: 'mid', sort: 'price_desc', origin: 'a', page: 2 };
    const timed = await page.evaluate(([input, runs]) => window.harness.timeQuery(input, runs), [
      query,
      options.queryRuns ?? 50,
    ] as const);
    log(
      `  page query: median ${round(timed.medianMs, 2)} ms (index built in ${round(timed.indexMs, 1)} ms)`,
    );

    // Live updates from a settled page: every replication idle, the stream connected.
    await page.evaluate(() => window.harness.awaitInSync());
    const samples = options.liveUpdates ?? 40;
    const ids = await page.evaluate((count) => window.harness.firstFlightIds(count), samples);
    const delays: number[] = [];
    for (const [index, id] of ids.entries()) {
      const priceCents = 7_777_00 + index;
      await page.evaluate(([flightId, price]) => window.harness.watchPrice(flightId, price), [
        id,
        priceCents,
      ] as const);
      // The change as an airline's edit commits it: one UPDATE through the replication triggers.
      const started = Date.now();
      await sql`UPDATE flights SET price_cents = ${priceCents}, updated_at = now() WHERE id = ${id}`;
      const arrived = await page.evaluate((flightId) => window.harness.arrival(flightId), id);
      delays.push(arrived - started);
    }
    delays.sort((a, b) => a - b);
    await context.close();

    const seconds = median(runsSeconds);
    const report: SyncBenchReport = {
      flights,
      initialSync: {
        runsSeconds,
        seconds,
        bare: {
          fetchSeconds: round(bareFetch, 2),
          putSeconds: round(barePut, 2),
          seconds: round(bareFetch + barePut, 2),
        },
        ratioToBare: round(seconds / (bareFetch + barePut), 2),
        target: SYNC_TARGETS.initialSyncSeconds,
        pass: seconds < SYNC_TARGETS.initialSyncSeconds,
      },
      pageQuery: {
        query,
        medianMs: round(timed.medianMs, 2),
        indexBuildMs: round(timed.indexMs, 1),
        matching: timed.total,
        target: SYNC_TARGETS.pageQueryMs,
        pass: timed.medianMs < SYNC_TARGETS.pageQueryMs,
      },
      liveUpdate: {
        samples: delays.length,
        p50Ms: percentile(delays, 50),
        p95Ms: percentile(delays, 95),
        maxMs: delays.at(-1) ?? 0,
        target: SYNC_TARGETS.liveUpdateP95Ms,
        pass: percentile(delays, 95) < SYNC_TARGETS.liveUpdateP95Ms,
      },
    };
    log(`  live update: p50 ${report.liveUpdate.p50Ms} ms, p95 ${report.liveUpdate.p95Ms} ms`);
    return report;
  } finally {
    await browser?.close();
    await product?.stop();
    await sql.end({ timeout: 5 });
  }
}

/** The report's figures beside their floors and targets, for the run summary. */
export function syncMeasurements(report: SyncBenchReport): Measurement[] {
  return [
    {
      suite: 'sync',
      name: `initial sync of ${report.flights} flights`,
      value: report.initialSync.seconds,
      unit: 's',
      baseline: { name: 'bare fetch + puts', value: report.initialSync.bare.seconds },
      ratio: report.initialSync.ratioToBare,
      limit: limit(report.initialSync.seconds, '<', SYNC_TARGETS.initialSyncSeconds),
    },
    {
      suite: 'sync',
      name: 'local page query (median)',
      value: report.pageQuery.medianMs,
      unit: 'ms',
      limit: limit(report.pageQuery.medianMs, '<', SYNC_TARGETS.pageQueryMs),
    },
    {
      suite: 'sync',
      name: 'live update p95',
      value: report.liveUpdate.p95Ms,
      unit: 'ms',
      limit: limit(report.liveUpdate.p95Ms, '<', SYNC_TARGETS.liveUpdateP95Ms),
    },
  ];
}
