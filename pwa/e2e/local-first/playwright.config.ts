import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../support/chromium.ts';

/**
 * The local-first browser test (offline-sync.e2e.ts): the harness page (built into ./dist) served
 * by a real server on a fresh database, in Debian's chromium.
 *   pnpm --filter @skyport/pwa run test:local-first
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  outputDir: '../../test-results/local-first',
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    launchOptions: chromiumLaunchOptions,
    serviceWorkers: 'allow',
    trace: 'retain-on-failure',
  },
});
