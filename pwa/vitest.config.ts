import { defineConfig } from 'vitest/config';

/**
 * Unit tests of the PWA. Not vite.config.ts: the app build's plugins (PWA, Tailwind) have no
 * part in a test. Tests of the local database use fake-indexeddb; the sync tests start a real
 * server (sync-server/src/sync/test-server.ts) on a fresh PostgreSQL database, cloned from the
 * run's migrated template (the global setup, a file of the server's test harness).
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    globalSetup: ['../sync-server/src/test/test-servers-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
