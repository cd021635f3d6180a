import { randomBytes } from 'node:crypto';
import { createSql, type Sql } from '../db/client.ts';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { migrate } from '../db/migrate.ts';

/** Every test database is named `skyport_t_<run>_…`; a run's id starts with its start time. */
const PREFIX = 'skyport_t_';
/** Databases of runs older than this are leftovers of an interrupted run and are dropped. */
const STALE_AFTER_MS = 2 * 60 * 60 * 1000;

export interface TestPostgres {
  /** The server's maintenance database (`postgres`): where test databases are created. */
  adminUrl: string;
  /** This run's prefix: its template is `<run>_template`, its databases `<run>_…`. */
  run: string;
  /** Drops this run's databases and stops the embedded server, if one was started. */
  stop(): Promise<void>;
}

/**
 * The PostgreSQL server of a test run (DATABASE_URL, else an embedded one in `embedded.dir`) with
 * a freshly migrated template database, from which each test file or test server clones its own
 * (`CREATE DATABASE … TEMPLATE`, tens of milliseconds instead of running every migration).
 * Several runs can share one server without touching each other.
 */
export async function startTestPostgres(embedded: {
  dir: string;
  port: number;
}): Promise<TestPostgres> {
  const cluster = process.env.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres(embedded.dir, embedded.port);
  const adminUrl = process.env.DATABASE_URL ?? cluster!.adminUrl;
  const run = `${PREFIX}${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = createSql(adminUrl, { max: 1 });
  await dropStaleDatabases(admin);
  await admin.unsafe(`CREATE DATABASE ${run}_template`);
  const templateSql = createSql(withDatabase(adminUrl, `${run}_template`), { max: 1 });
  await migrate(templateSql);
  await templateSql.end();
  await admin.end();
  return {
    adminUrl,
    run,
    async stop() {
      const cleanup = createSql(adminUrl, { max: 1 });
      await dropDatabases(cleanup, (name) => name.startsWith(`${run}_`));
      await cleanup.end();
      await cluster?.stop();
    },
  };
}

/** Creates a database of the run, cloned from its migrated template; returns its name. */
export async function cloneTemplate(admin: Sql, run: string): Promise<string> {
  const name = `${run}_${randomBytes(6).toString('hex')}`;
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${run}_template`);
  return name;
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
