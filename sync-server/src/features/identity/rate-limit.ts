import { messages } from '@skyport/shared';
import type { Context } from 'hono';
import { generateCookie, getCookie } from 'hono/cookie';
import type { Sql } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import { secretCookieOptions } from './sessions.ts';
import { accountKey, generateToken, hashToken, isWellFormedToken } from './tokens.ts';

/** At most `max` hits per key in a fixed window of `windowSeconds`. */
export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/**
 * Counts one hit for `key` and tells whether it is still within the limit. The counter lives in
 * PostgreSQL (`rate_limits`), so every server instance shares it; the upsert is atomic, so
 * concurrent hits are all counted.
 */
export async function hitRateLimit(
  sql: Sql,
  key: string,
  limit: RateLimit,
): Promise<{ allowed: boolean; hits: number }> {
  const window = limit.windowSeconds;
  const [row] = await sql<{ hits: number }[]>`
    INSERT INTO rate_limits AS r (key, window_start, hits) VALUES (${key}, now(), 1)
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN r.window_start <= now() - make_interval(secs => ${window}) THEN now() ELSE r.window_start END,
      hits = CASE WHEN r.window_start <= now() - make_interval(secs => ${window}) THEN 1 ELSE r.hits + 1 END
    RETURNING hits`;
  const hits = row?.hits ?? 1;
  // Housekeeping, now and then: windows that ended long ago.
  if (Math.random() < 0.01) {
    await sql`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`;
  }
  return { allowed: hits <= limit.max, hits };
}

/** Counts one hit and refuses the request (429) past the limit. */
export async function enforceRateLimit(sql: Sql, key: string, limit: RateLimit): Promise<void> {
  const { allowed } = await hitRateLimit(sql, key, limit);
  if (!allowed) throw new AppError(ErrorCode.TooManyRequests, messages.tooManyAttempts);
}

/**
 * Gives back a hit that turned out well (a successful login), so that limits count failures while
 * every attempt is still counted the moment it starts (concurrent guesses cannot slip through).
 */
export async function refundRateLimit(sql: Sql, key: string): Promise<void> {
  await sql`UPDATE rate_limits SET hits = greatest(hits - 1, 0) WHERE key = ${key}`;
}

// Login: device cookies ---------------------------------------------------------------------------
//
// OWASP "Slow Down Online Guessing Attacks with Device Cookies": a client that once logged in to an
// account successfully holds a random device token for it. Its attempts count against that
// device's own limit, never against the account-wide limit for untrusted clients, so a flood of
// wrong passwords from elsewhere locks out untrusted clients only, not the owner's known devices.

/** Cookie names: `__Host-` (Secure, Path=/, no Domain) where session cookies are Secure too. */
export const LOGIN_DEVICE_COOKIE = 'skyport_device';
export const SECURE_LOGIN_DEVICE_COOKIE = `__Host-${LOGIN_DEVICE_COOKIE}`;
/** How long a device stays known after its last successful login (the token rotates at each). */
export const LOGIN_DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;
/** Known devices kept per account (newest first); older ones become untrusted clients again. */
export const LOGIN_DEVICES_PER_USER = 20;

export interface LoginLimits {
  /** Attempts from clients without a valid device token of the account (lockout of untrusted clients). */
  loginPerAccount: RateLimit;
  /** Attempts from one client address without a valid device token. */
  loginPerIp: RateLimit;
  /** Attempts with one device token; past it the token is revoked. */
  loginPerDevice: RateLimit;
}

/** A login attempt let through: the counters it used (given back on success), its known device. */
export interface LoginAttempt {
  keys: string[];
  device?: { id: string; userId: string };
}

/** A device token issued at a successful login, for the `Set-Cookie` of the answer. */
export interface NewLoginDevice {
  token: string;
  expiresAt: Date;
}

/** The device token a request carries (the cookie; API clients send it back as a `Cookie` header). */
export function readLoginDeviceToken(c: Context): string | undefined {
  return getCookie(c, SECURE_LOGIN_DEVICE_COOKIE) ?? getCookie(c, LOGIN_DEVICE_COOKIE);
}

/** The `Set-Cookie` value for a new device token: HttpOnly, SameSite=Lax, Secure like sessions. */
export function loginDeviceCookie(
  c: Context,
  device: NewLoginDevice,
  secure: 'auto' | boolean,
): string {
  return generateCookie(
    LOGIN_DEVICE_COOKIE,
    device.token,
    secretCookieOptions(c, device.expiresAt, secure),
  );
}

/**
 * Counts a login attempt before the password is checked, and refuses it (429) past its limits.
 * - With a live device token of this very account: only that device's counter. Past its limit the
 *   token is revoked (a stolen token buys a few guesses, once) and the attempt continues as
 *   untrusted.
 * - Otherwise (no token, a forged, expired or revoked one, or one of another account): the
 *   per-address counter and the account's counter for untrusted clients, as before device tokens.
 */
export async function admitLoginAttempt(
  sql: Sql,
  limits: LoginLimits,
  attempt: { email: string; ip: string; deviceToken?: string },
): Promise<LoginAttempt> {
  const { email, ip, deviceToken } = attempt;
  if (deviceToken !== undefined && isWellFormedToken(deviceToken)) {
    const [device] = await sql<{ id: string; user_id: string }[]>`
      SELECT d.id, d.user_id FROM login_devices d JOIN users u ON u.id = d.user_id
      WHERE d.token_hash = ${hashToken(deviceToken)} AND d.expires_at > now()
        AND lower(u.email) = ${email.trim().toLowerCase()} AND u.deleted_at IS NULL`;
    if (device) {
      const key = `login:device:${device.id}`;
      if ((await hitRateLimit(sql, key, limits.loginPerDevice)).allowed)
        return { keys: [key], device: { id: device.id, userId: device.user_id } };
      await sql`DELETE FROM login_devices WHERE id = ${device.id}`;
    }
  }
  const keys = [`login:ip:${ip}`, `login:account:${accountKey(email)}`];
  const byIp = await hitRateLimit(sql, keys[0]!, limits.loginPerIp);
  const byAccount = await hitRateLimit(sql, keys[1]!, limits.loginPerAccount);
  if (!byIp.allowed || !byAccount.allowed)
    throw new AppError(ErrorCode.TooManyRequests, messages.tooManyAttempts);
  return { keys };
}

/**
 * After the right password: gives the attempt's hits back and issues a fresh device token for
 * `userId`. The token the attempt came with, if it was this account's, is replaced (rotation); the
 * account keeps at most `LOGIN_DEVICES_PER_USER` devices.
 */
export async function loginSucceeded(
  sql: Sql,
  attempt: LoginAttempt,
  userId: string,
): Promise<NewLoginDevice> {
  for (const key of attempt.keys) await refundRateLimit(sql, key);
  const token = generateToken();
  const [row] = await sql.begin(async (tx) => {
    if (attempt.device?.userId === userId)
      await tx`DELETE FROM login_devices WHERE id = ${attempt.device.id}`;
    const inserted = await tx<{ expires_at: Date }[]>`
      INSERT INTO login_devices (token_hash, user_id, expires_at)
      VALUES (${hashToken(token)}, ${userId}, now() + make_interval(secs => ${LOGIN_DEVICE_TTL_SECONDS}))
      RETURNING expires_at`;
    await tx`
      DELETE FROM login_devices WHERE user_id = ${userId} AND (expires_at <= now() OR id NOT IN (
        SELECT id FROM login_devices WHERE user_id = ${userId} AND expires_at > now()
        ORDER BY created_at DESC, id LIMIT ${LOGIN_DEVICES_PER_USER}))`;
    return inserted;
  });
  if (!row) throw new Error('login device insert returned no row');
  // Housekeeping, now and then: devices of every account that expired.
  if (Math.random() < 0.01) await sql`DELETE FROM login_devices WHERE expires_at <= now()`;
  return { token, expiresAt: row.expires_at };
}
