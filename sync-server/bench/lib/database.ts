import path from 'node:path';
import postgres from 'postgres';
import { createSql, type Sql } from '../../src/db/client.ts';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';

const LOCAL_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const EMBEDDED_DIR = path.resolve(import.meta.dirname, '../../../.data/bench-pg');
const EMBEDDED_PORT = 54349;
/** Bench database names derive from this when DATABASE_URL names none (the product's own name). */
const DEFAULT_BASE_NAME = 'skyport';

/**
 * What marks a database as created by the bench (`COMMENT ON DATABASE`). The bench drops or reuses
 * a database only when it carries this mark; it never touches any other.
 */
export const BENCH_MARK = 'skyport bench';

export interface BenchServer {
  /** Where the PostgreSQL server came from, for the report. */
  source: 'DATABASE_URL' | '127.0.0.1:5432' | 'embedded';
  /** `SELECT version()` of the server. */
  version: string;
  /** URL the bench connects to for CREATE/DROP DATABASE (DATABASE_URL itself when set). */
  adminUrl: string;
  /** Bench databases are named `<baseName>_bench_<suite>`: DATABASE_URL's database name. */
  baseName: string;
  stop(): Promise<void>;
}

/**
 * Picks the PostgreSQL server to measure: DATABASE_URL when set, else the machine's server on
 * 127.0.0.1:5432 when it answers, else an embedded one (the product's default storage).
 */
export async function openBenchServer(log: (message: string) => void): Promise<BenchServer> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) {
    const name = decodeURIComponent(new URL(fromEnv).pathname.replace(/^\//, ''));
    return describe('DATABASE_URL', fromEnv, name || DEFAULT_BASE_NAME, async () => {});
  }
  if (await answers(LOCAL_SERVER_URL))
    return describe('127.0.0.1:5432', LOCAL_SERVER_URL, DEFAULT_BASE_NAME, async () => {});
  log(`no PostgreSQL on 127.0.0.1:5432; starting an embedded one in ${EMBEDDED_DIR}`);
  const embedded = await startEmbeddedPostgres(EMBEDDED_DIR, EMBEDDED_PORT, log);
  return describe('embedded', embedded.adminUrl, DEFAULT_BASE_NAME, embedded.stop);
}

async function describe(
  source: BenchServer['source'],
  adminUrl: string,
  databaseName: string,
  stop: () => Promise<void>,
): Promise<BenchServer> {
  const sql = createSql(adminUrl, { max: 1 });
  try {
    const [row] = await sql<{ version: string }[]>`SELECT version()`;
    const baseName =
      databaseName
        .toLowerCase()
        .replace(/[^a-z0-9_]/g, '_')
        .replace(/^([^a-z_])/, '_$1')
        .slice(0, 40) || DEFAULT_BASE_NAME;
    return { source, adminUrl, baseName, version: row?.version ?? 'unknown', stop };
  } finally {
    await sql.end();
  }
}

async function answers(url: string): Promise<boolean> {
  const probe = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await probe`SELECT 1`;
    return true;
  } catch {
    return false;
  } finally {
    await probe.end({ timeout: 1 }).catch(() => {});
  }
}

/** `<baseName>_bench_<suite>`, e.g. `skyport_bench_write_storm`. */
export function benchDatabaseName(server: Pick<BenchServer, 'baseName'>, suite: string): string {
  const name = `${server.baseName}_bench_${suite.replace(/[^a-z0-9]+/g, '_')}`;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`unsafe database name: ${name}`);
  return name;
}

/**
 * Holds, for the whole run, a lock named after the bench databases' base name, so that two bench
 * runs on one PostgreSQL server never drop each other's databases. Fails at once when another run
 * holds it.
 */
export async function lockBenchRun(server: BenchServer): Promise<() => Promise<void>> {
  const key = `${BENCH_MARK}:${server.baseName}`;
  const conn = postgres(server.adminUrl, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    onnotice: () => {},
  });
  const [row] = await conn<
    { locked: boolean }[]
  >`SELECT pg_try_advisory_lock(hashtext(${key})) AS locked`;
  if (!row?.locked) {
    await conn.end({ timeout: 1 });
    throw new Error(
      `another bench run is using the ${server.baseName}_bench_* databases on this server; ` +
        'wait for it, or set DATABASE_URL to another database name',
    );
  }
  return () => conn.end({ timeout: 1 });
}

interface ExistingDatabase {
  marked: boolean;
}

async function findDatabase(admin: Sql, name: string): Promise<ExistingDatabase | undefined> {
  const [row] = await admin<{ comment: string | null }[]>`
    SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = ${name}`;
  return row ? { marked: row.comment === BENCH_MARK } : undefined;
}

function notOursError(name: string): Error {
  return new Error(
    `database ${name} exists but was not created by the bench (no COMMENT '${BENCH_MARK}'): ` +
      'the bench leaves it alone. Drop or rename it yourself, or set DATABASE_URL to another database name.',
  );
}

/** Drops a bench database, only when it carries the bench's mark. */
async function dropMarked(admin: Sql, name: string): Promise<void> {
  const existing = await findDatabase(admin, name);
  if (!existing) return;
  if (!existing.marked) throw notOursError(name);
  try {
    await admin.unsafe(`DROP DATABASE ${name}`);
  } catch (error) {
    if ((error as { code?: string }).code !== '55006') throw error;
    const users = await admin<{ pid: number; application_name: string }[]>`
      SELECT pid, application_name FROM pg_stat_activity WHERE datname = ${name}`;
    throw new Error(
      `bench database ${name} is still in use (${users
        .map((u) => `pid ${u.pid} ${u.application_name || '?'}`)
        .join(', ')}): a server of an earlier run may still be running`,
      { cause: error },
    );
  }
}

export interface BenchDatabase {
  name: string;
  url: string;
  /** Whether an existing bench database was reused (`keep`), else it was created empty. */
  reused: boolean;
}

/**
 * Creates the bench database of `suite` (dropping an earlier one of the bench first), marks it as
 * the bench's, and migrates it with the SQL files of `migrationsDir` (the migrations of the server
 * build under test). With `keep`, an existing bench database is reused as it is.
 */
export async function createBenchDatabase(
  server: BenchServer,
  suite: string,
  migrationsDir: string,
  options: { keep?: boolean } = {},
): Promise<BenchDatabase> {
  const name = benchDatabaseName(server, suite);
  const url = withDatabase(server.adminUrl, name);
  const admin = createSql(server.adminUrl, { max: 1 });
  try {
    const existing = await findDatabase(admin, name);
    if (existing && !existing.marked) throw notOursError(name);
    if (existing && options.keep) return { name, url, reused: true };
    await dropMarked(admin, name);
    await admin.unsafe(`CREATE DATABASE ${name}`);
    await admin.unsafe(`COMMENT ON DATABASE ${name} IS '${BENCH_MARK}'`);
  } finally {
    await admin.end();
  }
  const sql = createSql(url, { max: 1 });
  try {
    await migrateFrom(sql, migrationsDir);
  } finally {
    await sql.end();
  }
  return { name, url, reused: false };
}

/** Drops every marked `<baseName>_bench_*` database (`--clean`); returns their names. */
export async function dropBenchDatabases(server: BenchServer): Promise<string[]> {
  const admin = createSql(server.adminUrl, { max: 1 });
  try {
    const rows = await admin<{ datname: string }[]>`
      SELECT datname FROM pg_database
      WHERE starts_with(datname, ${`${server.baseName}_bench_`})
        AND shobj_description(oid, 'pg_database') = ${BENCH_MARK}`;
    for (const row of rows) await dropMarked(admin, row.datname);
    return rows.map((row) => row.datname);
  } finally {
    await admin.end();
  }
}

/**
 * src/db/migrate.ts on the SQL of the server build being measured, which need not be the working
 * tree's (`--server-ref`): its versioned migrations in `dir`, its SQL functions in the sibling
 * `functions/` (builds before repeatable functions have none). Same lock, same bookkeeping tables,
 * so the server sees them as applied.
 */
export async function migrateFrom(sql: Sql, dir: string): Promise<string[]> {
  return migrate(sql, { migrationsDir: dir, functionsDir: path.join(dir, '../functions') });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** VACUUM ANALYZE after a bulk load, so that index-only scans and the planner see the data. */
export async function vacuumAnalyze(sql: Sql, table: string): Promise<void> {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`unsafe table name: ${table}`);
  await sql.unsafe(`VACUUM (ANALYZE) ${table}`);
}

/**
 * For a suite run on its own (`tsx bench/<suite>.ts`): the same server choice, run lock and
 * marked database as `npm run bench`, migrated with the working tree's migrations and dropped
 * afterwards; never a database the bench did not create.
 */
export async function withStandaloneBenchDatabase<T>(
  suite: string,
  run: (databaseUrl: string) => Promise<T>,
): Promise<T> {
  const server = await openBenchServer(console.log);
  const unlock = await lockBenchRun(server).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  try {
    const migrations = path.resolve(import.meta.dirname, '../../src/db/migrations');
    const db = await createBenchDatabase(server, suite, migrations);
    try {
      return await run(db.url);
    } finally {
      const admin = createSql(server.adminUrl, { max: 1 });
      await dropMarked(admin, db.name).finally(() => admin.end());
    }
  } finally {
    await unlock();
    await server.stop();
  }
}
