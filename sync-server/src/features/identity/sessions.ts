import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type postgres from 'postgres';
import type { Sql } from '../../db/client.ts';
import { generateToken, hashToken, isWellFormedToken } from './tokens.ts';
import { toUser, type AuthUser, type UserRow } from './users.ts';

/** Cookie names: `__Host-` (Secure, Path=/, no Domain: no subdomain can plant it) outside localhost. */
export const SESSION_COOKIE = 'skyport_session';
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

export interface NewSession {
  id: string;
  token: string;
  expiresAt: Date;
}

/** A session resolved from a request. `via` tells how the request carried it (CSRF needs it). */
export interface SessionRef {
  id: string;
  userId: string;
  via: 'cookie' | 'bearer';
  expiresAt: Date;
}

/** Creates a session for `userId`: a fresh random token, of which only the hash is stored. */
export async function createSession(
  sql: Sql,
  userId: string,
  ttlSeconds: number,
  meta: { userAgent?: string | null; ip?: string | null } = {},
): Promise<NewSession> {
  const token = generateToken();
  const [row] = await sql<{ id: string; expires_at: Date }[]>`
    INSERT INTO sessions (token_hash, user_id, expires_at, user_agent, ip)
    VALUES (${hashToken(token)}, ${userId}, now() + make_interval(secs => ${ttlSeconds}),
            ${meta.userAgent?.slice(0, 512) ?? null}, ${meta.ip ?? null})
    RETURNING id, expires_at`;
  if (!row) throw new Error('session insert returned no row');
  // Housekeeping: this user's expired sessions go whenever a new one starts.
  await sql`DELETE FROM sessions WHERE user_id = ${userId} AND expires_at <= now()`;
  return { id: row.id, token, expiresAt: row.expires_at };
}

/** A live session and its user, as a lookup finds them. */
export interface LiveSession {
  session: Omit<SessionRef, 'via'>;
  user: AuthUser;
}

/** The live session and user a token stands for, or undefined (unknown, expired, disabled, deleted). */
export async function findSession(sql: Sql, token: string): Promise<LiveSession | undefined> {
  if (!isWellFormedToken(token)) return undefined;
  return findSessionByHash(sql, hashToken(token));
}

/** The same by the token's hash (session-cache.ts hashes it once for its key and the query). */
export async function findSessionByHash(
  sql: Sql,
  tokenHash: Buffer,
): Promise<LiveSession | undefined> {
  return findLiveSession(sql, sql`s.token_hash = ${tokenHash}`);
}

/**
 * The same for a session already resolved once, by its id: whether it is still live, and who its
 * user is now (the sync streams ask again when a session or its user changes).
 */
export async function findSessionById(
  sql: Sql,
  sessionId: string,
): Promise<{ session: Omit<SessionRef, 'via'>; user: AuthUser } | undefined> {
  return findLiveSession(sql, sql`s.id = ${sessionId}`);
}

async function findLiveSession(
  sql: Sql,
  which: postgres.Fragment,
): Promise<{ session: Omit<SessionRef, 'via'>; user: AuthUser } | undefined> {
  // Security: a disabled or deleted account's session is dead even if its row survived somehow.
  const [row] = await sql<(UserRow & { session_id: string; session_expires_at: Date })[]>`
    SELECT s.id AS session_id, s.expires_at AS session_expires_at,
           u.id, u.email, u.name, u.last_name, u.image, u.phone, u.uid, u.role, u.airline_status,
           u.email_verified, u.disabled, u.created_at, a.id AS airline_id
    FROM sessions s
    JOIN users u ON u.id = s.user_id
    LEFT JOIN airlines a ON a.owner_user_id = u.id AND NOT a.deleted
    WHERE ${which} AND s.expires_at > now()
      AND u.deleted_at IS NULL AND NOT u.disabled`;
  if (!row) return undefined;
  return {
    session: { id: row.session_id, userId: row.id, expiresAt: row.session_expires_at },
    user: toUser(row),
  };
}

export async function deleteSession(sql: Sql, sessionId: string): Promise<void> {
  await sql`DELETE FROM sessions WHERE id = ${sessionId}`;
}

export async function deleteSessionByToken(sql: Sql, token: string): Promise<void> {
  if (!isWellFormedToken(token)) return;
  await sql`DELETE FROM sessions WHERE token_hash = ${hashToken(token)}`;
}

// Transport: cookie and Authorization header ---------------------------------------------------

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether cookies must be Secure for this request: everywhere but on a loopback host. */
export function isSecureContext(c: Context, setting: 'auto' | boolean): boolean {
  if (setting !== 'auto') return setting;
  const host = new URL(c.req.url).hostname;
  return !(LOOPBACK.has(host) || host.endsWith('.localhost'));
}

/** The session token a request carries: `Authorization: Bearer` first, then the cookie. */
export function readSessionToken(
  c: Context,
): { token: string; via: 'cookie' | 'bearer' } | undefined {
  const authorization = c.req.header('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1] ? { token: match[1], via: 'bearer' } : undefined;
  }
  const cookie = getCookie(c, SECURE_SESSION_COOKIE) ?? getCookie(c, SESSION_COOKIE);
  return cookie ? { token: cookie, via: 'cookie' } : undefined;
}

/** Whether the request carries any session cookie (valid or not); CSRF checks apply then. */
export function hasSessionCookie(c: Context): boolean {
  return (
    getCookie(c, SECURE_SESSION_COOKIE) !== undefined || getCookie(c, SESSION_COOKIE) !== undefined
  );
}

/**
 * Options of a cookie that carries a secret until `expiresAt` (a session, a login device):
 * HttpOnly, SameSite=Lax, and Secure with the `__Host-` prefix except on a loopback host.
 */
export function secretCookieOptions(c: Context, expiresAt: Date, secure: 'auto' | boolean) {
  const isSecure = isSecureContext(c, secure);
  return {
    httpOnly: true,
    secure: isSecure,
    sameSite: 'Lax' as const,
    path: '/',
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
    ...(isSecure ? { prefix: 'host' as const } : {}),
  };
}

export function setSessionCookie(c: Context, session: NewSession, secure: 'auto' | boolean): void {
  setCookie(c, SESSION_COOKIE, session.token, secretCookieOptions(c, session.expiresAt, secure));
}

export function clearSessionCookie(c: Context, secure: 'auto' | boolean): void {
  const isSecure = isSecureContext(c, secure);
  deleteCookie(c, SESSION_COOKIE, {
    path: '/',
    secure: isSecure,
    httpOnly: true,
    sameSite: 'Lax',
    ...(isSecure ? { prefix: 'host' as const } : {}),
  });
}
