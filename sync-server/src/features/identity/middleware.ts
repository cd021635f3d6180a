import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Sql } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import type { AuthEnv } from './guard.ts';
import type { SessionCache } from './session-cache.ts';
import { findSession, hasSessionCookie, readSessionToken } from './sessions.ts';
import type { IdentitySettings } from './settings.ts';

/**
 * Resolves the caller once per request: `c.var.user` and `c.var.session` are the signed-in user and
 * session, or null for a guest. Requests without a token cost no query; the others look the session
 * up through `cacheOf(c)` when it gives a cache (app.ts: sync requests, session-cache.ts), else
 * through `poolOf(c)` (app.ts: sync requests through sync's own pool).
 */
export function sessionMiddleware(
  poolOf: (c: Context) => Sql,
  cacheOf: (c: Context) => SessionCache | undefined = () => undefined,
) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    c.set('user', null);
    c.set('session', null);
    const carried = readSessionToken(c);
    if (carried) {
      const cache = cacheOf(c);
      const found = cache
        ? await cache.find(carried.token)
        : await findSession(poolOf(c), carried.token);
      if (found) {
        c.set('user', found.user);
        c.set('session', { ...found.session, via: carried.via });
      }
    }
    await next();
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin a browser says the request comes from: `Origin`, else the origin of `Referer`. */
function requestSource(c: Context): string | undefined {
  const origin = c.req.header('origin');
  if (origin !== undefined) return origin;
  const referer = c.req.header('referer');
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

export function isAllowedOrigin(c: Context, origin: string, settings: IdentitySettings): boolean {
  if (origin === 'null') return false;
  return origin === new URL(c.req.url).origin || settings.appOrigins.includes(origin);
}

/**
 * Security: CSRF protection for state-changing requests.
 * - A request with an `Authorization` header is never authenticated by the cookie, and no browser
 *   adds that header to a cross-site request on its own: it passes.
 * - A request carrying the session cookie must say where it comes from (`Origin`, or `Referer`),
 *   and that must be the API's own origin or a configured app origin.
 * - Any request whose `Origin`/`Referer` names another site is refused as well (login CSRF).
 */
export function csrfProtection(settings: IdentitySettings) {
  return createMiddleware(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || c.req.header('authorization') !== undefined)
      return next();
    const source = requestSource(c);
    const refused =
      source === undefined ? hasSessionCookie(c) : !isAllowedOrigin(c, source, settings);
    if (refused)
      throw new AppError(ErrorCode.Forbidden, 'Cross-site request refused', { reason: 'csrf' });
    await next();
  });
}

/** The client's address, for rate limits: the socket's, or the proxy's `X-Forwarded-For` when trusted. */
export function clientIp(c: Context, settings: IdentitySettings): string {
  if (settings.trustProxy) {
    // The last entry is the one our proxy appended; earlier ones are whatever the client sent.
    const forwarded = c.req
      .header('x-forwarded-for')
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    const last = forwarded?.at(-1);
    if (last) return last.slice(0, 64);
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
