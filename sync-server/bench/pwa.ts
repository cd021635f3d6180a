// The PWA's front-end budget (issue 6), measured on the built app served by the real server:
//   1. the gzipped size of the JavaScript the home page loads before it is interactive
//      (target < 180 KB), in Debian's chromium through playwright-core;
//   2. a Lighthouse 12.2.3 run of the home page with its default mobile preset: performance and
//      accessibility scores (targets 90 and 95).
// The built app is the bench's own PWA build (lib/build.ts, never pwa/dist), served by the
// product (lib/product.ts) on the bench's `pwa` database with the demo data (SEED_DEMO=always).
// Call `runPwaBench({ server, build, logDir, log })` from bench/run.ts.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { BenchBuild } from './lib/build.ts';
import { CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH } from './lib/chromium.ts';
import { createBenchDatabase, type BenchServer } from './lib/database.ts';
import { startProduct } from './lib/product.ts';
import { limit, type Measurement } from './lib/report.ts';

const SERVER_ROOT = path.resolve(import.meta.dirname, '..');
/** Targets of issue 6. */
export const PWA_TARGETS = {
  homeInitialJsKb: 180,
  lighthousePerformance: 90,
  lighthouseAccessibility: 95,
} as const;

export interface PwaBenchOptions {
  server: BenchServer;
  build: BenchBuild;
  /** Folder for the server's log. */
  logDir: string;
  log: (message: string) => void;
  /** Debian's chromium by default. */
  chromiumPath?: string;
  /** Lighthouse runs; the median score is reported (default 3). */
  lighthouseRuns?: number;
}

export interface PwaBenchReport {
  homeInitialJs: {
    /** Scripts the page started fetching before the first flight card was in it. */
    files: { url: string; bytes: number; gzipBytes: number }[];
    bytes: number;
    gzipBytes: number;
    gzipKb: number;
    /** Time from navigation start until the first flight card is in the page (ms). */
    interactiveMs: number;
    targetKb: number;
    pass: boolean;
  };
  lighthouse: {
    runs: LighthouseRun[];
    performance: number;
    accessibility: number;
    targets: { performance: number; accessibility: number };
    pass: boolean;
  } | null;
}

/** JavaScript the home page needs before a visitor can use it: a cold first visit, no cache. */
export async function measureHomeInitialJs(
  baseUrl: string,
  chromiumPath: string,
): Promise<PwaBenchReport['homeInitialJs']> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: CHROMIUM_FLAGS,
  });
  try {
    // A phone-sized first visit, without the service worker (it would fetch the whole precache).
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    const scripts = new Map<string, Promise<Buffer | null>>();
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.set(
        response.url(),
        response.body().catch(() => null),
      );
    });
    // The moment the first flight card is in the page, taken by the page itself: what the page
    // starts fetching after that (the local database, opened once the first page shows) does
    // not count, however quickly its response arrives.
    // (Page scripts as text: this package is type-checked without the DOM library.)
    await page.addInitScript(`new MutationObserver((_, observer) => {
      if (!document.querySelector('[data-testid="flight-card"]')) return;
      window.firstCardAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });`);
    await page.goto(baseUrl, { waitUntil: 'commit' });
    await page.getByTestId('flight-card').first().waitFor({ state: 'visible', timeout: 30_000 });
    const { interactiveMs, fetchedBefore } = (await page.evaluate(`({
      interactiveMs: Math.round(window.firstCardAt),
      fetchedBefore: performance.getEntriesByType('resource')
        .filter((entry) => entry.startTime <= window.firstCardAt)
        .map((entry) => entry.name),
    })`)) as { interactiveMs: number; fetchedBefore: string[] };
    const files: { url: string; bytes: number; gzipBytes: number }[] = [];
    for (const [url, body] of scripts) {
      if (!fetchedBefore.includes(url)) continue;
      const buffer = await body;
      if (!buffer) continue;
      files.push({
        url: new URL(url).pathname,
        bytes: buffer.length,
        gzipBytes: gzipSync(buffer, { level: 9 }).length,
      });
    }
    files.sort((a, b) => b.gzipBytes - a.gzipBytes);
    const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
    const gzipBytes = files.reduce((sum, file) => sum + file.gzipBytes, 0);
    const gzipKb = Math.round((gzipBytes / 1024) * 10) / 10;
    await context.close();
    return {
      files,
      bytes,
      gzipBytes,
      gzipKb,
      interactiveMs,
      targetKb: PWA_TARGETS.homeInitialJsKb,
      pass: gzipKb < PWA_TARGETS.homeInitialJsKb,
    };
  } finally {
    await browser.close();
  }
}

interface LighthouseRun {
  performance: number;
  accessibility: number;
  metricsMs: Record<
    | 'firstContentfulPaint'
    | 'largestContentfulPaint'
    | 'speedIndex'
    | 'totalBlockingTime'
    | 'interactive',
    number
  >;
  cumulativeLayoutShift: number;
}

/** One Lighthouse run of `url` with its default (mobile) settings, through its CLI. */
async function lighthouseOnce(url: string, chromiumPath: string): Promise<LighthouseRun> {
  const bin = path.join(SERVER_ROOT, 'node_modules/.bin/lighthouse');
  const args = [
    url,
    '--only-categories=performance,accessibility',
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    `--chrome-flags=${['--headless=new', ...CHROMIUM_FLAGS].join(' ')}`,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(bin, args, {
      env: { ...process.env, CHROME_PATH: chromiumPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`lighthouse exited with ${code}: ${stderr.slice(-2000)}`)),
    );
  });
  const report = JSON.parse(output) as {
    categories: Record<string, { score: number | null }>;
    audits: Record<string, { numericValue?: number }>;
  };
  const score = (name: string) => Math.round((report.categories[name]?.score ?? 0) * 100);
  const metric = (audit: string, digits = 0) =>
    Number((report.audits[audit]?.numericValue ?? NaN).toFixed(digits));
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    // The simulated (mobile) metrics behind the performance score, to see what moves it.
    metricsMs: {
      firstContentfulPaint: metric('first-contentful-paint'),
      largestContentfulPaint: metric('largest-contentful-paint'),
      speedIndex: metric('speed-index'),
      totalBlockingTime: metric('total-blocking-time'),
      interactive: metric('interactive'),
    },
    cumulativeLayoutShift: metric('cumulative-layout-shift', 3),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Runs both PWA measurements against a fresh database with the demo data. */
export async function runPwaBench(options: PwaBenchOptions): Promise<PwaBenchReport> {
  const { server, log } = options;
  const chromiumPath = options.chromiumPath ?? DEFAULT_CHROMIUM_PATH;
  if (!existsSync(chromiumPath))
    throw new Error(`no chromium at ${chromiumPath} (apt-get install chromium)`);
  const publicDir = options.build.pwaDir();
  const db = await createBenchDatabase(server, 'pwa', options.build.migrationsDir);
  const product = await startProduct({
    build: options.build,
    databaseUrl: db.url,
    publicDir,
    logFile: path.join(options.logDir, 'pwa-server.log'),
    name: 'pwa server',
    // The home page needs flights to show: the demo catalogue.
    env: { SEED_DEMO: 'always' },
  });
  const baseUrl = product.localhostUrl;
  try {
    log(`pwa: home page initial JavaScript (${baseUrl}) …`);
    const homeInitialJs = await measureHomeInitialJs(baseUrl, chromiumPath);
    log(
      `  ${homeInitialJs.gzipKb} KB gzipped in ${homeInitialJs.files.length} scripts (target < ${PWA_TARGETS.homeInitialJsKb} KB)`,
    );

    let lighthouse: PwaBenchReport['lighthouse'] = null;
    const runs: LighthouseRun[] = [];
    try {
      for (let run = 0; run < (options.lighthouseRuns ?? 3); run++)
        runs.push(await lighthouseOnce(`${baseUrl}/`, chromiumPath));
      const performance = median(runs.map((r) => r.performance));
      const accessibility = median(runs.map((r) => r.accessibility));
      lighthouse = {
        runs,
        performance,
        accessibility,
        targets: {
          performance: PWA_TARGETS.lighthousePerformance,
          accessibility: PWA_TARGETS.lighthouseAccessibility,
        },
        pass:
          performance >= PWA_TARGETS.lighthousePerformance &&
          accessibility >= PWA_TARGETS.lighthouseAccessibility,
      };
      log(
        `  lighthouse (mobile, median of ${runs.length}): performance ${performance}, accessibility ${accessibility}`,
      );
    } catch (error) {
      log(`  lighthouse failed: ${(error as Error).message}`);
    }
    return { homeInitialJs, lighthouse };
  } finally {
    await product.stop();
  }
}

/** The report's figures beside their targets, for the run summary. */
export function pwaMeasurements(report: PwaBenchReport): Measurement[] {
  const measurements: Measurement[] = [
    {
      suite: 'pwa',
      name: 'home initial JS (gzip)',
      value: report.homeInitialJs.gzipKb,
      unit: 'KB',
      limit: limit(report.homeInitialJs.gzipKb, '<', PWA_TARGETS.homeInitialJsKb),
    },
  ];
  if (report.lighthouse) {
    measurements.push(
      {
        suite: 'pwa',
        name: 'Lighthouse performance (mobile)',
        value: report.lighthouse.performance,
        unit: '',
        limit: limit(report.lighthouse.performance, '>=', PWA_TARGETS.lighthousePerformance),
      },
      {
        suite: 'pwa',
        name: 'Lighthouse accessibility',
        value: report.lighthouse.accessibility,
        unit: '',
        limit: limit(report.lighthouse.accessibility, '>=', PWA_TARGETS.lighthouseAccessibility),
      },
    );
  }
  return measurements;
}
