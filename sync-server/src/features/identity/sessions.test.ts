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
import { ACTOR_PASSWORD, insertUser, TEST_ORIGIN } from '../../test/actors.ts';
import { hashToken } from './tokens.ts';
import { sessionCookieOf } from './testing.ts';

const { sql, app, actors } = await createTestHarness({ actors: true });

function loginAs(email: string, password = ACTOR_PASSWORD, headers: Record<string, string> = {}) {
  return app.request(
    '/api/auth/login',
    jsonRequest('POST', { email, password }, { 'X-Forwarded-For': randomIp(), ...headers }),
  );
}

async function me(headers: Record<string, string>) {
  return app.request('/api/auth/me', { headers });
}

describe('login', () => {
  test('returns the user with role, airline status and verified flag, a token, and sets the cookie', async () => {
    const response = await loginAs(actors.airline.email!);
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body.user).toMatchObject({
      email: actors.airline.email,
      role: 'airline',
      airlineStatus: 'approved',
      emailVerified: true,
      airlineId: actors.airline.airlineId,
      permissions: true,
      empresa: true,
    });
    expect(body.user).not.toHaveProperty('passwordHash');
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.expiresAt).toBeGreaterThan(Date.now());

    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`skyport_session=${body.token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    // On localhost the cookie is not Secure (plain http); elsewhere it is (next test).
    expect(cookie).not.toMatch(/Secure/i);
  });

  test('outside localhost the cookie is Secure with the __Host- prefix', async () => {
    const response = await app.request(
      'https://skyport.example/api/auth/login',
      jsonRequest(
        'POST',
        { email: actors.customer.email, password: ACTOR_PASSWORD },
        { 'X-Forwarded-For': randomIp() },
      ),
    );
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^__Host-skyport_session=/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/HttpOnly/);
  });

  test('only the SHA-256 of the token is stored', async () => {
    const { token } = await bodyOf(loginAs(actors.customer.email!));
    const rows = await sql`SELECT token_hash FROM sessions WHERE token_hash = ${hashToken(token)}`;
    expect(rows).toHaveLength(1);
    const plain = await sql`SELECT 1 FROM sessions WHERE encode(token_hash, 'escape') = ${token}`;
    expect(plain).toHaveLength(0);
  });

  test('wrong password, unknown account and password-less account get the same answer', async () => {
    const googleOnly = await insertUser(sql, { withPassword: false });
    const answers = await Promise.all([
      loginAs(actors.customer.email!, 'Wrong-Pass1!'),
      loginAs('nobody-here@actors.test'),
      loginAs(googleOnly.email),
    ]);
    for (const response of answers) {
      expect(response.status).toBe(401);
      expect(await bodyOf(response)).toEqual(
        errorBody('unauthenticated', messages.invalidCredentials),
      );
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  test('email is matched without regard to case', async () => {
    expect((await loginAs(actors.customer.email!.toUpperCase())).status).toBe(200);
  });

  test('a disabled user cannot log in, even with the right password', async () => {
    const response = await loginAs(actors.disabledUser.email!);
    expect(response.status).toBe(403);
    expect((await bodyOf(response)).message).toBe(messages.accountDisabled);
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

describe('sessions', () => {
  test('the token works as a Bearer token and as the cookie', async () => {
    const { token, user } = await bodyOf(loginAs(actors.customer.email!));
    const viaBearer = await me({ Authorization: `Bearer ${token}` });
    expect(viaBearer.status).toBe(200);
    expect((await bodyOf(viaBearer)).user.id).toBe(user.id);
    const viaCookie = await me({ Cookie: `skyport_session=${token}` });
    expect(viaCookie.status).toBe(200);
    expect(viaCookie.headers.get('cache-control')).toBe('no-store');
  });

  test('a guest gets 401 from /auth/me', async () => {
    const response = await me({});
    expect(response.status).toBe(401);
    expect((await bodyOf(response)).code).toBe('unauthenticated');
  });

  test('garbage, unknown and malformed tokens are guests', async () => {
    const garbage: Record<string, string>[] = [
      { Authorization: 'Bearer nope' },
      { Authorization: `Bearer ${'A'.repeat(43)}` },
      { Authorization: 'Basic dXNlcjpwYXNz' },
      { Cookie: 'skyport_session=%00%01' },
    ];
    for (const headers of garbage) {
      expect((await me(headers)).status).toBe(401);
    }
  });

  test('a new token at every login; the previous session of that browser ends (rotation)', async () => {
    const first = await loginAs(actors.customer.email!);
    const firstToken = (await bodyOf(first)).token as string;
    const firstCookie = sessionCookieOf(first)!;

    const second = await loginAs(actors.customer.email!, ACTOR_PASSWORD, {
      Cookie: firstCookie,
      Origin: TEST_ORIGIN,
    });
    expect(second.status).toBe(200);
    const secondToken = (await bodyOf(second)).token as string;
    expect(secondToken).not.toBe(firstToken);

    expect((await me({ Authorization: `Bearer ${firstToken}` })).status).toBe(401);
    expect((await me({ Authorization: `Bearer ${secondToken}` })).status).toBe(200);
  });

  test('a session expires', async () => {
    const { token } = await bodyOf(loginAs(actors.customer.email!));
    expect((await me({ Authorization: `Bearer ${token}` })).status).toBe(200);
    await sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = ${hashToken(token)}`;
    expect((await me({ Authorization: `Bearer ${token}` })).status).toBe(401);
  });

  test('the configured lifetime sets the expiry and the cookie Max-Age', async () => {
    const { app: shortApp } = createTestApp(sql, { identity: { sessionTtlSeconds: 120 } });
    const response = await shortApp.request(
      '/api/auth/login',
      jsonRequest(
        'POST',
        { email: actors.customer.email, password: ACTOR_PASSWORD },
        { 'X-Forwarded-For': randomIp() },
      ),
    );
    const body = await bodyOf(response);
    expect(body.expiresAt - Date.now()).toBeLessThanOrEqual(120_000);
    expect(body.expiresAt - Date.now()).toBeGreaterThan(100_000);
    expect(response.headers.get('set-cookie')).toMatch(/Max-Age=1[12]\d/);
  });

  test('logout ends the session and clears the cookie', async () => {
    const login = await loginAs(actors.customer.email!);
    const { token } = await bodyOf(login);
    const cookie = sessionCookieOf(login)!;
    const logout = await app.request('/api/auth/logout', {
      method: 'POST',
      headers: { Cookie: cookie, Origin: TEST_ORIGIN },
    });
    expect(logout.status).toBe(204);
    expect(logout.headers.get('set-cookie')).toMatch(/skyport_session=;.*Max-Age=0/);
    expect((await me({ Authorization: `Bearer ${token}` })).status).toBe(401);
    expect(await sql`SELECT 1 FROM sessions WHERE token_hash = ${hashToken(token)}`).toHaveLength(
      0,
    );
  });

  test('logout with a Bearer token ends that session only', async () => {
    const a = (await bodyOf(loginAs(actors.superAdmin.email!))).token as string;
    const b = (await bodyOf(loginAs(actors.superAdmin.email!))).token as string;
    expect(
      (
        await app.request('/api/auth/logout', {
          method: 'POST',
          headers: { Authorization: `Bearer ${a}` },
        })
      ).status,
    ).toBe(204);
    expect((await me({ Authorization: `Bearer ${a}` })).status).toBe(401);
    expect((await me({ Authorization: `Bearer ${b}` })).status).toBe(200);
  });

  test('disabling a user ends all its sessions at once', async () => {
    const user = await insertUser(sql);
    const tokens = await Promise.all(
      [1, 2, 3].map(async () => (await bodyOf(loginAs(user.email))).token as string),
    );
    for (const token of tokens)
      expect((await me({ Authorization: `Bearer ${token}` })).status).toBe(200);
    const disable = await app.request(
      '/api/user/disableUser',
      jsonRequest('PUT', { uid: user.uid }, actors.superAdmin.headers()),
    );
    expect(disable.status).toBe(200);
    expect((await bodyOf(disable)).disabled).toBe(true);
    for (const token of tokens)
      expect((await me({ Authorization: `Bearer ${token}` })).status).toBe(401);
    expect(await sql`SELECT 1 FROM sessions WHERE user_id = ${user.id}`).toHaveLength(0);
    expect((await loginAs(user.email)).status).toBe(403);
  });

  test('the disabled fixture user holds a token that no longer works', async () => {
    expect(actors.disabledUser.token).toBeTruthy();
    expect((await me(actors.disabledUser.headers())).status).toBe(401);
  });

  test('a deleted user is signed out everywhere', async () => {
    const user = await insertUser(sql);
    const { token } = await bodyOf(loginAs(user.email));
    const response = await app.request(`/api/user/delete/${encodeURIComponent(user.email)}`, {
      method: 'DELETE',
      headers: actors.superAdmin.headers(),
    });
    expect(response.status).toBe(200);
    expect((await me({ Authorization: `Bearer ${token}` })).status).toBe(401);
    expect((await loginAs(user.email)).status).toBe(401);
  });
});
