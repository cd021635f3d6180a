import { defineConfig, type Project } from '@playwright/test';
import { chromiumLaunchOptions } from './support/chromium.ts';
import { desktop, phone } from './support/devices.ts';
import {
  airlinePhoneScreensServer,
  airlineServer,
  checkoutServer,
  journeysServer,
  moreJourneysServer,
  phoneScreensServer,
  seatHoldServer,
  ticketsServer,
  type ProductServer,
} from './support/servers.ts';

/**
 * Every browser suite of the PWA in one run: `npm test` (scripts/check.mjs) builds the PWA once,
 * then runs this. Each suite runs against the built PWA and a real server of its own on a fresh
 * database (support/servers.ts), in Debian's chromium. A suite's files share its server and its
 * demo accounts, so a suite is a project with one worker (its files one after the other), and
 * the suites run side by side, E2E_WORKERS (default 2) at a time.
 *   One suite:  pnpm exec playwright test -c e2e/playwright.config.ts --project checkout
 * Screenshots land in pwa/test-results/ (git-ignored).
 */
// Two: the suites keep both cores busy either way (their wall time is their CPU time), and with
// three at once (load ~22) a page could stall past a 20 s wait, a different test each run.
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);

/** The server of each project that runs against the product (not the local-first harness). */
const serverOf = new Map<string, ProductServer>();

/** A project of `server`'s suite in `device`, one file at a time. */
function suite(
  server: ProductServer,
  device: Project['use'],
  project: Omit<Project, 'use' | 'workers'>,
): Project {
  serverOf.set(project.name!, server);
  return {
    ...project,
    workers: 1,
    use: { ...device, baseURL: `http://localhost:${server.port}` },
  };
}

const projects: Project[] = [
  // Longest first: Playwright starts the projects in this order, E2E_WORKERS at a time, and a
  // project runs its files on one worker; the airline journeys (~11 of a 23-minute run) last.
  // The airline and administrator journeys; the phone project only takes the screenshots.
  suite(airlineServer, desktop, {
    name: 'airline-admin',
    testMatch: 'airline-admin.spec.ts',
    timeout: 480_000,
  }),
  // The guest and customer journeys, in two halves on servers of their own.
  suite(moreJourneysServer, desktop, {
    name: 'more-journeys',
    testMatch: [
      'theme-sync.spec.ts',
      'screens.spec.ts',
      'logout.spec.ts',
      'pending-changes.spec.ts',
      'price-drop.spec.ts',
    ],
  }),
  suite(journeysServer, desktop, {
    name: 'journeys',
    testMatch: [
      'guest.spec.ts',
      'customer.spec.ts',
      'deleted-flight.spec.ts',
      'offline.spec.ts',
      'lost-replication-record.spec.ts',
      'departure-dates.spec.ts',
    ],
  }),
  suite(airlinePhoneScreensServer, phone, {
    name: 'airline-admin-phone',
    testMatch: 'airline-admin.spec.ts',
    grep: /@screens/,
    timeout: 480_000,
  }),
  // The screenshots of every screen at phone size (at desktop size: more-journeys).
  suite(phoneScreensServer, phone, { name: 'phone-screens', testMatch: 'screens.spec.ts' }),
  suite(checkoutServer, desktop, {
    name: 'checkout',
    testMatch: 'checkout/checkout.spec.ts',
    timeout: 90_000,
  }),
  suite(seatHoldServer, desktop, {
    name: 'seat-hold',
    testMatch: 'checkout/seat-hold.spec.ts',
    timeout: 90_000,
  }),
  suite(ticketsServer, desktop, {
    name: 'tickets',
    testMatch: 'tickets/*.spec.ts',
    timeout: 120_000,
  }),
  // The local-first harness (built into local-first/dist) on a test server the spec starts.
  {
    name: 'local-first',
    testMatch: 'local-first/*.e2e.ts',
    workers: 1,
    timeout: 90_000,
  },
];

/**
 * The servers of the projects this run takes (`--project`), which support/start-servers.ts starts:
 * each costs a database and a server start.
 */
function serversOfSelectedProjects(): ProductServer[] {
  const named = process.argv.flatMap((arg, index) =>
    arg === '--project'
      ? [process.argv[index + 1]]
      : arg.startsWith('--project=')
        ? [arg.slice('--project='.length)]
        : [],
  );
  return [...serverOf.entries()]
    .filter(([name]) => named.length === 0 || named.includes(name))
    .map(([, server]) => server);
}

export default defineConfig({
  testDir: '.',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  // Journeys of many steps on a busy machine: under npm test the longest default-bound ones took
  // 52–56 s of a 60 s bound, and the airline journey 246 s of its 240 s.
  timeout: 120_000,
  // A wait for a state, not a speed: the suites at once keep both cores busy (load 15-25), and
  // a page's sync or a lazy chunk then takes longer than a quiet machine's few seconds.
  expect: { timeout: 20_000 },
  reporter: [['list']],
  outputDir: '../test-results/e2e',
  use: {
    launchOptions: chromiumLaunchOptions,
    // The failure's screenshot and each action's DOM stay; the trace's screencast of every test
    // cost a quarter of the suite's CPU (one journey alone: 45 CPU-s with it, 33 without).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    serviceWorkers: 'allow',
    // Dates and prices follow the browser's language (src/ui/format.ts); the specs read them in
    // en-US, whatever the machine's locale.
    locale: 'en-US',
  },
  // The product's servers, started side by side before the tests and stopped after them.
  globalSetup: './support/start-servers.ts',
  metadata: { servers: serversOfSelectedProjects() },
  projects,
});
