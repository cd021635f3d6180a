import { defineE2eConfig } from '../support/base-config.ts';

/**
 * The local-first browser test (offline-sync.e2e.ts): the harness page (built into ./dist) served
 * by a real server on a fresh database, in Debian's chromium.
 *   pnpm --filter @skyport/pwa run test:local-first
 */
export default defineE2eConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  outputDir: '../../test-results/local-first',
  timeout: 90_000,
  expect: { timeout: 15_000 },
});
