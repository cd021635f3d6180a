import { defineE2eConfig, desktop, phone } from '../support/base-config.ts';

/**
 * The airline and administrator journeys (pwa/e2e/airline-admin.spec.ts, issue 7) against the
 * built PWA and a real server on a fresh PostgreSQL database (the shared harness,
 * e2e/support/start-server.mjs), in Debian's chromium. Build first, then:
 *   pnpm --filter @skyport/pwa exec playwright test -c e2e/airline-admin/playwright.config.ts
 * Screenshots land in pwa/test-results/airline-admin/ (git-ignored).
 */
export default defineE2eConfig({
  testDir: '..',
  testMatch: 'airline-admin.spec.ts',
  outputDir: '../../test-results/airline-admin/output',
  timeout: 240_000,
  server: {
    port: Number(process.env.E2E_AIRLINE_PORT ?? 8796),
    database: process.env.E2E_AIRLINE_DATABASE ?? 'skyport_e2e_airline',
  },
  projects: [
    { name: 'desktop', use: desktop },
    // The journeys run once (desktop); the phone project only takes the screenshots.
    { name: 'phone', use: phone, grep: /@screens/ },
  ],
});
