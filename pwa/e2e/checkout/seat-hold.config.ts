import { defineE2eConfig, desktop } from '../support/base-config.ts';
import { seatHoldServer } from './server.ts';

/**
 * The payment page's seat hold running out (issue 17), with the built PWA and a real server on a
 * fresh PostgreSQL database (e2e/support/start-server.mjs), in Debian's chromium. The server holds
 * seats for 5 seconds (SEAT_HOLD_SECONDS) and its release job runs every half second, so a test
 * watches the countdown reach zero and the seats go back on sale. Build first:
 *   pnpm --filter @skyport/pwa exec playwright test -c e2e/checkout/seat-hold.config.ts
 */
export default defineE2eConfig({
  testDir: '.',
  testMatch: 'seat-hold.spec.ts',
  outputDir: '../../test-results/seat-hold/output',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  use: desktop,
  server: {
    ...seatHoldServer,
    env: {
      PAYMENT_PROVIDER: 'test',
      SEAT_HOLD_SECONDS: '5',
      SEAT_HOLD_RELEASE_EVERY_MS: '500',
    },
  },
});
