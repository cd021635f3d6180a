import { describe, expect, test } from 'vitest';
import { bodyOf, createTestHarness, randomIp } from '../../test/harness.ts';
import { ACTOR_PASSWORD, insertUser, type Actor } from '../../test/actors.ts';
import { snapshot } from './testing.ts';

const { sql, app, actors } = await createTestHarness({
  actors: true,
  identity: { appOrigins: ['https://app.skyport.example'] },
});

const cookieOf = (actor: Actor) => `skyport_session=${actor.token}`;

async function disableAsAdmin(uid: string, headers: Record<string, string>) {
  return app.request('/api/user/disableUser', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ uid }),
  });
}

async function stillSignedIn(actor: Actor) {
  return (await app.request('/api/auth/me', { headers: actor.headers() })).status === 200;
}

describe('cookie-authenticated state-changing requests', () => {
  test.each([
    ['no Origin and no Referer', {}],
    ['a foreign Origin', { Origin: 'https://evil.example' }],
    ['Origin "null" (sandboxed frame, data: URL)', { Origin: 'null' }],
    ['a foreign Referer and no Origin', { Referer: 'https://evil.example/attack.html' }],
    ['a look-alike Origin', { Origin: 'http://localhost.evil.example' }],
    ['the right host on another port', { Origin: 'http://localhost:6666' }],
  ])('are refused with %s, and write nothing', async (_label, extra) => {
    const target = await insertUser(sql, { withPassword: false });
    const before = await snapshot(sql);
    const response = await disableAsAdmin(target.uid, {
      Cookie: cookieOf(actors.superAdmin),
      ...extra,
    });
    expect(response.status).toBe(403);
    expect(await bodyOf(response)).toMatchObject({
      code: 'forbidden',
      details: { reason: 'csrf' },
    });
    expect(await snapshot(sql)).toEqual(before);
  });

  test('a form-encoded cross-site POST (no preflight) is refused too', async () => {
    const response = await app.request('/api/auth/logout', {
      method: 'POST',
      headers: {
        Cookie: cookieOf(actors.customer),
        Origin: 'https://evil.example',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'a=1',
    });
    expect(response.status).toBe(403);
    expect(await stillSignedIn(actors.customer)).toBe(true);
  });

  test('pass with the API origin, a configured app origin, or a same-origin Referer', async () => {
    const sources: Record<string, string>[] = [
      { Origin: 'http://localhost' },
      { Origin: 'https://app.skyport.example' },
      { Referer: 'http://localhost/userManagement' },
    ];
    for (const extra of sources) {
      const target = await insertUser(sql, { withPassword: false });
      const response = await disableAsAdmin(target.uid, {
        Cookie: cookieOf(actors.superAdmin),
        ...extra,
      });
      expect(response.status).toBe(200);
    }
  });

  test('safe methods need no Origin', async () => {
    const response = await app.request('/api/auth/me', {
      headers: { Cookie: cookieOf(actors.customer) },
    });
    expect(response.status).toBe(200);
  });
});

describe('Bearer requests', () => {
  test('are exempt: a browser never attaches the header by itself', async () => {
    const target = await insertUser(sql, { withPassword: false });
    const response = await disableAsAdmin(target.uid, actors.superAdmin.headers('bearer'));
    expect(response.status).toBe(200);
  });

  test('a request with an Authorization header never falls back to the cookie', async () => {
    const response = await app.request('/api/auth/me', {
      headers: { Authorization: 'Basic Zm9vOmJhcg==', Cookie: cookieOf(actors.customer) },
    });
    expect(response.status).toBe(401);
  });
});

describe('login CSRF', () => {
  test('a cross-site login form is refused even without a cookie', async () => {
    const response = await app.request('/api/auth/login', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: 'https://evil.example',
        'X-Forwarded-For': randomIp(),
      },
      body: JSON.stringify({ email: actors.customer.email, password: ACTOR_PASSWORD }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  test('an API client without Origin and without cookie may log in', async () => {
    const response = await app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': randomIp() },
      body: JSON.stringify({ email: actors.customer.email, password: ACTOR_PASSWORD }),
    });
    expect(response.status).toBe(200);
  });
});
