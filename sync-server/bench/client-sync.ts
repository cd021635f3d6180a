// The client's initial sync of the catalogue, measured on the shipped app (issue 15: a client
// that stays responsive at any catalogue size):
//   - N synthetic flights (src/db/seed/synthetic.ts) in the given database;
//   - the PWA's production build served by the production server bundle started as production
//     (the bench runner's build, lib/product.ts); standalone, a `vite build` into a temporary
//     folder of its own (never pwa/dist) served by the server from source (src/main.ts);
//   - Debian's chromium, a fresh browser context (empty IndexedDB, empty HTTP cache) per run,
//     as a guest: the home page loads, then one wheel scroll (the engagement that makes a first
//     visit download the catalogue, pwa/src/app/app.tsx);
//   - measured in the page: the time from the scroll until every flight of the server is in
//     the local database (the catalogue's replica, counted in IndexedDB) and the app has marked
//     the catalogue as on the device (its first full pull done), and the main thread's
//     long tasks meanwhile (a PerformanceObserver for `longtask`): the longest, the number over
//     100 ms and the total blocking time (the part of each task over 50 ms); the same for the
//     3 s after (what the app does once the catalogue is there: the home page switching to it);
//   - the floor, in the same browser and at the same CPU rate: the requests the app made for the
//     catalogue (same URLs, in order), then bare IndexedDB puts of the same documents (one store,
//     no indexes, one transaction). Also the floor of the ordinary pulls alone (same URLs, same
//     batch size, following checkpoints), which is what the app did before it had snapshots, and,
//     for information, the layout floor: the same requests and bare puts into a table laid out as
//     RxDB's Dexie storage laid out the replica before it had one of its own (its three indexes
//     and its fields; decisions 029 and 031).
//   - at 1× and at 4× CPU (CDP Emulation.setCPUThrottlingRate), each case `runs` times, app and
//     floor interleaved; medians reported.
// Targets: sync ≤ 1.5× the floor, and no main-thread task over 100 ms during the sync.
//
//   import { runClientSyncBench, printClientSyncBench } from './client-sync.ts';
//   const report = await runClientSyncBench({ databaseUrl, flights: [10_000, 100_000], log });
//   printClientSyncBench(report);
//
// Standalone: `tsx bench/client-sync.ts [--flights 10000,100000] [--runs 3] [--cpu 1,4]
//   [--json report.json] [--pwa-root DIR]` (a database of its own on DATABASE_URL's server,
// else 127.0.0.1:5432; --pwa-root builds another copy of the PWA, e.g. an earlier commit's).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';
import { createSql } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { generateSyntheticCatalog } from '../src/db/seed/synthetic.ts';
import { freePort } from '../src/test/free-port.ts';
import type { BenchBuild } from './lib/build.ts';
import { CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH } from './lib/chromium.ts';
import { withStandaloneBenchDatabase } from './lib/database.ts';
import { startProduct } from './lib/product.ts';

const SERVER_ROOT = path.resolve(import.meta.dirname, '..');
const PWA_ROOT = path.resolve(SERVER_ROOT, '../pwa');
/** The catalogue's pull batch (pwa/src/sync/pull-request.ts PULL_BATCH.flights). */
const PULL_BATCH = 2000;

export const CLIENT_SYNC_TARGETS = { ratio: 1.5, longTaskMs: 100 } as const;

export interface ClientSyncOptions {
  /** A migrated database the bench may fill with flights (it adds to what is there). */
  databaseUrl: string;
  /** Catalogue sizes, measured in this order (flights are added between sizes). */
  flights: number[];
  log: (message: string) => void;
  /** Measured runs per size and CPU rate (default 3). */
  runs?: number;
  /** CPU slowdowns (default 1 and 4). */
  cpuRates?: number[];
  chromiumPath?: string;
  /**
   * The PWA to build (its folder): the workspace's by default; another checkout (e.g. `git
   * archive` of an earlier commit, beside the workspace's node_modules) measures "before".
   */
  pwaRoot?: string;
  /**
   * The bench runner's build (run.ts): the production server bundle started as production
   * (lib/product.ts) serving `publicDir`, that build's PWA. Without it (standalone), the PWA is
   * built here and the server runs from source.
   */
  product?: { build: BenchBuild; publicDir: string; logDir: string };
}

interface TaskSummary {
  longestTaskMs: number;
  /** Tasks over 100 ms. */
  longTasks: number;
  /** Sum over tasks of their part over 50 ms. */
  blockingMs: number;
}

export interface ClientSyncRun extends TaskSummary {
  /**
   * From the scroll until every flight is in the local database and the app knows it (its first
   * full pull done): the later of `storedMs` and `readyMs`.
   */
  syncMs: number;
  /** From the scroll until every flight is in the local database. */
  storedMs: number;
  /** From the scroll until the app has marked the catalogue as on the device. */
  readyMs: number;
  /** From the scroll until the first catalogue request started. */
  firstRequestMs: number | null;
  /** The 3 s after the sync. */
  after: TaskSummary;
  /** The catalogue requests the app made, in order. */
  requests: string[];
}

export interface FloorRun {
  fetchMs: number;
  putMs: number;
  totalMs: number;
  documents: number;
  requests: number;
}

export interface ClientSyncCase {
  flights: number;
  cpuRate: number;
  runs: ClientSyncRun[];
  floors: { sameRequests: FloorRun; pulls: FloorRun; layout: FloorRun }[];
  /** Medians. */
  syncMs: number;
  floorMs: number;
  pullsFloorMs: number;
  layoutFloorMs: number;
  /** syncMs ÷ floorMs (the app's own requests and bare puts). */
  ratio: number;
  /** syncMs ÷ pullsFloorMs (the ordinary pulls and bare puts). */
  ratioToPulls: number;
  /** syncMs ÷ layoutFloorMs (the same requests, bare puts into RxDB's layout). */
  ratioToLayout: number;
  /** Worst run. */
  longestTaskMs: number;
  longTasks: number;
  /** Median run. */
  blockingMs: number;
  after: TaskSummary;
  pass: { ratio: boolean; longTasks: boolean };
}

export interface ClientSyncReport {
  targets: typeof CLIENT_SYNC_TARGETS;
  runs: number;
  cpuRates: number[];
  chromium: string;
  /** Per size: the first snapshot answer of a freshly started server (built on demand). */
  coldSnapshotMs: Record<number, number | null>;
  cases: ClientSyncCase[];
  pass: boolean;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round = (value: number, digits = 0) => Number(value.toFixed(digits));

// --- the catalogue, the build, the server ---------------------------------------------------

/** Adds synthetic flights until the database has `total` flights; returns the rows replicated. */
async function fillCatalogue(databaseUrl: string, total: number, log: (m: string) => void) {
  const sql = createSql(databaseUrl, { max: 1 });
  try {
    await migrate(sql);
    const [{ count } = { count: 0 }] = await sql<{ count: number }[]>`
      SELECT count(*)::int AS count FROM flights`;
    if (count < total) {
      log(`  loading ${total - count} synthetic flights (${count} there)`);
      await generateSyntheticCatalog(sql, { flights: total - count, seed: 15 + count });
    }
    // Every row replicates (tombstones too): what the local database ends up holding.
    const [{ rows } = { rows: 0 }] = await sql<{ rows: number }[]>`
      SELECT count(*)::int AS rows FROM flights`;
    return rows;
  } finally {
    await sql.end();
  }
}

function buildPwa(pwaRoot: string, outDir: string, log: (m: string) => void) {
  log(`building the PWA (${pwaRoot}) into ${outDir}`);
  const result = spawnSync(
    path.join(PWA_ROOT, 'node_modules/.bin/vite'),
    ['build', '--outDir', outDir, '--emptyOutDir'],
    { cwd: pwaRoot, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (result.status !== 0) throw new Error(`vite build failed (${result.status})`);
}

/** The shipped server (the runner's production bundle) on the database, serving its PWA build. */
async function startShipped(
  product: NonNullable<ClientSyncOptions['product']>,
  databaseUrl: string,
  flights: number,
) {
  const server = await startProduct({
    build: product.build,
    databaseUrl,
    publicDir: product.publicDir,
    logFile: path.join(product.logDir, `client-sync-${flights}.log`),
    name: `client-sync-${flights}`,
  });
  // localhost: a secure context, where the PWA's service worker and storage behave as shipped.
  return { baseUrl: server.localhostUrl, stop: () => server.stop() };
}

/** The server from source (src/main.ts) on the database, serving the build (standalone runs). */
async function startServer(databaseUrl: string, publicDir: string) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PUBLIC_DIR: publicDir,
      SEED_DEMO: 'never',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
  });
  const baseUrl = `http://localhost:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error('the server did not answer /api/health within 90 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return { baseUrl, stop };
}

/** The snapshot's first answer (the server builds it on demand), timed; null without one. */
async function warmSnapshot(baseUrl: string): Promise<number | null> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/sync/flights/snapshot`, {
    headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
  });
  await response.arrayBuffer();
  return response.ok ? round(performance.now() - started) : null;
}

// --- in the page (plain JavaScript: this package is type-checked without the DOM library) -----

/** Records the page's long tasks from its very start. */
const LONG_TASKS_SCRIPT = `
  window.__clientSync = { longTasks: [] };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        window.__clientSync.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (error) {}
`;

/**
 * Resolves once the catalogue's replica (pwa/src/db/catalogue-replica.ts, an IndexedDB database
 * named `…-catalogue` with a `flights` table) holds `count` flights ({ stored }), and once the app
 * says so too ({ ready }: its first full pull of the catalogue is done, the flag the home page
 * sets to read the local catalogue, pwa/src/features/catalog/data/catalogue-synced.ts), both as
 * performance.now().
 */
const WAIT_FOR_CATALOGUE = `async ({ count, timeoutMs }) => {
  const started = performance.now();
  let name;
  const countNow = async () => {
    name ??= (await indexedDB.databases())
      .map((database) => database.name)
      .find((candidate) => /^skyport-.*-catalogue$/.test(candidate || ''));
    if (!name) return 0;
    return new Promise((resolve) => {
      const request = indexedDB.open(name);
      request.onupgradeneeded = () => request.transaction.abort();
      request.onerror = () => resolve(0);
      request.onsuccess = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains('flights')) {
          db.close();
          return resolve(0);
        }
        const counted = db.transaction('flights').objectStore('flights').count();
        counted.onsuccess = () => {
          db.close();
          resolve(counted.result);
        };
        counted.onerror = () => {
          db.close();
          resolve(0);
        };
      };
    });
  };
  const ready = () =>
    Object.keys(localStorage).some(
      (key) => key.startsWith('skyport:catalogue-synced:') && localStorage.getItem(key) === '1',
    );
  let stored = null;
  let readyAt = null;
  let countedAt = -Infinity;
  for (;;) {
    // Counting opens the database and walks the table, on the same IndexedDB thread the sync
    // writes on (5-7 ms at 100,000 flights): every 50 ms it competed with what it measures. So the table
    // is counted every 500 ms until the app says the catalogue is there, then at once and every
    // 50 ms (the sync's end is the later of the two). The app's flag is read every 10 ms (a
    // look at localStorage): read every 50 ms it was seen 25 ms late on average, 2-4 % of a
    // 10,000-flight sync, which the floor, timed by its own transaction's end, does not pay.
    if (readyAt === null && ready()) {
      readyAt = performance.now();
      countedAt = -Infinity;
    }
    const countEvery = readyAt === null ? 500 : 50;
    if (stored === null && performance.now() - countedAt >= countEvery) {
      countedAt = performance.now();
      if ((await countNow()) >= count) stored = performance.now();
    }
    if (stored !== null && readyAt !== null) return { stored, ready: readyAt };
    if (performance.now() - started > timeoutMs) throw new Error('the catalogue did not arrive');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}`;

/**
 * The floor: the given requests fetched in order (NDJSON snapshots read line by line, pulls as
 * JSON), or, with \`followPulls\`, the ordinary pulls from no checkpoint; then bare puts of every
 * document into a new IndexedDB store in one transaction. With \`layout\`, the store and the
 * documents are as RxDB's Dexie storage keeps the replica (rxdb/plugins/storage-dexie,
 * \`getDexieStoreSchema\` and \`fromStorageToDexie\`): indexes [_deleted+id], [_meta.lwt+id] and
 * [_meta.lwt], \`_deleted\` stored as '0' or '1', and RxDB's \`_meta\`, \`_rev\` and \`_attachments\`.
 */
const FLOOR_SCRIPT = `async ({ urls, followPulls, header, version, batch, layout }) => {
  const started = performance.now();
  const documents = [];
  const get = (url) => fetch(url, { headers: { [header]: version } });
  let requests = 0;
  if (followPulls) {
    let checkpoint = null;
    for (;;) {
      const params = new URLSearchParams({ limit: String(batch) });
      if (checkpoint) for (const [key, value] of Object.entries(checkpoint)) params.set(key, String(value));
      const body = await (await get('/api/sync/flights/pull?' + params)).json();
      requests += 1;
      for (const doc of body.documents) documents.push(doc);
      if (body.documents.length < batch || !body.checkpoint) break;
      checkpoint = body.checkpoint;
    }
  } else {
    for (const url of urls) {
      const response = await get(url);
      requests += 1;
      if ((response.headers.get('content-type') || '').includes('ndjson')) {
        const lines = (await response.text()).split('\\n').filter((line) => line.length > 0);
        for (let index = 1; index < lines.length - 1; index++) documents.push(JSON.parse(lines[index]));
      } else {
        for (const doc of (await response.json()).documents) documents.push(doc);
      }
    }
  }
  let lwt = Date.now();
  const stored = layout
    ? documents.map((doc) => ({ ...doc, _deleted: doc._deleted ? '1' : '0', _meta: { lwt: (lwt += 0.01) }, _rev: '1-floorfloor', _attachments: {} }))
    : documents;
  const fetchMs = performance.now() - started;
  const putStarted = performance.now();
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('client-sync-floor-' + Math.random(), 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore('docs', { keyPath: 'id' });
      if (!layout) return;
      store.createIndex('[_deleted+id]', ['_deleted', 'id']);
      store.createIndex('[_meta.lwt+id]', ['_meta.lwt', 'id']);
      store.createIndex('_meta.lwt', '_meta.lwt');
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise((resolve, reject) => {
    const transaction = db.transaction('docs', 'readwrite');
    const store = transaction.objectStore('docs');
    for (const doc of stored) store.put(doc);
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
  });
  db.close();
  const putMs = performance.now() - putStarted;
  return { fetchMs, putMs, totalMs: performance.now() - started, documents: documents.length, requests };
}`;

function summarise(tasks: [number, number][], from: number, to: number): TaskSummary {
  const inside = tasks.filter(([start]) => start >= from && start < to).map(([, d]) => d);
  return {
    longestTaskMs: round(Math.max(0, ...inside)),
    longTasks: inside.filter((duration) => duration > CLIENT_SYNC_TARGETS.longTaskMs).length,
    blockingMs: round(inside.reduce((sum, duration) => sum + Math.max(0, duration - 50), 0)),
  };
}

async function throttle(context: BrowserContext, page: Page, rate: number) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/** One guest's first visit: load, scroll once, wait for the whole catalogue. */
async function appRun(
  browser: Browser,
  baseUrl: string,
  rows: number,
  cpuRate: number,
): Promise<ClientSyncRun> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const requests: string[] = [];
    const onRequest = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/sync/flights/')) requests.push(url.pathname + url.search);
    };
    context.on('request', onRequest);
    await page.addInitScript(LONG_TASKS_SCRIPT);
    await page.goto(baseUrl, { waitUntil: 'load' });
    await page.waitForSelector('html[data-app="ready"]', { timeout: 60_000 });
    // The page's own start-up is over (the catalogue waits for an engagement or 5 s).
    await page.waitForTimeout(1000);
    await throttle(context, page, cpuRate);
    const scrolledAt = (await page.evaluate('performance.now()')) as number;
    await page.mouse.move(640, 400);
    await page.mouse.wheel(0, 400);
    const arrived = (await page.evaluate(
      `(${WAIT_FOR_CATALOGUE})(${JSON.stringify({
        count: rows,
        timeoutMs: 600_000,
      })})`,
    )) as { stored: number; ready: number };
    const doneAt = Math.max(arrived.stored, arrived.ready);
    await page.waitForTimeout(3000);
    const tasks = (await page.evaluate('window.__clientSync.longTasks')) as [number, number][];
    const firstRequest = (await page.evaluate(`performance.getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/api/sync/flights/'))
      .map((entry) => entry.startTime)[0] ?? null`)) as number | null;
    context.off('request', onRequest);
    return {
      syncMs: round(doneAt - scrolledAt),
      storedMs: round(arrived.stored - scrolledAt),
      readyMs: round(arrived.ready - scrolledAt),
      firstRequestMs: firstRequest === null ? null : round(firstRequest - scrolledAt),
      ...summarise(tasks, scrolledAt, doneAt),
      after: summarise(tasks, doneAt, doneAt + 3000),
      requests: [...new Set(requests)],
    };
  } finally {
    await context.close();
  }
}

/** The floor of a run, in a fresh context at the same CPU rate. */
async function floorRun(
  browser: Browser,
  baseUrl: string,
  cpuRate: number,
  urls: string[],
  followPulls: boolean,
  layout = false,
): Promise<FloorRun> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // A page of the origin that runs no app code.
    await page.goto(`${baseUrl}/api/health`);
    await throttle(context, page, cpuRate);
    const floor = (await page.evaluate(
      `(${FLOOR_SCRIPT})(${JSON.stringify({
        urls,
        followPulls,
        header: SYNC_VERSION_HEADER,
        version: String(SYNC_PROTOCOL_VERSION),
        batch: PULL_BATCH,
        layout,
      })})`,
    )) as FloorRun;
    return {
      fetchMs: round(floor.fetchMs),
      putMs: round(floor.putMs),
      totalMs: round(floor.totalMs),
      documents: floor.documents,
      requests: floor.requests,
    };
  } finally {
    await context.close();
  }
}

export async function runClientSyncBench(options: ClientSyncOptions): Promise<ClientSyncReport> {
  const { log } = options;
  const runs = options.runs ?? 3;
  const cpuRates = options.cpuRates ?? [1, 4];
  const chromiumPath = options.chromiumPath ?? DEFAULT_CHROMIUM_PATH;
  const buildDir = await mkdtemp(path.join(os.tmpdir(), 'skyport-client-sync-'));
  const cases: ClientSyncCase[] = [];
  const coldSnapshotMs: Record<number, number | null> = {};
  let browser: Browser | undefined;
  try {
    if (!options.product) buildPwa(options.pwaRoot ?? PWA_ROOT, buildDir, log);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', ...CHROMIUM_FLAGS],
    });
    for (const flights of options.flights) {
      log(`client sync: ${flights} flights`);
      const rows = await fillCatalogue(options.databaseUrl, flights, log);
      // A server of its own per size: it builds its snapshot of this catalogue on first demand.
      const server = options.product
        ? await startShipped(options.product, options.databaseUrl, flights)
        : await startServer(options.databaseUrl, buildDir);
      try {
        coldSnapshotMs[flights] = await warmSnapshot(server.baseUrl);
        log(`  first snapshot answer (built on demand): ${coldSnapshotMs[flights] ?? '–'} ms`);
        for (const cpuRate of cpuRates) {
          const measured: ClientSyncRun[] = [];
          const floors: ClientSyncCase['floors'] = [];
          for (let run = 0; run < runs; run++) {
            const app = await appRun(browser, server.baseUrl, rows, cpuRate);
            const sameRequests = await floorRun(
              browser,
              server.baseUrl,
              cpuRate,
              app.requests,
              false,
            );
            const pulls = await floorRun(browser, server.baseUrl, cpuRate, [], true);
            if (pulls.documents < rows)
              throw new Error(`the pulls floor fetched ${pulls.documents} of ${rows} documents`);
            const layout = await floorRun(
              browser,
              server.baseUrl,
              cpuRate,
              app.requests,
              false,
              true,
            );
            measured.push(app);
            floors.push({ sameRequests, pulls, layout });
            log(
              `  ${cpuRate}× CPU, run ${run + 1}: sync ${app.syncMs} ms (stored ${app.storedMs} ms, ` +
                `ready ${app.readyMs} ms; floor ${sameRequests.totalMs} ms, ` +
                `pulls floor ${pulls.totalMs} ms, layout floor ${layout.totalMs} ms); ` +
                `longest task ${app.longestTaskMs} ms, ` +
                `${app.longTasks} over 100 ms, blocking ${app.blockingMs} ms; after: longest ` +
                `${app.after.longestTaskMs} ms; requests: ${app.requests.length}`,
            );
          }
          const syncMs = median(measured.map((run) => run.syncMs));
          const floorMs = median(floors.map((floor) => floor.sameRequests.totalMs));
          const pullsFloorMs = median(floors.map((floor) => floor.pulls.totalMs));
          const layoutFloorMs = median(floors.map((floor) => floor.layout.totalMs));
          const longestTaskMs = Math.max(...measured.map((run) => run.longestTaskMs));
          const longTasks = Math.max(...measured.map((run) => run.longTasks));
          const ratio = round(syncMs / floorMs, 2);
          cases.push({
            flights,
            cpuRate,
            runs: measured,
            floors,
            syncMs: round(syncMs),
            floorMs: round(floorMs),
            pullsFloorMs: round(pullsFloorMs),
            ratio,
            ratioToPulls: round(syncMs / pullsFloorMs, 2),
            layoutFloorMs: round(layoutFloorMs),
            ratioToLayout: round(syncMs / layoutFloorMs, 2),
            longestTaskMs,
            longTasks,
            blockingMs: round(median(measured.map((run) => run.blockingMs))),
            after: {
              longestTaskMs: Math.max(...measured.map((run) => run.after.longestTaskMs)),
              longTasks: Math.max(...measured.map((run) => run.after.longTasks)),
              blockingMs: round(median(measured.map((run) => run.after.blockingMs))),
            },
            pass: {
              ratio: ratio <= CLIENT_SYNC_TARGETS.ratio,
              longTasks: longTasks === 0,
            },
          });
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    await browser?.close();
    await rm(buildDir, { recursive: true, force: true });
  }
  return {
    targets: CLIENT_SYNC_TARGETS,
    runs,
    cpuRates,
    chromium: chromiumPath,
    coldSnapshotMs,
    cases,
    pass: cases.every((c) => c.pass.ratio && c.pass.longTasks),
  };
}

export function printClientSyncBench(report: ClientSyncReport): void {
  const s = (ms: number) => (ms / 1000).toFixed(2);
  console.log(
    `\nClient initial sync (median of ${report.runs}; targets: ≤ ${report.targets.ratio}× the floor, ` +
      `no task over ${report.targets.longTaskMs} ms)`,
  );
  const rows = report.cases.map((c) => ({
    flights: c.flights,
    cpu: `${c.cpuRate}×`,
    'sync s': s(c.syncMs),
    'floor s': s(c.floorMs),
    ratio: c.ratio,
    'pulls floor s': s(c.pullsFloorMs),
    'ratio to pulls': c.ratioToPulls,
    'layout floor s': s(c.layoutFloorMs),
    'ratio to layout': c.ratioToLayout,
    'longest task ms': c.longestTaskMs,
    'tasks >100 ms': c.longTasks,
    'blocking ms': c.blockingMs,
    'after: longest ms': c.after.longestTaskMs,
    pass: c.pass.ratio && c.pass.longTasks ? 'yes' : 'NO',
  }));
  console.table(rows);
  console.log(
    `snapshot built on demand: ${Object.entries(report.coldSnapshotMs)
      .map(([flights, ms]) => `${flights} flights ${ms ?? '–'} ms`)
      .join(', ')}`,
  );
  console.log(report.pass ? 'PASS' : 'FAIL');
}

// `tsx bench/client-sync.ts` runs it on its own, in a database of its own.
if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const { values } = parseArgs({
    options: {
      flights: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '3' },
      cpu: { type: 'string', default: '1,4' },
      json: { type: 'string' },
      'pwa-root': { type: 'string' },
    },
  });
  await withStandaloneBenchDatabase('client_sync', async (databaseUrl) => {
    const report = await runClientSyncBench({
      databaseUrl,
      flights: values.flights.split(',').map(Number),
      runs: Number(values.runs),
      cpuRates: values.cpu.split(',').map(Number),
      pwaRoot: values['pwa-root'] && path.resolve(values['pwa-root']),
      log: console.log,
    });
    printClientSyncBench(report);
    if (values.json) {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(values.json, JSON.stringify(report, null, 2));
    }
  });
}
