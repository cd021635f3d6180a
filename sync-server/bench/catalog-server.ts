// The servers of the catalogue benchmark (bench/catalog.ts), each in a process of its own:
//
//   tsx bench/catalog-server.ts baseline <databaseUrl> <pool> <plansFile>
//     The bar GET /api/flights is measured against: a bare Hono handler that answers each
//     benchmarked URL with the best query for exactly that page, prepared by bench/catalog.ts
//     (`<plansFile>`, JSON): an index-only keyset read from the page's known first flight, the
//     rows by id with their JSON built by PostgreSQL, the total from the maintained counts. No
//     validation, no middleware, no logging; a URL it was not given is a 404.
//
//   tsx bench/catalog-server.ts route <databaseUrl> <pool>
//     Diagnostic: the endpoint's own route (features/catalog/routes.ts: validation, statement,
//     headers) mounted on a bare Hono app, without the application's middleware (security
//     headers, request id, metrics, request log, session, CSRF), on the same pool. Between it and
//     `full` lies what the shipped middleware costs; between it and `baseline`, what the endpoint
//     itself costs over the best query.
//
//   tsx bench/catalog-server.ts full <databaseUrl> <logFile> <publicDir>
//     The product as main.ts builds it, for runs without a production build (bench/catalog.ts
//     uses the production bundle when it is given one): createApp with every setting at its
//     shipped default (src/config.ts, NODE_ENV=production), the pool of DATABASE_POOL_MAX's
//     default, pino at info into <logFile> as main.ts writes it (asynchronous, 4 KiB at a time), the
//     PWA in <publicDir> served.
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import pino from 'pino';
import { createApp, identityDepsFromConfig } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createSql } from '../src/db/client.ts';
import { catalogRoutes } from '../src/features/catalog/routes.ts';
import {
  CATALOG_VERSION_SQL,
  PREPARED_WITHOUT_PARAMETERS,
} from '../src/features/catalog/queries.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createMetrics } from '../src/lib/metrics.ts';
import { createPaymentsFromConfig } from '../src/payments/index.ts';
import { streamLimitsFromConfig } from '../src/sync/stream-limits.ts';
import type { BaselinePlan } from './catalog.ts';
import { announceReady } from './lib/child-server.ts';

type Plan = BaselinePlan;

const [variant, databaseUrl, third, fourth] = process.argv.slice(2);
if (!['baseline', 'route', 'full'].includes(variant ?? '') || !databaseUrl) {
  console.error(
    'usage: catalog-server.ts baseline <databaseUrl> <pool> <plansFile> | route <databaseUrl> <pool> | full <databaseUrl> <logFile> <publicDir>',
  );
  process.exit(2);
}

/** Names this server's connections in pg_stat_activity, so that the bench can find them. */
const applicationName = `catalog-bench-${variant}-${process.pid}`;

function baselineApp() {
  const sql = createSql(databaseUrl!, { max: Number(third), applicationName });
  const plans = new Map<string, Plan>();
  for (const plan of JSON.parse(readFileSync(fourth!, 'utf8')) as Plan[])
    plans.set(plan.path, plan);
  const app = new Hono().get('/api/flights', async (c) => {
    const url = c.req.url;
    const plan = plans.get(url.slice(url.indexOf('/api/')));
    if (!plan) return c.notFound();
    if (plan.revalidate) {
      // The endpoint's version statement (features/catalog/queries.ts), nothing around it,
      // prepared (postgres.js would send it unprepared, as a simple query, by default).
      const [row] = await sql.unsafe(CATALOG_VERSION_SQL, [], PREPARED_WITHOUT_PARAMETERS);
      if (c.req.header('if-none-match') === `"c2-${row!.state}"`) return c.body(null, 304);
    }
    const [row] = (await sql.unsafe(plan.text, plan.values as never[], {
      prepare: true,
    })) as unknown as { total: number; items: string | null }[];
    const { total, items } = row!;
    return c.body(
      `{"items":[${items ?? ''}],"page":${plan.page},"pageSize":${plan.pageSize},` +
        `"total":${total},"pageCount":${Math.ceil(total / plan.pageSize)},"originNotFound":${plan.originNotFound}}`,
      200,
      { 'Content-Type': 'application/json' },
    );
  });
  return { app, close: () => sql.end({ timeout: 1 }) };
}

function routeApp() {
  const sql = createSql(databaseUrl!, { max: Number(third), applicationName });
  const app = new Hono().route('/api', catalogRoutes({ sql }));
  return { app, close: () => sql.end({ timeout: 1 }) };
}

function fullApp() {
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'info',
    // As lib/product.ts starts the bundle: the test payment provider, a local public origin.
    ALLOW_TEST_PAYMENTS: 'true',
    APP_ORIGIN: 'http://127.0.0.1',
    PUBLIC_DIR: fourth,
  });
  const sql = createSql(databaseUrl!, { max: config.DATABASE_POOL_MAX, applicationName });
  // As src/lib/logger.ts writes stdout: asynchronously, 4 KiB at a time and at least every second.
  const destination = pino.destination({
    dest: third ?? '/dev/null',
    sync: false,
    minLength: 4096,
    periodicFlush: 1000,
  });
  const app = createApp(
    {
      sql,
      logger: createLogger(config.LOG_LEVEL, destination),
      ...identityDepsFromConfig(config, sql),
      payments: createPaymentsFromConfig(config),
      streams: streamLimitsFromConfig(config),
      metrics: createMetrics({
        sql,
        applicationName,
        poolMax: config.DATABASE_POOL_MAX,
        processMetrics: true,
      }),
    },
    { publicDir: fourth },
  );
  return {
    app,
    close: async () => {
      try {
        destination.flushSync();
      } catch {
        // Nothing written yet.
      }
      await sql.end({ timeout: 1 });
    },
  };
}

const { app, close } =
  variant === 'baseline' ? baselineApp() : variant === 'route' ? routeApp() : fullApp();
// `/__bench/process`: this process's pid and its connections' application_name, for the bench's
// CPU accounting (bench/catalog.ts); every other request goes to the app.
const identity = JSON.stringify({ pid: process.pid, applicationName });
const server = serve(
  {
    fetch: (request: Request) =>
      request.url.endsWith('/__bench/process')
        ? new Response(identity, { headers: { 'Content-Type': 'application/json' } })
        : app.fetch(request),
    port: 0,
    hostname: '127.0.0.1',
  },
  (info) => announceReady(info.port),
);

process.on('SIGTERM', () => {
  server.close();
  void close().finally(() => process.exit(0));
});
