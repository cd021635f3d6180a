import { afterAll, inject } from 'vitest';
import { createSql, type Sql } from '../db/client.ts';
import { cloneTemplate, withDatabase } from './test-postgres.ts';

export interface TestDatabase {
  sql: Sql;
  url: string;
}

/**
 * Gives the calling test file a database of its own, cloned from the migrated template
 * (`CREATE DATABASE … TEMPLATE`, tens of milliseconds), dropped after the file's tests.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const run = inject('testRun');
  const admin = createSql(adminUrl, { max: 1 });
  const name = await cloneTemplate(admin, run);
  const url = withDatabase(adminUrl, name);
  const sql = createSql(url);
  afterAll(async () => {
    await sql.end({ timeout: 1 });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  return { sql, url };
}
