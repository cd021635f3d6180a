import path from 'node:path';
import postgres from 'postgres';
import { createSql, type Sql } from '../../src/db/client.ts';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';

const LOCAL_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const EMBEDDED_DIR = path.resolve(import.meta.dirname, '../../../.data/bench-pg');
const EMBEDDED_PORT = 54349;

export interface BenchServer {
  /** Where the PostgreSQL server came from, for the report. */
  source: 'DATABASE_URL' | '127.0.0.1:5432' | 'embedded';
  /** `SELECT version()` of the server. */
  version: string;
  /** URL of the server's maintenance database. */
  adminUrl: string;
  stop(): Promise<void>;
}

/**
 * Picks the PostgreSQL server to measure: DATABASE_URL when set, else the machine's server on
 * 127.0.0.1:5432 when it answers, else an embedded one (the product's default storage).
 */
export async function openBenchServer(log: (message: string) => void): Promise<BenchServer> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return describe('DATABASE_URL', fromEnv, async () => {});
  if (await answers(LOCAL_SERVER_URL))
    return describe('127.0.0.1:5432', LOCAL_SERVER_URL, async () => {});
  log(`no PostgreSQL on 127.0.0.1:5432; starting an embedded one in ${EMBEDDED_DIR}`);
  const embedded = await startEmbeddedPostgres(EMBEDDED_DIR, EMBEDDED_PORT, log);
  return describe('embedded', embedded.adminUrl, embedded.stop);
}

async function describe(
  source: BenchServer['source'],
  adminUrl: string,
  stop: () => Promise<void>,
) {
  const sql = createSql(adminUrl, { max: 1 });
  try {
    const [row] = await sql<{ version: string }[]>`SELECT version()`;
    return { source, adminUrl, version: row?.version ?? 'unknown', stop } satisfies BenchServer;
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

/** Drops and re-creates database `name` on the server, migrates it, and returns its URL. */
export async function recreateDatabase(server: BenchServer, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name: ${name}`);
  const admin = createSql(server.adminUrl, { max: 1 });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(server.adminUrl, name);
  const sql = createSql(url, { max: 1 });
  try {
    await migrate(sql);
  } finally {
    await sql.end();
  }
  return url;
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
