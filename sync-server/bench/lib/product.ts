// The server under test, started as production starts it (README "Run in production"): the
// esbuild bundle (`node --enable-source-maps main.js`, lib/build.ts) in a process of its own,
// NODE_ENV=production, every setting at its shipped default (the pool is DATABASE_POOL_MAX's
// default), request logging at info on stdout into a file, the built PWA served (PUBLIC_DIR).
// Deviations, named in every report: the built-in test payment provider (production refuses it
// unless ALLOW_TEST_PAYMENTS=true, which is set), no SMTP (mail goes to the database outbox),
// HOST=127.0.0.1 and APP_ORIGIN = the local address.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { CONFIG_VARIABLES } from '../../src/config.ts';
import { freePort } from '../../src/test/free-port.ts';
import type { BenchBuild } from './build.ts';

/** The shipped default of a configuration variable (src/config.ts). */
export function configDefault<T = unknown>(name: string): T {
  const variable = CONFIG_VARIABLES.find((v) => v.name === name);
  if (!variable) throw new Error(`no configuration variable ${name}`);
  return variable.defaultValue as T;
}

/** What every report says about the servers under test. */
export function productSettings() {
  return {
    start: 'node --enable-source-maps <build>/server/main.js (esbuild bundle as scripts/build.mjs)',
    NODE_ENV: 'production',
    DATABASE_POOL_MAX: configDefault<number>('DATABASE_POOL_MAX'),
    DATABASE_SYNC_POOL_MAX: configDefault<number>('DATABASE_SYNC_POOL_MAX'),
    LOG_LEVEL: 'info (stdout and stderr to a file per server)',
    PUBLIC_DIR: 'the bench build of the PWA',
    PAYMENT_PROVIDER: 'test (ALLOW_TEST_PAYMENTS=true)',
    other: 'every other variable unset (its default); mail to the database outbox (no SMTP_URL)',
  };
}

export interface ProductServer {
  name: string;
  baseUrl: string;
  /** http://localhost:<port>, for browsers (a secure context, as the sync suite needs). */
  localhostUrl: string;
  pid: number;
  logFile: string;
  stop(): Promise<void>;
}

export interface ProductOptions {
  build: BenchBuild;
  databaseUrl: string;
  /** The static folder served (PUBLIC_DIR); `null` serves the API only. */
  publicDir: string | null;
  /** Where the server's stdout and stderr (its JSON log) go. */
  logFile: string;
  name?: string;
  /** Settings beyond the shipped defaults (say why in the report). */
  env?: Record<string, string>;
}

/** Starts the production bundle and resolves once `/api/health/ready` answers 200. */
export async function startProduct(options: ProductOptions): Promise<ProductServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Nothing of the caller's environment configures the server under test: only what is set here.
  for (const variable of CONFIG_VARIABLES) delete env[variable.name];
  Object.assign(env, {
    NODE_ENV: 'production',
    DATABASE_URL: options.databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_ORIGIN: `http://127.0.0.1:${port},http://localhost:${port}`,
    LOG_LEVEL: 'info',
    SEED_DEMO: 'never',
    PAYMENT_PROVIDER: 'test',
    ALLOW_TEST_PAYMENTS: 'true',
    ...(options.publicDir ? { PUBLIC_DIR: options.publicDir } : {}),
    ...options.env,
  });
  const fd = openSync(options.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(
      process.execPath,
      [...nodeArgs(), '--enable-source-maps', options.build.serverMain],
      {
        cwd: options.build.dir,
        env,
        stdio: ['ignore', fd, fd],
      },
    );
  } finally {
    closeSync(fd);
  }
  const name = options.name ?? 'server';
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(options.logFile)}`,
      );
    }
    try {
      if ((await fetch(`${baseUrl}/api/health/ready`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stopChild(child, 1_000);
      throw new Error(`${name} was not ready within 90 s:\n${tail(options.logFile)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name,
    baseUrl,
    localhostUrl: `http://localhost:${port}`,
    pid: child.pid!,
    logFile: options.logFile,
    stop: () => stopChild(child, configDefault<number>('SHUTDOWN_TIMEOUT_MS') + 5_000),
  };
}

/**
 * Extra Node flags for the servers under test, from BENCH_SERVER_NODE_ARGS (space-separated), e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them; Node refuses those in NODE_OPTIONS.
 */
function nodeArgs(): string[] {
  return (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
  }
}

/** SIGTERM (the server drains and exits), SIGKILL if it has not exited after `graceMs`. */
export function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
