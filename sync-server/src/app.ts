import path from 'node:path';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { Sql } from './db/client.ts';
import { AppError, ErrorCode } from './lib/errors.ts';
import type { Logger } from './lib/logger.ts';
import { catalogRoutes } from './features/catalog/routes.ts';
import { healthRoutes } from './features/health/routes.ts';

export interface AppDeps {
  sql: Sql;
  logger: Logger;
}

/** Request bodies above this are refused before they are read (413). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Builds the HTTP API: one sub-app per feature under `/api`, one error path, one 404.
 * (Hono uses the root app's onError/notFound for mounted sub-apps, so they live there.)
 */
export function createApp(deps: AppDeps, options: { publicDir?: string } = {}) {
  const api = new Hono();

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

  api.route('/', healthRoutes(deps));
  api.route('/', catalogRoutes(deps));

  const app = new Hono();
  app.route('/api', api);
  if (options.publicDir) {
    // The built PWA on the same origin; any other non-API path gets index.html (client routing).
    const root = path.relative(process.cwd(), options.publicDir);
    const isApi = (p: string) => p === '/api' || p.startsWith('/api/');
    const files = serveStatic({ root });
    const shell = serveStatic({ root, path: 'index.html' });
    app.get('*', (c, next) => (isApi(c.req.path) ? next() : files(c, next)));
    app.get('*', (c, next) => (isApi(c.req.path) ? next() : shell(c, next)));
  }
  app.notFound((c) => c.json({ code: ErrorCode.NotFound, message: `No route for ${c.req.method} ${c.req.path}` }, 404));
  app.onError((error, c) => {
    if (error instanceof AppError) {
      return c.json({ code: error.code, message: error.message, details: error.details }, error.status);
    }
    if (error instanceof HTTPException) {
      // Hono's own errors (e.g. malformed JSON from the validator) are client errors.
      return c.json({ code: ErrorCode.BadRequest, message: error.message }, error.status === 500 ? 400 : error.status);
    }
    deps.logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error');
    return c.json({ code: ErrorCode.Internal, message: 'Something went wrong!' }, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
