import { defineE2eConfig, desktop } from '../support/base-config.ts';
import { ticketsServer } from './server.ts';

/**
 * Signed e-tickets (issue 17) in Debian's chromium, with the built PWA and a real server on a
 * fresh PostgreSQL database (e2e/support/start-server.mjs): a customer buys and sees the ticket's
 * QR code in My Orders; a second browser profile that opened /verify-ticket once verifies it
 * offline. Screenshots (phone, both themes) land in pwa/test-results/tickets/. Build first:
 *   pnpm --filter @skyport/pwa exec playwright test -c e2e/tickets/playwright.config.ts
 */
export default defineE2eConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/tickets/output',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: desktop,
  server: ticketsServer,
});
