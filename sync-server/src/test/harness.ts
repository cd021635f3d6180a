// The server tests' one harness (imported by *.test.ts and the test helpers only):
//
//   const { sql, app, actors } = await createTestHarness({ actors: true });
//   await app.request('/api/cart', jsonRequest('PUT', { lines }, actors.customer.headers()));
//
// A database of the test file's own (test/database.ts), the app as production builds it on that
// database, and, when asked, one signed-in actor of each kind (test/actors.ts).
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, expect } from 'vitest';
import { createApp, type AppDeps, type InstanceRole } from '../app.ts';
import { createSql, type Sql } from '../db/client.ts';
import { BackgroundTasks } from '../lib/background-tasks.ts';
import { createLogger } from '../lib/logger.ts';
import { createTestPayments } from '../payments/index.ts';
import { createActors, type Actors } from './actors.ts';
import { createTestDatabase } from './database.ts';

// Tests that need a database or a port and no app take them from here too.
export { createTestDatabase } from './database.ts';
export { freePort } from './free-port.ts';

/**
 * What a test may set of the app's dependencies (all but the database), the PWA's folder and the
 * instance's role.
 */
export type TestAppOptions = Partial<Omit<AppDeps, 'sql'>> & {
  publicDir?: string;
  role?: InstanceRole;
};

/**
 * The app as production builds it on `sql`, with the background queue and the payments the test
 * can reach: the test payment provider (a call slower than 2 s counts as unanswered) and a
 * trusted proxy, so that a test picks its client address with `X-Forwarded-For` (`randomIp()`).
 * Logs are silent unless TEST_LOG names a level.
 */
export function createTestApp(sql: Sql, options: TestAppOptions = {}) {
  const { publicDir, role, ...deps } = options;
  const background = deps.background ?? new BackgroundTasks();
  const payments = deps.payments ?? createTestPayments({ timeoutMs: 2_000 });
  const app = createApp(
    {
      logger: createLogger(process.env.TEST_LOG ?? 'silent'),
      ...deps,
      sql,
      background,
      payments,
      identity: { trustProxy: true, ...deps.identity },
    },
    { publicDir, role },
  );
  return { app, background, payments };
}

export type TestApp = ReturnType<typeof createTestApp>['app'];

/** An instance of the app served over HTTP (for what `app.request()` cannot show: sockets, streams). */
export interface TestInstance {
  /** The instance's own pool on the test database. */
  sql: Sql;
  server: ServerType;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  background: BackgroundTasks;
}

export interface TestHarness {
  sql: Sql;
  /** The test database's URL, for pools and processes of the test's own. */
  url: string;
  app: TestApp;
  background: BackgroundTasks;
  payments: ReturnType<typeof createTestApp>['payments'];
  /**
   * Serves the app on a pool of its own (`poolMax` connections, default 4) on a free port; it
   * is closed after the file's tests. Several instances on one database are how tests show what
   * crosses instances.
   */
  startInstance(options?: TestAppOptions & { poolMax?: number }): Promise<TestInstance>;
}

/**
 * A database of the calling test file's own with the app on it (`createTestApp`), and with
 * `actors: true` one signed-in actor of each kind (`createActors`).
 */
export async function createTestHarness(
  options: TestAppOptions & { actors: true },
): Promise<TestHarness & { actors: Actors }>;
export async function createTestHarness(
  options?: TestAppOptions & { actors?: false },
): Promise<TestHarness>;
export async function createTestHarness(
  options: TestAppOptions & { actors?: boolean } = {},
): Promise<TestHarness & { actors?: Actors }> {
  const { actors: withActors, ...appOptions } = options;
  const { sql, url } = await createTestDatabase();
  const instances: TestInstance[] = [];
  afterAll(async () => {
    for (const instance of instances) {
      (instance.server as Server).closeAllConnections();
      instance.server.close();
      await instance.sql.end({ timeout: 1 });
    }
  });
  async function startInstance({
    poolMax = 4,
    ...instanceOptions
  }: TestAppOptions & { poolMax?: number } = {}): Promise<TestInstance> {
    const pool = createSql(url, { max: poolMax });
    const { app, background } = createTestApp(pool, instanceOptions);
    const server = await new Promise<ServerType>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(started),
      );
    });
    const { port } = server.address() as AddressInfo;
    const instance = { sql: pool, server, origin: `http://127.0.0.1:${port}`, background };
    instances.push(instance);
    return instance;
  }
  return {
    sql,
    url,
    ...createTestApp(sql, appOptions),
    startInstance,
    ...(withActors ? { actors: await createActors(sql) } : {}),
  };
}

/** Options of a request with a JSON body (a string body is sent as it is, e.g. malformed JSON). */
export function jsonRequest(
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
): RequestInit {
  return {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** A response's JSON body, read field by field by the assertions (which check its shape). */
export async function bodyOf(response: Response | Promise<Response>) {
  return JSON.parse(await (await response).text());
}

/** The body of an error answer (app.ts `onError`): a code, its message, the request's id. */
export function errorBody(code: string, message: string) {
  return { code, message, requestId: expect.any(String) };
}

/** A fresh client address per call, so that rate limits of one test never touch another. */
export function randomIp(): string {
  const [a = 1, b = 1, c = 1] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}
