import { startTestPostgres } from './test-postgres.ts';

/**
 * The global setup of the PWA's unit tests (pwa/vitest.config.ts names this file), whose tests
 * start disposable servers (sync/test-server.ts): one PostgreSQL and one migrated template for
 * the whole run, so that each server clones its database from the template instead of starting a
 * PostgreSQL and running every migration of its own. The servers inherit the two settings below
 * through the environment (the test workers start after this).
 */
export default async function setup() {
  const postgres = await startTestPostgres({ dir: '../.data/test-servers-pg', port: 54359 });
  process.env.DATABASE_URL = postgres.adminUrl;
  process.env.TEST_POSTGRES_RUN = postgres.run;
  return () => postgres.stop();
}
