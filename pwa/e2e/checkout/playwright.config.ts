import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from '../support/chromium.ts';
import { checkoutServer } from './server.ts';

/**
 * The payment page against a payment provider that does not answer in time (issue 14), with the
 * built PWA and a real server on a fresh PostgreSQL database (e2e/support/start-server.mjs), in
 * Debian's chromium. The server runs the built-in test provider with the TEST-ONLY setting
 * TEST_PAYMENT_SLOW_AUTHORIZATIONS (sync-server/src/payments/index.ts, ignored in production):
 * the first two authorisations of every checkout answer after the 1.5 s provider timeout, so the
 * server answers 503 payment_pending and only a retry with the same key completes. Build first:
 *   pnpm --filter @skyport/pwa exec playwright test -c e2e/checkout/playwright.config.ts
 */
const { port, database } = checkoutServer;

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/checkout/output',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: chromiumLaunchOptions,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    serviceWorkers: 'allow',
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    channel: undefined,
  },
  webServer: {
    command: `node ${new URL('../support/start-server.mjs', import.meta.url).pathname}`,
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // E2E_PUBLIC_DIR: serve a private copy of the build (other builds of pwa/dist may run meanwhile).
    env: {
      E2E_PORT: String(port),
      E2E_DATABASE: database,
      PAYMENT_PROVIDER: 'test',
      PAYMENT_TIMEOUT_MS: '1500',
      TEST_PAYMENT_SLOW_AUTHORIZATIONS: '2',
      ...(process.env.E2E_PUBLIC_DIR ? { PUBLIC_DIR: process.env.E2E_PUBLIC_DIR } : {}),
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
