import { messages } from '@skyport/shared';
import { describe, expect, test } from 'vitest';
import {
  bodyOf,
  createTestApp,
  createTestHarness,
  errorBody,
  jsonRequest,
  randomIp,
} from '../../test/harness.ts';
import { ACTOR_PASSWORD, insertUser } from '../../test/actors.ts';
import { LOGIN_DEVICES_PER_USER, LOGIN_DEVICE_TTL_SECONDS, hitRateLimit } from './rate-limit.ts';
import { generateToken, hashToken } from './tokens.ts';

const limits = {
  loginPerAccount: { max: 3, windowSeconds: 900 },
  loginPerIp: { max: 5, windowSeconds: 900 },
  loginPerDevice: { max: 3, windowSeconds: 900 },
  passwordChangePerUser: { max: 3, windowSeconds: 900 },
  passwordResetPerEmail: { max: 2, windowSeconds: 3600 },
  passwordResetPerIp: { max: 3, windowSeconds: 3600 },
};
const { sql, app, background, actors } = await createTestHarness({
  actors: true,
  identity: { limits },
});

const WRONG = 'Wrong-Pass1!';

/** A login from `ip`, with a device cookie (`name=value`) when given. */
function login(email: string, password: string, ip: string, device?: string, via = app) {
  return via.request(
    '/api/auth/login',
    jsonRequest(
      'POST',
      { email, password },
      { 'X-Forwarded-For': ip, ...(device ? { Cookie: device } : {}) },
    ),
  );
}

/** The device cookie a login answer set, as `name=value`. */
function deviceCookieOf(response: Response): string | undefined {
  for (const cookie of response.headers.getSetCookie()) {
    const pair = /^((?:__Host-)?skyport_device=[^;]*)/.exec(cookie)?.[1];
    if (pair) return pair;
  }
  return undefined;
}

/** Logs in with the right password from a fresh address: the device cookie this client now has. */
async function knownDevice(email: string): Promise<string> {
  const response = await login(email, ACTOR_PASSWORD, randomIp());
  expect(response.status).toBe(200);
  const cookie = deviceCookieOf(response);
  expect(cookie).toMatch(/^skyport_device=[A-Za-z0-9_-]{43}$/);
  return cookie!;
}

async function deviceRows(userId: string) {
  return sql<{ token_hash: Buffer; expires_at: Date }[]>`
    SELECT token_hash, expires_at FROM login_devices WHERE user_id = ${userId}`;
}

describe('login rate limiting', () => {
  test('per account for untrusted clients: after 3 failures from anywhere, a client without a device cookie is locked out for the window, even with the right password', async () => {
    const user = await insertUser(sql);
    for (let i = 0; i < 3; i++)
      expect((await login(user.email, WRONG, randomIp())).status).toBe(401);
    const locked = await login(user.email, ACTOR_PASSWORD, randomIp());
    expect(locked.status).toBe(429);
    expect(await bodyOf(locked)).toEqual(errorBody('too_many_requests', messages.tooManyAttempts));
    expect(locked.headers.get('set-cookie')).toBeNull();
    // Other accounts are not affected.
    expect((await login(actors.customer.email!, ACTOR_PASSWORD, randomIp())).status).toBe(200);
  });

  test('per address: one client cannot try many accounts', async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      expect((await login(`nobody-${i}@actors.test`, 'Wrong-Pass1!', ip)).status).toBe(401);
    }
    expect((await login(actors.customer.email!, ACTOR_PASSWORD, ip)).status).toBe(429);
    expect((await login(actors.customer.email!, ACTOR_PASSWORD, randomIp())).status).toBe(200);
  });

  test('unknown accounts are limited exactly like real ones (no existence oracle)', async () => {
    const ghost = 'ghost-account@actors.test';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await login(ghost, 'Wrong-Pass1!', randomIp())).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  test('successful logins do not use up the allowance', async () => {
    const user = await insertUser(sql);
    const ip = randomIp();
    for (let i = 0; i < 8; i++)
      expect((await login(user.email, ACTOR_PASSWORD, ip)).status).toBe(200);
  });

  test('concurrent guesses are all counted (the counter is one atomic upsert)', async () => {
    const user = await insertUser(sql);
    const statuses = await Promise.all(
      Array.from(
        { length: 8 },
        async () => (await login(user.email, 'Wrong-Pass1!', randomIp())).status,
      ),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  test('the state is in PostgreSQL: another server instance sees the same counters', async () => {
    const user = await insertUser(sql);
    const { app: otherInstance } = createTestApp(sql, { identity: { limits } });
    for (let i = 0; i < 3; i++)
      expect((await login(user.email, 'Wrong-Pass1!', randomIp())).status).toBe(401);
    const response = await otherInstance.request(
      '/api/auth/login',
      jsonRequest(
        'POST',
        { email: user.email, password: ACTOR_PASSWORD },
        { 'X-Forwarded-For': randomIp() },
      ),
    );
    expect(response.status).toBe(429);
  });

  test('a window ends: counters restart after it', async () => {
    const key = `test:window:${Math.random()}`;
    const limit = { max: 1, windowSeconds: 60 };
    expect((await hitRateLimit(sql, key, limit)).allowed).toBe(true);
    expect((await hitRateLimit(sql, key, limit)).allowed).toBe(false);
    await sql`UPDATE rate_limits SET window_start = now() - interval '61 seconds' WHERE key = ${key}`;
    expect(await hitRateLimit(sql, key, limit)).toEqual({ allowed: true, hits: 1 });
  });

  test('change password counts wrong old passwords per user, apart from failed logins', async () => {
    const user = await insertUser(sql);
    const { token } = await bodyOf(login(user.email, ACTOR_PASSWORD, randomIp()));
    const change = () =>
      app.request(
        '/api/auth/password/change',
        jsonRequest(
          'POST',
          { oldPassword: WRONG, newPassword: 'Secret1!' },
          { Authorization: `Bearer ${token}` },
        ),
      );
    // Strangers locking the account's untrusted logins do not block the signed-in owner's change…
    for (let i = 0; i < 4; i++) await login(user.email, WRONG, randomIp());
    expect((await login(user.email, ACTOR_PASSWORD, randomIp())).status).toBe(429);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await change()).status);
    // …and a stolen session still cannot guess the old password without limit.
    expect(statuses).toEqual([403, 403, 403, 429]);
  });
});

describe('device cookies (OWASP): a stranger cannot lock the owner out of a known device', () => {
  const { app: defaultApp } = createTestApp(sql);

  test('with the default limits: 12 wrong passwords from random addresses lock out new clients, not the device that logged in before', async () => {
    const user = await insertUser(sql);
    const owner = deviceCookieOf(
      await login(user.email, ACTOR_PASSWORD, randomIp(), undefined, defaultApp),
    );
    expect(owner).toBeDefined();
    const flood = [];
    for (let i = 0; i < 12; i++)
      flood.push((await login(user.email, WRONG, randomIp(), undefined, defaultApp)).status);
    expect(flood).toEqual([...Array(10).fill(401), 429, 429]);

    // Protection kept: the right password from a client without a device cookie is refused.
    expect(
      (await login(user.email, ACTOR_PASSWORD, randomIp(), undefined, defaultApp)).status,
    ).toBe(429);
    // The owner's device logs in.
    const ownerAgain = await login(user.email, ACTOR_PASSWORD, randomIp(), owner, defaultApp);
    expect(ownerAgain.status).toBe(200);
    expect((await bodyOf(ownerAgain)).user.id).toBe(user.id);
    // Its success does not unlock the account for untrusted clients.
    expect(
      (await login(user.email, ACTOR_PASSWORD, randomIp(), undefined, defaultApp)).status,
    ).toBe(429);
  });

  test('the cookie: random, only its hash stored, HttpOnly, SameSite=Lax, long-lived; rotated at each login', async () => {
    const user = await insertUser(sql);
    const response = await login(user.email, ACTOR_PASSWORD, randomIp());
    const [sessionCookie, deviceCookie] = response.headers.getSetCookie();
    expect(sessionCookie).toMatch(/^skyport_session=/);
    expect(deviceCookie).toMatch(
      /^skyport_device=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const maxAge = Number(/Max-Age=(\d+)/.exec(deviceCookie!)?.[1]);
    expect(maxAge).toBeGreaterThan(LOGIN_DEVICE_TTL_SECONDS - 60);
    expect(maxAge).toBeLessThanOrEqual(LOGIN_DEVICE_TTL_SECONDS);
    const token = deviceCookieOf(response)!.split('=')[1]!;
    const rows = await deviceRows(user.id);
    expect(rows.map((r) => r.token_hash)).toEqual([hashToken(token)]);

    // A login from that device replaces its token: the old one is known no more.
    const again = await login(user.email, ACTOR_PASSWORD, randomIp(), deviceCookieOf(response));
    const rotated = deviceCookieOf(again)!;
    expect(rotated).not.toBe(deviceCookieOf(response));
    expect((await deviceRows(user.id)).map((r) => r.token_hash)).toEqual([
      hashToken(rotated.split('=')[1]!),
    ]);
  });

  test('outside localhost the device cookie is Secure with the __Host- prefix, like the session', async () => {
    const user = await insertUser(sql);
    const response = await app.request(
      'https://skyport.example/api/auth/login',
      jsonRequest(
        'POST',
        { email: user.email, password: ACTOR_PASSWORD },
        { 'X-Forwarded-For': randomIp() },
      ),
    );
    expect(response.status).toBe(200);
    const device = response.headers.getSetCookie().find((c) => c.includes('skyport_device='));
    expect(device).toMatch(
      /^__Host-skyport_device=[A-Za-z0-9_-]{43};.*Path=\/;.*HttpOnly;.*Secure;.*SameSite=Lax/,
    );
    // And it is read back under that name.
    for (let i = 0; i < 3; i++) await login(user.email, WRONG, randomIp());
    const back = await app.request(
      'https://skyport.example/api/auth/login',
      jsonRequest(
        'POST',
        { email: user.email, password: ACTOR_PASSWORD },
        { 'X-Forwarded-For': randomIp(), Cookie: device!.split(';')[0]! },
      ),
    );
    expect(back.status).toBe(200);
  });

  test('wrong passwords with a device cookie count against that device only; past its limit the cookie is revoked, the account stays open to others', async () => {
    const user = await insertUser(sql);
    const device = await knownDevice(user.email);
    // 3 failures on the device (its limit): the account's untrusted counter is not touched…
    for (let i = 0; i < 3; i++)
      expect((await login(user.email, WRONG, randomIp(), device)).status).toBe(401);
    // …so untrusted clients still have their whole allowance (3): 2 failures and a success.
    expect((await login(user.email, WRONG, randomIp())).status).toBe(401);
    expect((await login(user.email, WRONG, randomIp())).status).toBe(401);
    const other = await login(user.email, ACTOR_PASSWORD, randomIp());
    expect(other.status).toBe(200);
    const otherDevice = deviceCookieOf(other)!;
    expect(await deviceRows(user.id)).toHaveLength(2);

    // The 4th failure on the device is one too many: its token is revoked and the attempt counts
    // as untrusted (the account's untrusted counter: 2 + 1 = 3, still allowed).
    expect((await login(user.email, WRONG, randomIp(), device)).status).toBe(401);
    expect((await deviceRows(user.id)).map((r) => r.token_hash)).toEqual([
      hashToken(otherDevice.split('=')[1]!),
    ]);
    // From now on that cookie is no cookie: the right password with it meets the untrusted lockout…
    expect((await login(user.email, ACTOR_PASSWORD, randomIp(), device)).status).toBe(429);
    // …while the account's other known device logs in.
    expect((await login(user.email, ACTOR_PASSWORD, randomIp(), otherDevice)).status).toBe(200);
  });

  test('a stolen device cookie buys at most its own limit of extra guesses, even concurrently', async () => {
    const user = await insertUser(sql);
    const device = await knownDevice(user.email);
    const statuses = await Promise.all(
      Array.from(
        { length: 9 },
        async () => (await login(user.email, WRONG, randomIp(), device)).status,
      ),
    );
    // 3 on the device, then (revoked) 3 as untrusted, then refused.
    expect(statuses.filter((s) => s === 401)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    expect(await deviceRows(user.id)).toHaveLength(0);
  });

  test("a device cookie of account A does not help on account B (and B's failures do not use A's allowance)", async () => {
    const a = await insertUser(sql);
    const b = await insertUser(sql);
    const deviceOfA = await knownDevice(a.email);
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await login(b.email, WRONG, randomIp(), deviceOfA)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await login(b.email, ACTOR_PASSWORD, randomIp(), deviceOfA)).status).toBe(429);
    // A's device counter was never used: A still has its full allowance on that device.
    for (let i = 0; i < 3; i++)
      expect((await login(a.email, WRONG, randomIp(), deviceOfA)).status).toBe(401);
    expect((await login(a.email, ACTOR_PASSWORD, randomIp(), deviceOfA)).status).toBe(200);
  });

  test('a forged, malformed, expired or session token as device cookie counts as none', async () => {
    const user = await insertUser(sql);
    const device = await knownDevice(user.email);
    const session = await bodyOf(login(user.email, ACTOR_PASSWORD, randomIp()));
    await sql`UPDATE login_devices SET expires_at = now() - interval '1 second'
              WHERE token_hash = ${hashToken(device.split('=')[1]!)}`;
    for (let i = 0; i < 3; i++)
      expect((await login(user.email, WRONG, randomIp())).status).toBe(401);
    for (const cookie of [
      `skyport_device=${generateToken()}`,
      'skyport_device=not-a-token',
      `__Host-skyport_device=${generateToken()}`,
      device,
      `skyport_device=${session.token}`,
    ]) {
      expect((await login(user.email, ACTOR_PASSWORD, randomIp(), cookie)).status).toBe(429);
    }
  });

  test('a known device is not held back by a flood from its own address either', async () => {
    const user = await insertUser(sql);
    const device = await knownDevice(user.email);
    const sharedIp = randomIp();
    for (let i = 0; i < 5; i++)
      expect((await login(`nobody-shared-${i}@actors.test`, WRONG, sharedIp)).status).toBe(401);
    expect((await login(user.email, ACTOR_PASSWORD, sharedIp)).status).toBe(429);
    expect((await login(user.email, ACTOR_PASSWORD, sharedIp, device)).status).toBe(200);
  });

  test(`an account keeps its ${LOGIN_DEVICES_PER_USER} newest devices; expired ones go`, async () => {
    const user = await insertUser(sql);
    await sql`
      INSERT INTO login_devices (token_hash, user_id, created_at, expires_at)
      SELECT sha256(('old-' || i)::bytea), ${user.id}, now() - make_interval(days => i), now() + interval '1 day'
      FROM generate_series(1, ${LOGIN_DEVICES_PER_USER}) AS i`;
    await sql`
      INSERT INTO login_devices (token_hash, user_id, expires_at)
      VALUES (sha256('expired'::bytea), ${user.id}, now() - interval '1 second')`;
    const device = await knownDevice(user.email);
    const rows = await deviceRows(user.id);
    expect(rows).toHaveLength(LOGIN_DEVICES_PER_USER);
    expect(rows.map((r) => r.token_hash)).toContainEqual(hashToken(device.split('=')[1]!));
    expect(rows.every((r) => r.expires_at.getTime() > Date.now())).toBe(true);
    const [oldest] = await sql`
      SELECT 1 FROM login_devices WHERE token_hash = sha256(('old-' || ${LOGIN_DEVICES_PER_USER})::bytea)`;
    expect(oldest).toBeUndefined();
  });
});

describe('password reset request limits', () => {
  test('per address of the account, with the same answer for unknown ones', async () => {
    for (const email of [actors.customer.email!, 'unknown-reset@actors.test']) {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push(
          (
            await app.request(
              '/api/auth/password/forgot',
              jsonRequest('POST', { email }, { 'X-Forwarded-For': randomIp() }),
            )
          ).status,
        );
      }
      expect(statuses).toEqual([202, 202, 429]);
    }
    await background.settled();
  });
});
