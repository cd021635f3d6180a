import path from 'node:path';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import type { Sql } from './db/client.ts';
import { AppError, ErrorCode } from './lib/errors.ts';
import type { Logger } from './lib/logger.ts';
import type { Config } from './config.ts';
import { adminRoutes } from './features/admin/routes.ts';
import {
  createOutboxMailer,
  createSmtpMailer,
  resolveMailer,
  type Mailer,
} from './features/email/mailer.ts';
import { devOutboxRoutes } from './features/email/routes.ts';
import { BackgroundTasks } from './features/identity/background.ts';
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
import { syncRoutes } from './sync/routes.ts';
import { createTestPayments, type Payments } from './payments/index.ts';
import { cartRoutes } from './features/cart/routes.ts';
import { checkoutRoutes } from './features/checkout/routes.ts';
import { flightsManagementRoutes } from './features/flights-management/routes.ts';
import { orderRoutes } from './features/orders/routes.ts';
import { reviewRoutes } from './features/reviews/routes.ts';
import { salesRoutes } from './features/sales/routes.ts';
import { publicUrl } from './features/identity/settings.ts';

export interface AppDeps {
  sql: Sql;
  logger: Logger;
  /** Outgoing email (verification, reset, receipts); default: the database outbox. */
  mailer?: Mailer;
  /** Identity settings (origins, session lifetime, limits, Firebase); defaults suit development and tests. */
  identity?: IdentitySettingsInput;
  /** Work run after an answer is decided (identity mail); tests pass their own to await it. */
  background?: BackgroundTasks;
  /** Payment providers (payments/); default: the built-in test provider. */
  payments?: Payments;
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
      : createOutboxMailer(sql),
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
      devOutbox: !production && !config.SMTP_URL,
    },
  };
}

/** Request bodies above this are refused before they are read (413). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Builds the HTTP API: one sub-app per feature under `/api`, one error path, one 404.
 * (Hono uses the root app's onError/notFound for mounted sub-apps, so they live there.)
 */
export function createApp(deps: AppDeps, options: { publicDir?: string } = {}) {
  const identity = {
    sql: deps.sql,
    logger: deps.logger,
    mailer: resolveMailer(deps),
    settings: resolveIdentitySettings(deps.identity),
    background: deps.background ?? new BackgroundTasks(deps.logger),
  };
  const api = new Hono<AuthEnv>();

  api.use(async (c, next) => {
    const started = performance.now();
    await next();
    deps.logger.info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });
  api.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AppError(ErrorCode.PayloadTooLarge, 'Request body is too large');
      },
    }),
  );

  // Who is calling (c.var.user), then CSRF: before any route, so every route is covered.
  api.use(sessionMiddleware(deps.sql));
  api.use(csrfProtection(identity.settings));

  api.route('/', healthRoutes(deps));
  api.route('/', identityRoutes(identity));
  api.route('/', adminRoutes(identity));
  if (identity.settings.devOutbox && identity.mailer.kind === 'outbox')
    api.route('/', devOutboxRoutes(deps.sql));
  api.route('/', catalogRoutes(deps));
  api.route('/', syncRoutes(deps));
  // Airline catalogue management, cart, checkout, orders, sales, reviews (issue 4).
  api.route('/', flightsManagementRoutes(deps));
  api.route('/', cartRoutes(deps));
  const payments = deps.payments ?? createTestPayments();
  const checkout = checkoutRoutes({
    ...deps,
    payments,
    mailer: identity.mailer,
    background: identity.background,
    publicUrl: publicUrl(identity.settings),
  });
  api.route('/', checkout.routes);
  api.route('/', orderRoutes(deps));
  api.route('/', salesRoutes(deps));
  api.route('/', reviewRoutes(deps));

  const app = new Hono();
  app.route('/api', api);
  if (options.publicDir) {
    // The built PWA on the same origin; any other non-API path gets index.html (client routing).
    const root = path.relative(process.cwd(), options.publicDir);
    const isApi = (p: string) => p === '/api' || p.startsWith('/api/');
    const files = serveStatic({ root });
    const shell = serveStatic({ root, path: 'index.html' });
    const compression = compress();
    app.use('*', async (c, next) => {
      if (isApi(c.req.path)) return next();
      await compression(c, next);
      // Vite's /assets/ files carry a content hash in their name: cache them for good; anything
      // else (index.html, the service worker, the manifest) must be revalidated to see updates.
      if (c.res.ok) {
        const immutable = c.req.path.startsWith('/assets/');
        c.res.headers.set(
          'Cache-Control',
          immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      }
    });
    app.get('*', (c, next) => (isApi(c.req.path) ? next() : files(c, next)));
    app.get('*', (c, next) => (isApi(c.req.path) ? next() : shell(c, next)));
  }
  app.notFound((c) =>
    c.json(
      { code: ErrorCode.NotFound, message: `No route for ${c.req.method} ${c.req.path}` },
      404,
    ),
  );
  app.onError((error, c) => {
    if (error instanceof AppError) {
      return c.json(
        { code: error.code, message: error.message, details: error.details },
        error.status,
      );
    }
    if (error instanceof HTTPException) {
      // Hono's own errors (e.g. malformed JSON from the validator) are client errors.
      return c.json(
        { code: ErrorCode.BadRequest, message: error.message },
        error.status === 500 ? 400 : error.status,
      );
    }
    deps.logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error');
    return c.json({ code: ErrorCode.Internal, message: 'Something went wrong!' }, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
