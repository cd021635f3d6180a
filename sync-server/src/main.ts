// The only module with side effects: read config, open the database, serve, and shut down cleanly.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApp, identityDepsFromConfig } from './app.ts';
import { ConfigError, holdSettingsFromConfig, loadConfig } from './config.ts';
import { createSql } from './db/client.ts';
import { startEmbeddedPostgres } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';
import { DEMO_ACCOUNTS, hasAnyUsers, seedDemoData } from './db/seed/demo.ts';
import { shutDownGracefully, trackRequests } from './lib/graceful-shutdown.ts';
import { Lifecycle } from './lib/lifecycle.ts';
import { chooseLogFormat, createStdoutLogger } from './lib/logger.ts';
import { createJobQueue } from './lib/job-queue.ts';
import { createMetrics } from './lib/metrics.ts';
import { createPaymentsFromConfig } from './payments/index.ts';
import { createTicketService, startTicketBackfill } from './features/tickets/tickets.ts';
import { streamLimitsFromConfig } from './sync/stream-limits.ts';

/** In the repository, src/ or dist/ sits one level below sync-server/, two below the root. */
const repoRoot = path.resolve(import.meta.dirname, '../..');

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  // Every problem at once, readable, and no stack trace: the fix is in the environment.
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
// Readable lines on a developer's terminal (npm start runs this file from source), JSON elsewhere.
const logFormat = chooseLogFormat({
  setting: config.LOG_FORMAT,
  nodeEnv: config.NODE_ENV,
  fromSource: import.meta.url.endsWith('.ts'),
  terminal: process.stdout.isTTY === true,
});
const logger = await createStdoutLogger(config.LOG_LEVEL, logFormat);
const lifecycle = new Lifecycle();

// Serve from the start: liveness answers while migrations run, readiness says "starting" and
// every other request gets 503, until the app is mounted (`handler` below).
const booting = new Hono()
  .get('/api/health/live', (c) => c.json({ status: 'ok' }))
  .all('*', (c) => {
    c.header('Retry-After', '5');
    return c.json({ code: 'service_unavailable', status: lifecycle.state }, 503);
  });
let handler: (request: Request, env: unknown) => Response | Promise<Response> = booting.fetch;
const server = serve(
  { fetch: (request, env) => handler(request, env), port: config.PORT, hostname: config.HOST },
  (info) => logger.info({ port: info.port }, 'listening'),
) as Server;
const requests = trackRequests(server);

let databaseUrl = config.DATABASE_URL;
let stopEmbedded: (() => Promise<void>) | undefined;
if (!databaseUrl) {
  const dir = path.resolve(repoRoot, config.EMBEDDED_PG_DIR);
  logger.info({ dir, port: config.EMBEDDED_PG_PORT }, 'starting embedded PostgreSQL');
  const embedded = await startEmbeddedPostgres(dir, config.EMBEDDED_PG_PORT, (m) => logger.warn(m));
  databaseUrl = await embedded.ensureDatabase('skyport');
  stopEmbedded = embedded.stop;
}

const applicationName = `skyport-${hostname()}-${process.pid}`.slice(0, 63);
const sql = createSql(databaseUrl, { max: config.DATABASE_POOL_MAX, applicationName });
// Sync's own pool (app.ts AppDeps.syncSql): device syncs never queue in front of a checkout.
const syncSql = createSql(databaseUrl, { max: config.DATABASE_SYNC_POOL_MAX, applicationName });
const applied = await migrate(sql);
if (applied.length > 0) logger.info({ applied }, 'migrations applied');

const embeddedAndEmpty =
  !config.DATABASE_URL && config.SEED_DEMO === 'auto' && !(await hasAnyUsers(sql));
if (config.SEED_DEMO === 'always' || embeddedAndEmpty) {
  const started = performance.now();
  const counts = await seedDemoData(sql);
  logger.info({ ...counts, ms: Math.round(performance.now() - started) }, 'demo data loaded');
}

// Signed e-tickets (features/tickets/): the first signing key, made by whichever instance gets
// there first, then the tickets of confirmed orders that have none (the demo's), now and every
// few minutes.
const tickets = createTicketService({ sql, logger, secret: config.TICKET_KEY_SECRET });
if (!config.TICKET_KEY_SECRET && config.NODE_ENV === 'production') {
  logger.warn('TICKET_KEY_SECRET is not set: new ticket signing keys are stored unsealed');
}
await tickets.ensureKey();
const servesApp = config.INSTANCE_ROLE !== 'sync';

// The PWA: PUBLIC_DIR, else the copy the production build puts beside the server (dist/public),
// else the workspace's pwa/dist.
const publicDir = [
  config.PUBLIC_DIR && path.resolve(repoRoot, config.PUBLIC_DIR),
  path.resolve(import.meta.dirname, 'public'),
  path.resolve(repoRoot, 'pwa/dist'),
].find((dir) => dir && existsSync(dir));
if (!publicDir && servesApp) logger.warn('no built PWA found; serving the API only');
if (config.INSTANCE_ROLE !== 'all') logger.info({ role: config.INSTANCE_ROLE }, 'instance role');
const metrics = createMetrics({
  sql,
  applicationName,
  poolMax: config.DATABASE_POOL_MAX + config.DATABASE_SYNC_POOL_MAX,
  processMetrics: true,
});
// Background work (lib/job-queue.ts): email delivery, payment reconciliation, seat hold release
// and ticket backfill, as jobs in PostgreSQL, run by one runner per instance where checkout runs
// (a `sync` instance serves device sync alone), on a pool of 2 connections of its own.
const jobs = servesApp
  ? createJobQueue({ databaseUrl, logger, metrics, applicationName, poolMax: 2 })
  : undefined;
if (jobs) startTicketBackfill(jobs, tickets, logger);
const app = createApp(
  {
    sql,
    syncSql,
    logger,
    ...identityDepsFromConfig(config, sql),
    payments: createPaymentsFromConfig(config),
    streams: streamLimitsFromConfig(config),
    holds: holdSettingsFromConfig(config),
    tickets,
    lifecycle,
    metrics,
    jobs,
  },
  { publicDir, role: config.INSTANCE_ROLE },
);
if (jobs) {
  await jobs.start();
  // Stopped first on shutdown: the job in progress finishes (or is released) before the pool closes.
  lifecycle.onShutdown('job runner', () => jobs.stop());
}
handler = app.fetch;

const metricsServer =
  config.METRICS_PORT === undefined
    ? undefined
    : (serve({
        fetch: new Hono().get('/metrics', async (c) => {
          c.header('Content-Type', metrics.registry.contentType);
          return c.body(await metrics.registry.metrics());
        }).fetch,
        port: config.METRICS_PORT,
        hostname: config.METRICS_HOST,
      }) as Server);

const url = `http://localhost:${config.PORT}`;
console.log(`\nSkyport is running at ${url}  (API: ${url}/api/health)`);
if (!config.DATABASE_URL) {
  console.log('Demo accounts:');
  for (const account of DEMO_ACCOUNTS) {
    console.log(
      `  ${account.email.padEnd(24)} ${account.password.padEnd(14)} ${account.description}`,
    );
  }
}

/** SIGTERM from an orchestrator, SIGINT from a terminal: drain, stop, exit (graceful-shutdown.ts). */
let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutting down');
  const { drained } = await shutDownGracefully({
    server,
    requests,
    lifecycle,
    sql,
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  });
  metricsServer?.close();
  await syncSql.end({ timeout: 1 });
  await stopEmbedded?.();
  logger.info({ drained }, 'stopped');
  logger.flush();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
