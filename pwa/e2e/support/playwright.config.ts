import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';

/**
 * The guest/customer journeys (pwa/e2e/*.spec.ts) against the built PWA and a real server on a
 * fresh PostgreSQL database, in Debian's chromium. Build first, then:
 *   pnpm --filter @skyport/pwa exec playwright test -c e2e/support/playwright.config.ts
 * Screenshots land in pwa/test-results/ (git-ignored).
 */
const port = Number(process.env.E2E_PORT ?? 8795);
export default defineConfig({
  testDir: '..',
  // The guest and customer journeys of issue 6 (other suites in e2e/ have their own configs).
  testMatch: [
    'guest.spec.ts',
    'customer.spec.ts',
    'deleted-flight.spec.ts',
    'offline.spec.ts',
    'theme-sync.spec.ts',
    'screens.spec.ts',
    'logout.spec.ts',
  ],
  outputDir: '../../test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: chromiumLaunchOptions,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    serviceWorkers: 'allow',
  },
  projects: [
    {
      name: 'desktop',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        channel: undefined,
      },
    },
    {
      name: 'phone',
      use: { ...devices['Pixel 7'], channel: undefined },
      // The journeys run once (desktop); the phone project takes the screenshots of every screen.
      testMatch: 'screens.spec.ts',
    },
  ],
  webServer: {
    command: `node ${new URL('./start-server.mjs', import.meta.url).pathname}`,
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { E2E_PORT: String(port) },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
