import { messages } from '@skyport/shared';
import { beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from '../../test/database.ts';
import {
  ACTOR_PASSWORD,
  createActors,
  insertUser,
  type Actor,
  type ActorName,
} from '../../test/actors.ts';
import { hitRateLimit } from './rate-limit.ts';
import { createTestApp, json, randomIp, bodyOf } from './testing.ts';

const { sql } = await createTestDatabase();
const limits = {
  loginPerAccount: { max: 3, windowSeconds: 900 },
  loginPerIp: { max: 5, windowSeconds: 900 },
  passwordResetPerEmail: { max: 2, windowSeconds: 3600 },
  passwordResetPerIp: { max: 3, windowSeconds: 3600 },
};
const { app, background } = createTestApp(sql, { identity: { limits } });
let actors: Record<ActorName, Actor>;

beforeAll(async () => {
  actors = await createActors(sql);
});

function login(email: string, password: string, ip: string) {
  return app.request(
    '/api/auth/login',
    json('POST', { email, password }, { 'X-Forwarded-For': ip }),
  );
}

describe('login rate limiting', () => {
  test('per account: after 3 failures from anywhere the account is locked for the window, even with the right password', async () => {
    const user = await insertUser(sql);
    for (let i = 0; i < 3; i++)
      expect((await login(user.email, 'Wrong-Pass1!', randomIp())).status).toBe(401);
    const locked = await login(user.email, ACTOR_PASSWORD, randomIp());
    expect(locked.status).toBe(429);
    expect(await bodyOf(locked)).toEqual({
      code: 'too_many_requests',
      message: messages.tooManyAttempts,
      requestId: expect.any(String),
    });
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
      json(
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

  test('change password counts wrong old passwords against the account', async () => {
    const user = await insertUser(sql);
    const { token } = await bodyOf(login(user.email, ACTOR_PASSWORD, randomIp()));
    const change = () =>
      app.request(
        '/api/auth/password/change',
        json(
          'POST',
          { oldPassword: 'Wrong-Pass1!', newPassword: 'Secret1!' },
          { Authorization: `Bearer ${token}` },
        ),
      );
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await change()).status);
    expect(statuses).toEqual([403, 403, 403, 429]);
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
              json('POST', { email }, { 'X-Forwarded-For': randomIp() }),
            )
          ).status,
        );
      }
      expect(statuses).toEqual([202, 202, 429]);
    }
    await background.settled();
  });
});
