// Server instances as real child processes, for the cluster tests (*.cluster.test.ts only).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createSql, type Sql } from '../db/client.ts';
export { freePort } from '../test/free-port.ts';

/**
 * How an instance is started, in one place: the production start of the README, from the folder
 * `pnpm deploy --prod` made of the build (deploy-setup.ts), with runtime dependencies only.
 */
export function serverCommand(): { command: string; args: string[]; cwd: string } {
  return {
    command: process.execPath,
    args: ['--enable-source-maps', 'dist/main.js'],
    cwd: inject('deployDir'),
  };
}

export interface InstanceOptions {
  /** `a`, `b`: for messages. */
  name: string;
  port: number;
  databaseUrl: string;
  /** The public origin (the proxy's): email links and the CSRF check. */
  appOrigin: string;
  /** Load the demo data at start (only the first instance of a cluster). */
  seedDemo?: boolean;
  /** More environment (or `undefined` to leave a variable out). */
  env?: Record<string, string | undefined>;
}

export interface Instance {
  name: string;
  port: number;
  /** Direct address of this instance, bypassing the proxy. */
  origin: string;
  /** `127.0.0.1:<port>`, as nginx's `$upstream_addr` names it. */
  address: string;
  child: ChildProcess;
  /** Everything the process printed (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  running(): boolean;
  /** Sends `signal` and waits for the exit; SIGKILL (and a rejection) after `timeoutMs`. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | string; ms: number }>;
}

/** The environment of an instance: production settings, nothing inherited but the basics. */
export function instanceEnv(options: InstanceOptions): NodeJS.ProcessEnv {
  const inherited = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'] as const;
  const env: NodeJS.ProcessEnv = {};
  for (const key of inherited) if (process.env[key] !== undefined) env[key] = process.env[key];
  return {
    ...env,
    NODE_ENV: 'production',
    DATABASE_URL: options.databaseUrl,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    TRUST_PROXY: 'true',
    APP_ORIGIN: options.appOrigin,
    ALLOW_TEST_PAYMENTS: 'true',
    SEED_DEMO: options.seedDemo ? 'always' : 'never',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
}

/** Spawns an instance and waits until it answers ready (see `waitReady`). */
export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const { command, args, cwd } = serverCommand();
  const child = spawn(command, args, {
    cwd,
    env: instanceEnv(options),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const origin = `http://127.0.0.1:${options.port}`;
  const instance: Instance = {
    name: options.name,
    port: options.port,
    origin,
    address: `127.0.0.1:${options.port}`,
    child,
    output: () => output,
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    async stop(signal = 'SIGTERM', timeoutMs = 30_000) {
      const started = performance.now();
      if (!instance.running()) return { code: await exited, ms: 0 };
      child.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const code = await Promise.race([exited, timeout]);
      clearTimeout(timer);
      if (code === 'timeout') {
        child.kill('SIGKILL');
        await exited;
        throw new Error(
          `instance ${options.name} did not exit within ${timeoutMs} ms of ${signal}`,
        );
      }
      return { code, ms: Math.round(performance.now() - started) };
    },
  };
  try {
    await waitReady(origin, exited);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(
      `instance ${options.name} (port ${options.port}) did not become ready: ${(error as Error).message}\n${output}`,
      { cause: error },
    );
  }
  return instance;
}

/**
 * Polls `GET /api/health/ready` until it answers 200. A server without the readiness endpoint
 * (404) is polled on `GET /api/health` instead.
 */
export async function waitReady(
  origin: string,
  exited: Promise<number | string>,
  timeoutMs = 60_000,
): Promise<void> {
  let gone: number | string | undefined;
  void exited.then((code) => (gone = code));
  let url = `${origin}/api/health/ready`;
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    if (gone !== undefined) throw new Error(`exited with ${gone}`);
    if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms (${last})`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.status === 200) return;
      if (response.status === 404 && url.endsWith('/ready')) url = `${origin}/api/health`;
      last = `${url} answered ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface ClusterDatabase {
  name: string;
  url: string;
  /** A pool of the test's own for setting up data and checking the outcome. */
  sql: Sql;
  /** Closes the pool and drops this database (and only this one). */
  drop(): Promise<void>;
}

/**
 * A database of this run on DATABASE_URL's server, named `skyport_cluster_<random>`, empty: the
 * instances migrate it when they start.
 */
export async function createClusterDatabase(): Promise<ClusterDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    throw new Error(
      'DATABASE_URL is not set: the cluster tests need a PostgreSQL server (user with CREATEDB), e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres',
    );
  }
  const name = `skyport_cluster_${randomBytes(6).toString('hex')}`;
  const admin = createSql(adminUrl, { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const parsed = new URL(adminUrl);
  parsed.pathname = `/${name}`;
  const url = parsed.toString();
  const sql = createSql(url, { max: 4 });
  return {
    name,
    url,
    sql,
    async drop() {
      await sql.end({ timeout: 1 });
      const cleanup = createSql(adminUrl, { max: 1 });
      try {
        await cleanup.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/** Every instance still running is killed if the test process exits without stopping it. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
