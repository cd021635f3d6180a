import { defineE2eConfig, desktop, phone } from './base-config.ts';

/**
 * The guest/customer journeys (pwa/e2e/*.spec.ts) against the built PWA and a real server on a
 * fresh PostgreSQL database, in Debian's chromium. Build first, then:
 *   pnpm --filter @skyport/pwa exec playwright test -c e2e/support/playwright.config.ts
 * Screenshots land in pwa/test-results/ (git-ignored).
 */
export default defineE2eConfig({
  testDir: '..',
  // The guest and customer journeys of issue 6 (other suites in e2e/ have their own configs).
  testMatch: [
    'guest.spec.ts',
    'customer.spec.ts',
    'deleted-flight.spec.ts',
    'offline.spec.ts',
    'lost-replication-record.spec.ts',
    'theme-sync.spec.ts',
    'screens.spec.ts',
    'logout.spec.ts',
    'pending-changes.spec.ts',
    'price-drop.spec.ts',
    'departure-dates.spec.ts',
  ],
  outputDir: '../../test-results/e2e',
  timeout: 60_000,
  server: { port: Number(process.env.E2E_PORT ?? 8795) },
  projects: [
    { name: 'desktop', use: desktop },
    // The journeys run once (desktop); the phone project takes the screenshots of every screen.
    { name: 'phone', use: phone, testMatch: 'screens.spec.ts' },
  ],
});
