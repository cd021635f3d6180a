import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { createSql, type Sql } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.ts';

/** Every test database is named `skyport_t_<run>_…`; a run's id starts with its start time. */
const PREFIX = 'skyport_t_';
/** Databases of runs older than this are leftovers of an interrupted run and are dropped. */
const STALE_AFTER_MS = 2 * 60 * 60 * 1000;

/**
 * Runs once per test run: picks the PostgreSQL server (DATABASE_URL, else an embedded one),
 * builds a freshly migrated template database for this run, and hands the server URL and the
 * run's prefix to the test files, which each clone their own database from the template
 * (see test/database.ts). Several runs can share one server without touching each other.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    embedded = await startEmbeddedPostgres('../.data/test-pg', 54339);
    adminUrl = embedded.adminUrl;
  }
  const run = `${PREFIX}${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const template = `${run}_template`;
  const admin = createSql(adminUrl, { max: 1 });
  await dropStaleDatabases(admin);
  await admin.unsafe(`CREATE DATABASE ${template}`);
  const templateSql = createSql(withDatabase(adminUrl, template), { max: 1 });
  await migrate(templateSql);
  await templateSql.end();
  await admin.end();
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('testRun', run);

  return async () => {
    const cleanup = createSql(adminUrl, { max: 1 });
    await dropDatabases(cleanup, (name) => name.startsWith(`${run}_`));
    await cleanup.end();
    await embedded?.stop();
  };
}

async function dropStaleDatabases(admin: Sql) {
  const now = Date.now();
  await dropDatabases(admin, (name) => {
    const started = parseInt(name.slice(PREFIX.length).split('_')[0] ?? '', 36);
    return Number.isFinite(started) && now - started > STALE_AFTER_MS;
  });
}

async function dropDatabases(admin: Sql, shouldDrop: (name: string) => boolean) {
  const rows = await admin<{ datname: string }[]>`
    SELECT datname FROM pg_database WHERE datname LIKE ${PREFIX + '%'}`;
  for (const { datname } of rows) {
    if (shouldDrop(datname))
      await admin.unsafe(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    testRun: string;
  }
}
