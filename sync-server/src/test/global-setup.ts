import type { TestProject } from 'vitest/node';
import { createSql } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.ts';

export const TEMPLATE_DATABASE = 'skyport_test_template';

/**
 * Runs once per test run: picks the PostgreSQL server (DATABASE_URL, else an embedded one),
 * builds a freshly migrated template database, and hands its server URL to the test files,
 * which each clone their own database from the template (see test/database.ts).
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    embedded = await startEmbeddedPostgres('../.data/test-pg', 54339);
    adminUrl = embedded.adminUrl;
  }
  const admin = createSql(adminUrl, { max: 1 });
  await dropTestDatabases(admin);
  await admin.unsafe(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  const template = createSql(withDatabase(adminUrl, TEMPLATE_DATABASE), { max: 1 });
  await migrate(template);
  await template.end();
  await admin.end();
  project.provide('adminDatabaseUrl', adminUrl);

  return async () => {
    const cleanup = createSql(adminUrl, { max: 1 });
    await dropTestDatabases(cleanup);
    await cleanup.end();
    await embedded?.stop();
  };
}

/** Leftovers of an earlier, interrupted run go first. */
async function dropTestDatabases(admin: ReturnType<typeof createSql>) {
  const rows = await admin<{ datname: string }[]>`
    SELECT datname FROM pg_database WHERE datname LIKE 'skyport_test_%'`;
  for (const { datname } of rows) await admin.unsafe(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}
