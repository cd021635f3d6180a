import path from 'node:path';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { bodyLimit } from 'hono/body-limit';
import { PUSH_MAX_BODY_BYTES } from '@skyport/shared';
import { compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import { requestId, type RequestIdVariables } from 'hono/request-id';
import { routePath } from 'hono/route';
import type { Sql } from './db/client.ts';
import { AppError, ErrorCode } from './lib/errors.ts';
import { Lifecycle } from './lib/lifecycle.ts';
import { securityHeaders } from './lib/security-headers.ts';
import { checkoutOutcome, createMetrics, type Metrics } from './lib/metrics.ts';
import type { Config } from './config.ts';
import type { ServerDeps } from './deps.ts';
import { adminRoutes } from './features/admin/routes.ts';
import {
  createOutboxMailer,
  createQueuedMailer,
  createSmtpMailer,
  formatMailForConsole,
  resolveMailer,
  type Mailer,
} from './features/email/mailer.ts';
import { outboxRoutes } from './features/email/routes.ts';
import { BackgroundTasks } from './lib/background-tasks.ts';
import { createInProcessJobs, type Jobs } from './lib/job-queue.ts';
import { createFirebaseVerifier } from './features/identity/firebase.ts';
import type { AuthEnv } from './features/identity/guard.ts';
import { csrfProtection, sessionMiddleware } from './features/identity/middleware.ts';
import { identityRoutes } from './features/identity/routes.ts';
import {
  resolveIdentitySettings,
  type IdentitySettingsInput,
} from './features/identity/settings.ts';
import { catalogRoutes } from './features/catalog/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { sessionCacheFor, syncRoutes } from './sync/routes.ts';
import { snapshotRoutes } from './sync/snapshot.ts';
import type { StreamLimits } from './sync/stream-limits.ts';
import { createTestPayments, type Payments } from './payments/index.ts';
import { cartRoutes } from './features/cart/routes.ts';
import { checkoutRoutes } from './features/checkout/routes.ts';
import type { HoldSettings } from './features/checkout/holds.ts';
import { flightsManagementRoutes } from './features/flights-management/routes.ts';
import { orderRoutes } from './features/orders/routes.ts';
import { reviewRoutes } from './features/reviews/routes.ts';
import { salesRoutes } from './features/sales/routes.ts';
import { ticketRoutes } from './features/tickets/routes.ts';
import { createTicketService, type TicketService } from './features/tickets/tickets.ts';
import { publicUrl } from './features/identity/settings.ts';

/** The app's dependencies: the database and the log (deps.ts), and the parts' options. */
export interface AppDeps extends ServerDeps {
  /**
   * The pool for `/api/sync/*` (pulls, pushes, snapshots and their session lookups); default: `sql`.
   * main.ts gives it a pool of its own, so that hundreds of devices syncing at once queue there
   * and a checkout or a catalogue page never waits behind them for a connection.
   */
  syncSql?: Sql;
  /** Outgoing email (verification, reset, receipts); default: the database outbox. */
  mailer?: Mailer;
  /** Identity settings (origins, session lifetime, limits, Firebase); defaults suit development and tests. */
  identity?: IdentitySettingsInput;
  /** Work run after an answer is decided (identity mail); tests pass their own to await it. */
  background?: BackgroundTasks;
  /**
   * Background jobs (email delivery, payment reconciliation, seat hold release): main.ts passes
   * the PostgreSQL job queue and runs it; default: in the process (`createInProcessJobs`), on
   * `background`.
   */
  jobs?: Jobs;
  /** Starting, serving or draining; stops the app's parts on shutdown (main.ts). Default: a new one. */
  lifecycle?: Lifecycle;
  /** Prometheus metrics (main.ts serves them on METRICS_PORT). Default: a registry of its own. */
  metrics?: Metrics;
  /** Payment providers (payments/); default: the built-in test provider. */
  payments?: Payments;
  /**
   * Signed e-tickets (features/tickets/): main.ts passes one with TICKET_KEY_SECRET; default: one
   * that stores new private keys unsealed (development and tests).
   */
  tickets?: TicketService;
  /** What the sync streams may spend (sync/stream-limits.ts); defaults otherwise. */
  streams?: Partial<StreamLimits>;
  /**
   * Seat holds (features/checkout/holds.ts): lifetime, share cap, release job period. Default: 10
   * minutes, 50 %, and no release job (main.ts runs it; tests run passes themselves).
   */
  holds?: Partial<HoldSettings>;
}

/** Identity and email dependencies from the environment (used by main.ts). */
export function identityDepsFromConfig(
  config: Config,
  sql: Sql,
): Pick<AppDeps, 'mailer' | 'identity'> {
  const production = config.NODE_ENV === 'production';
  const devOrigins = production
    ? []
    : ['http://localhost:5173', 'http://127.0.0.1:5173', 'http://localhost:4173'];
  return {
    mailer: config.SMTP_URL
      ? createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM })
      : createOutboxMailer(sql, {
          // Development: the links also go to the console (the outbox itself is admin-only).
          print: production ? undefined : (mail) => console.log(formatMailForConsole(mail)),
        }),
    identity: {
      appOrigins: [
        ...config.APP_ORIGIN,
        ...(config.APP_ORIGIN.length > 0 ? [] : [`http://localhost:${config.PORT}`]),
        ...devOrigins,
      ],
      sessionTtlSeconds: config.SESSION_TTL,
      trustProxy: config.TRUST_PROXY === 'true',
      firebase: config.FIREBASE_PROJECT_ID
        ? createFirebaseVerifier({
            projectId: config.FIREBASE_PROJECT_ID,
            jwksUrl: config.FIREBASE_JWKS_URL,
          })
        : undefined,
    },
  };
}

/** Request bodies above this are refused before they are read (413). */
export const MAX_BODY_BYTES = 64 * 1024;
/**
 * The body limit of sync pushes (`POST /api/sync/{collection}/push`) instead: room for
 * `PUSH_MAX_ROWS` full RxDB rows with every field at its maximum length (shared computes it from
 * the document schemas: 2 MiB today). Larger batches are refused by their row count.
 */
export const SYNC_PUSH_MAX_BODY_BYTES = PUSH_MAX_BODY_BYTES;
const SYNC_PUSH_PATH = /^\/api\/sync\/[^/]+\/push$/;
/**
 * A checkout attempt (`POST /api/checkout`, `/api/stripe`, `/api/checkout/:paymentId/confirm`):
 * counted by outcome, and its session read from the session cache (below).
 */
const CHECKOUT_ATTEMPT_PATH = /^\/api\/(?:checkout|stripe|checkout\/[^/]+\/confirm)$/;
const isCheckoutAttempt = (c: Context) =>
  c.req.method === 'POST' && CHECKOUT_ATTEMPT_PATH.test(c.req.path);

/**
 * What an instance serves (config INSTANCE_ROLE): everything, device sync only (`/api/sync/*`
 * and health), or everything but sync (docs/decisions/025-sync-on-instances-of-its-own.md).
 */
export type InstanceRole = 'all' | 'sync' | 'app';

/**
 * Builds the HTTP API: one sub-app per feature under `/api`, one error path, one 404.
 * (Hono uses the root app's onError/notFound for mounted sub-apps, so they live there.)
 * A path the instance's role does not serve gets that 404 too: only a misrouting proxy sends one.
 */
export function createApp(
  deps: AppDeps,
  options: { publicDir?: string; role?: InstanceRole } = {},
) {
  const role = options.role ?? 'all';
  const servesSync = role !== 'app';
  const servesApp = role !== 'sync';
  const background = deps.background ?? new BackgroundTasks(deps.logger);
  const jobs = deps.jobs ?? createInProcessJobs({ logger: deps.logger, background });
  const identity = {
    sql: deps.sql,
    logger: deps.logger,
    // Features send through the job queue; its `email` job delivers through the mailer.
    mailer: createQueuedMailer(jobs, resolveMailer(deps)),
    settings: resolveIdentitySettings(deps.identity),
    background,
  };
  const lifecycle = deps.lifecycle ?? new Lifecycle();
  const metrics = deps.metrics ?? createMetrics();
  lifecycle.onShutdown('mailer', () => identity.mailer.close());
  lifecycle.onShutdown('background tasks', () => identity.background.settled());
  // A queue given by main.ts is started and stopped there; the in-process one stops with the app.
  if (!deps.jobs) lifecycle.onShutdown('jobs', () => jobs.stop());
  const api = new Hono<AuthEnv & { Variables: RequestIdVariables }>();

  // A request id (the caller's X-Request-Id when well-formed, else a new UUID) on the answer, on
  // the request's log line and in errors. It is passed, not carried by AsyncLocalStorage: on Node
  // 20 that puts promise hooks on every promise of the process, ~14 % of a sync push's server CPU
  // (docs/decisions/026-request-ids-without-async-context.md).
  api.use(requestId({ limitLength: 128 }));
  api.use(async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    // The route pattern, not the path: ids in paths would make one series per flight.
    // Answers no route matched (404s) share one label, whatever the path.
    const matched = c.req.routePath === '*' ? routePath(c, -1) : c.req.routePath;
    const route = matched === '/*' || matched === '*' ? 'unmatched' : matched;
    metrics.httpRequests.inc({ method: c.req.method, route, status: c.res.status });
    metrics.httpDuration.observe({ method: c.req.method, route }, seconds);
    deps.logger.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(seconds * 10_000) / 10,
      },
      'request',
    );
  });
  // What a checkout attempt came to is counted (the answer's status says it; see checkoutOutcome).
  api.use(async (c, next) => {
    if (!servesApp || !isCheckoutAttempt(c)) return next();
    await next();
    metrics.checkoutOutcomes.inc({ outcome: checkoutOutcome(c.res.status) });
  });
  const limitBodies = (maxSize: number): MiddlewareHandler => {
    const tooLarge = () => {
      throw new AppError(
        ErrorCode.PayloadTooLarge,
        `Request body is too large: at most ${maxSize} bytes`,
        { maxBytes: maxSize },
      );
    };
    const streamed = bodyLimit({ maxSize, onError: tooLarge });
    // A body of a declared length is judged by it (Node's parser never reads past it), so the
    // route reads it straight from the socket; hono's limiter would first wrap it in a web
    // Request and stream (a sixth of a sync push's CPU time, docs/decisions/018-push-throughput.md).
    // Only a chunked body, of no declared length, is counted as it arrives.
    return (c, next) => {
      const length = c.req.header('content-length');
      if (
        length === undefined ||
        c.req.header('transfer-encoding') !== undefined ||
        !/^\d+$/.test(length)
      )
        return streamed(c, next);
      return Number(length) > maxSize ? tooLarge() : next();
    };
  };
  const defaultBodyLimit = limitBodies(MAX_BODY_BYTES);
  const syncPushBodyLimit = limitBodies(SYNC_PUSH_MAX_BODY_BYTES);
  // GET and HEAD carry no body a route reads, and the limit's wrapper copies the whole request
  // (about a fifth of a catalogue page's time): only the other methods go through it.
  api.use((c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD'
      ? next()
      : (SYNC_PUSH_PATH.test(c.req.path) ? syncPushBodyLimit : defaultBodyLimit)(c, next),
  );

  const syncSql = deps.syncSql ?? deps.sql;

  // Who is calling (c.var.user), then CSRF: before any route, so every route is covered.
  const isSync = (path: string) => path.startsWith('/api/sync/');
  // Sync requests (every device, many times a minute) resolve their session through the
  // instance's session cache, invalidated across instances (docs/decisions/018-push-throughput.md),
  // and so do checkout attempts: one sequential round trip fewer while a storm of pushes keeps the
  // cores busy (decision 023, "The checkout's session").
  const syncSessions = sessionCacheFor({ sql: syncSql, logger: deps.logger });
  api.use(
    sessionMiddleware(
      (c) => (isSync(c.req.path) ? syncSql : deps.sql),
      (c) => (isSync(c.req.path) || isCheckoutAttempt(c) ? syncSessions : undefined),
    ),
  );
  api.use(csrfProtection(identity.settings));

  api.route('/', healthRoutes({ sql: deps.sql, lifecycle }));
  if (servesSync) {
    api.route('/', syncRoutes({ ...deps, sql: syncSql, lifecycle, metrics }));
    api.route('/', snapshotRoutes({ ...deps, sql: syncSql, metrics }));
  }
  if (servesApp) {
    api.route('/', identityRoutes(identity));
    api.route('/', adminRoutes(identity));
    if (identity.mailer.kind === 'outbox') api.route('/', outboxRoutes(deps.sql));
    api.route('/', catalogRoutes(deps));
    // Airline catalogue management, cart, checkout, orders, sales, reviews (issue 4).
    api.route('/', flightsManagementRoutes(deps));
    api.route('/', cartRoutes(deps));
    const payments = deps.payments ?? createTestPayments();
    const tickets = deps.tickets ?? createTicketService({ sql: deps.sql, logger: deps.logger });
    const checkout = checkoutRoutes({
      ...deps,
      payments,
      mailer: identity.mailer,
      background: identity.background,
      jobs,
      publicUrl: publicUrl(identity.settings),
      lifecycle,
      tickets,
    });
    api.route('/', checkout.routes);
    api.route('/', ticketRoutes({ sql: deps.sql, tickets, settings: identity.settings }));
    api.route('/', orderRoutes(deps));
    api.route('/', salesRoutes(deps));
    api.route('/', reviewRoutes(deps));
  }

  const app = new Hono();
  // Browser security headers (CSP, nosniff, frame and referrer policies, HSTS over HTTPS) on
  // every answer: registered before any route, it also wraps the onError and notFound answers.
  app.use(
    '*',
    securityHeaders({
      publicDir: options.publicDir,
      trustProxy: identity.settings.trustProxy,
    }),
  );
  app.route('/api', api);
  if (options.publicDir && servesApp) {
    // The built PWA on the same origin; any other non-API path gets index.html (client routing),
    // except /assets/: a hashed file that is not there (an old build's) is a 404, never the page.
    const root = path.relative(process.cwd(), options.publicDir);
    const isApi = (p: string) => p === '/api' || p.startsWith('/api/');
    const isAsset = (p: string) => p.startsWith('/assets/');
    const files = serveStatic({ root });
    const shell = serveStatic({ root, path: 'index.html' });
    const compression = compress();
    app.use('*', async (c, next) => {
      if (isApi(c.req.path)) return next();
      await compression(c, next);
      // Vite's /assets/ files carry a content hash in their name: cache them for good; anything
      // else (index.html, the service worker, the manifest) must be revalidated to see updates,
      // and a miss (404) is not kept at all, so that the file is looked for again.
      if (c.res.status === 200 && isAsset(c.req.path)) {
        c.res.headers.set('Cache-Control', 'public, max-age=31536000, immutable');
      } else {
        c.res.headers.set('Cache-Control', c.res.ok ? 'no-cache' : 'no-store');
      }
    });
    app.get('*', (c, next) => (isApi(c.req.path) ? next() : files(c, next)));
    app.get('*', (c, next) => (isApi(c.req.path) || isAsset(c.req.path) ? next() : shell(c, next)));
  }
  app.notFound((c) =>
    c.json(
      {
        code: ErrorCode.NotFound,
        message: `No route for ${c.req.method} ${c.req.path}`,
        requestId: (c.var as { requestId?: string }).requestId,
      },
      404,
    ),
  );
  app.onError((error, c) => {
    // Every error answer names its request, so a user's report can be matched with the log.
    const requestId = (c.var as { requestId?: string }).requestId;
    if (error instanceof AppError) {
      return c.json(
        { code: error.code, message: error.message, details: error.details, requestId },
        error.status,
      );
    }
    if (error instanceof HTTPException) {
      // Hono's own errors (e.g. malformed JSON from the validator) are client errors.
      return c.json(
        { code: ErrorCode.BadRequest, message: error.message, requestId },
        error.status === 500 ? 400 : error.status,
      );
    }
    deps.logger.error(
      { err: error, method: c.req.method, path: c.req.path, requestId },
      'unhandled error',
    );
    return c.json({ code: ErrorCode.Internal, message: 'Something went wrong!', requestId }, 500);
  });

  lifecycle.markServing();
  return app;
}
