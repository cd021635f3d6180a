import type { TestProject } from 'vitest/node';
import { startTestPostgres } from './test-postgres.ts';

/**
 * Runs once per test run of the server: picks the PostgreSQL server (DATABASE_URL, else an
 * embedded one) and builds this run's migrated template (test-postgres.ts); the test files each
 * clone their own database from it (test/database.ts).
 */
export default async function setup(project: TestProject) {
  const postgres = await startTestPostgres({ dir: '../.data/test-pg', port: 54339 });
  project.provide('adminDatabaseUrl', postgres.adminUrl);
  project.provide('testRun', postgres.run);
  return () => postgres.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    testRun: string;
  }
}
