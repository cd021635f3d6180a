import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from '../support/chromium.ts';

/**
 * The airline and administrator journeys (pwa/e2e/airline-admin.spec.ts, issue 7) against the
 * built PWA and a real server on a fresh PostgreSQL database (the shared harness,
 * e2e/support/start-server.mjs), in Debian's chromium. Build first, then:
 *   pnpm --filter @skyport/pwa exec playwright test -c e2e/airline-admin/playwright.config.ts
 * Screenshots land in pwa/test-results/airline-admin/ (git-ignored).
 */
const port = Number(process.env.E2E_AIRLINE_PORT ?? 8796);
const database = process.env.E2E_AIRLINE_DATABASE ?? 'skyport_e2e_airline';
export default defineConfig({
  testDir: '..',
  testMatch: 'airline-admin.spec.ts',
  outputDir: '../../test-results/airline-admin/output',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 240_000,
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
    // The journeys run once (desktop); the phone project only takes the screenshots.
    { name: 'phone', use: { ...devices['Pixel 7'], channel: undefined }, grep: /@screens/ },
  ],
  webServer: {
    command: `node ${new URL('../support/start-server.mjs', import.meta.url).pathname}`,
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // E2E_PUBLIC_DIR: serve a private copy of the build (other builds of pwa/dist may run meanwhile).
    env: {
      E2E_PORT: String(port),
      E2E_DATABASE: database,
      ...(process.env.E2E_PUBLIC_DIR ? { PUBLIC_DIR: process.env.E2E_PUBLIC_DIR } : {}),
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
