import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { createSql, type Sql } from '../db/client.ts';
import { withDatabase } from './global-setup.ts';

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
  const name = `${run}_${randomBytes(6).toString('hex')}`;
  const admin = createSql(adminUrl, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${run}_template`);
  const url = withDatabase(adminUrl, name);
  const sql = createSql(url);
  afterAll(async () => {
    await sql.end({ timeout: 1 });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  return { sql, url };
}
