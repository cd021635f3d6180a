import { defineE2eConfig, desktop } from '../support/base-config.ts';
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
export default defineE2eConfig({
  testDir: '.',
  testMatch: 'checkout.spec.ts',
  outputDir: '../../test-results/checkout/output',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  use: desktop,
  server: {
    ...checkoutServer,
    env: {
      PAYMENT_PROVIDER: 'test',
      PAYMENT_TIMEOUT_MS: '1500',
      TEST_PAYMENT_SLOW_AUTHORIZATIONS: '2',
    },
  },
});
