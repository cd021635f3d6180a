import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { bodyOf, createTestHarness, randomIp } from '../../test/harness.ts';
import {
  ACTOR_NAMES,
  ACTOR_PASSWORD,
  insertUser,
  type Actor,
  type ActorName,
} from '../../test/actors.ts';
import { createSession } from './sessions.ts';
import { snapshot } from './testing.ts';

/**
 * Every route of issue 3 × every kind of caller → the expected status, over both transports
 * (Bearer token, and session cookie with a same-site Origin). A refused call (401/403) must also
 * leave every identity table exactly as it was.
 */

const { sql, app, background, actors } = await createTestHarness({ actors: true });

type Statuses = Record<ActorName, number>;

function everyone(status: number): Statuses {
  return Object.fromEntries(ACTOR_NAMES.map((name) => [name, status])) as Statuses;
}
/** Signed-in callers get `status`; a guest, and the disabled user whose session ended, get 401. */
function signedIn(status: number, overrides: Partial<Statuses> = {}): Statuses {
  return { ...everyone(status), guest: 401, disabledUser: 401, ...overrides };
}
/** Only the super administrator. */
function superAdminOnly(status: number): Statuses {
  return signedIn(403, { superAdmin: status });
}

interface Call {
  method: string;
  path: string;
  body?: unknown;
  /** Replaces the actor's session (for calls that end it). */
  token?: string | null;
}

interface RouteCase {
  route: string;
  expect: Statuses;
  prepare: (actor: Actor) => Promise<Call> | Call;
}

const unique = () => randomBytes(5).toString('hex');
const letters = (hex: string) => hex.replace(/\d/g, (d) => 'ghijklmnop'[Number(d)] ?? 'x');
const registration = () => ({
  name: `Ana ${letters(unique())}`,
  lastName: 'Tester',
  image: 'https://images.test/face.png',
  email: `new-${unique()}@actors.test`,
  phone: '+123 456 7890',
  password: 'Secret1!',
  confirmPassword: 'Secret1!',
});

const ROUTES: RouteCase[] = [
  {
    route: 'POST /auth/register',
    expect: everyone(202),
    prepare: () => ({ method: 'POST', path: '/api/auth/register', body: registration() }),
  },
  {
    route: 'POST /auth/register/airline',
    expect: everyone(202),
    prepare: () => ({
      method: 'POST',
      path: '/api/auth/register/airline',
      body: { ...registration(), image: 'https://images.test/logo.png', terms: true },
    }),
  },
  {
    route: 'POST /auth/login (own credentials)',
    expect: { ...everyone(200), guest: 401, disabledUser: 403 },
    prepare: (actor) => ({
      method: 'POST',
      path: '/api/auth/login',
      body: { email: actor.email ?? 'nobody@actors.test', password: ACTOR_PASSWORD },
      // Without the fixture's session: a login ends the session it replaces (rotation).
      token: null,
    }),
  },
  {
    route: 'POST /auth/logout',
    expect: everyone(204),
    prepare: async (actor) => ({
      method: 'POST',
      path: '/api/auth/logout',
      // A session of its own, so that the fixture's session survives for the other routes.
      token:
        actor.user && !actor.user.disabled
          ? (await createSession(sql, actor.user.id, 600)).token
          : actor.token,
    }),
  },
  {
    route: 'GET /auth/me',
    expect: signedIn(200),
    prepare: () => ({ method: 'GET', path: '/api/auth/me' }),
  },
  {
    route: 'POST /auth/verify-email (unknown token)',
    expect: everyone(400),
    prepare: () => ({
      method: 'POST',
      path: '/api/auth/verify-email',
      body: { token: randomBytes(32).toString('base64url') },
    }),
  },
  {
    route: 'POST /auth/verify-email/resend',
    expect: signedIn(409, { unverifiedCustomer: 202 }),
    prepare: () => ({ method: 'POST', path: '/api/auth/verify-email/resend' }),
  },
  {
    route: 'POST /auth/password/forgot',
    expect: everyone(202),
    prepare: (actor) => ({
      method: 'POST',
      path: '/api/auth/password/forgot',
      body: { email: actor.email ?? 'nobody@actors.test' },
    }),
  },
  {
    route: 'POST /auth/password/reset (unknown token)',
    expect: everyone(400),
    prepare: () => ({
      method: 'POST',
      path: '/api/auth/password/reset',
      body: { token: randomBytes(32).toString('base64url'), password: 'Secret1!' },
    }),
  },
  {
    route: 'POST /auth/password/change (wrong old password)',
    expect: signedIn(403),
    prepare: () => ({
      method: 'POST',
      path: '/api/auth/password/change',
      body: { oldPassword: 'Not-The-Pass1!', newPassword: 'Secret1!' },
    }),
  },
  {
    route: 'POST /auth/firebase (not configured)',
    expect: everyone(404),
    prepare: () => ({ method: 'POST', path: '/api/auth/firebase', body: { idToken: 'a.b.c' } }),
  },
  {
    route: 'GET /user',
    expect: superAdminOnly(200),
    prepare: () => ({ method: 'GET', path: '/api/user' }),
  },
  {
    route: 'GET /user/firebase',
    expect: superAdminOnly(200),
    prepare: () => ({ method: 'GET', path: '/api/user/firebase' }),
  },
  {
    route: 'POST /user/create',
    expect: superAdminOnly(201),
    prepare: () => ({
      method: 'POST',
      path: '/api/user/create',
      body: {
        email: `made-${unique()}@actors.test`,
        name: 'Made By Admin',
        uid: `uid${unique()}`,
        img: 'https://images.test/p.png',
        phone: '1234567890',
      },
    }),
  },
  {
    route: 'PUT /user/verificateEmail (own email)',
    expect: signedIn(200, { unverifiedCustomer: 403 }),
    prepare: (actor) => ({
      method: 'PUT',
      path: '/api/user/verificateEmail',
      body: { email: actor.email ?? 'nobody@actors.test' },
    }),
  },
  {
    route: 'PUT /user/verificateEmail (someone else\u2019s email)',
    expect: signedIn(403),
    prepare: () => ({
      method: 'PUT',
      path: '/api/user/verificateEmail',
      body: { email: actors.unverifiedCustomer.email },
    }),
  },
  {
    route: 'POST /user/resetPassword/{email}',
    expect: everyone(202),
    prepare: (actor) => ({
      method: 'POST',
      path: `/api/user/resetPassword/${encodeURIComponent(actor.email ?? 'nobody@actors.test')}`,
    }),
  },
  {
    route: 'PUT /user/update (approve a pending airline)',
    expect: superAdminOnly(200),
    prepare: async () => {
      const target = await insertUser(sql, {
        role: 'airline',
        airlineStatus: 'pending',
        withPassword: false,
      });
      return { method: 'PUT', path: '/api/user/update', body: { email: target.email } };
    },
  },
  {
    route: 'DELETE /user/delete/{email}',
    expect: superAdminOnly(200),
    prepare: async () => {
      const target = await insertUser(sql, { withPassword: false });
      return { method: 'DELETE', path: `/api/user/delete/${encodeURIComponent(target.email)}` };
    },
  },
  {
    route: 'DELETE /user/auth/{uid}',
    expect: superAdminOnly(200),
    prepare: async () => {
      const target = await insertUser(sql, { withPassword: false });
      return { method: 'DELETE', path: `/api/user/auth/${target.uid}` };
    },
  },
  {
    route: 'PUT /user/disableUser',
    expect: superAdminOnly(200),
    prepare: async () => {
      const target = await insertUser(sql, { withPassword: false });
      return { method: 'PUT', path: '/api/user/disableUser', body: { uid: target.uid } };
    },
  },
  {
    route: 'POST /airlines (own airline; admin: a new one)',
    expect: signedIn(403, { airline: 200, otherAirline: 200, superAdmin: 201 }),
    prepare: () => ({
      method: 'POST',
      path: '/api/airlines',
      body: { name: 'Sky Line', image: 'https://images.test/logo.png' },
    }),
  },
  {
    route: 'POST /airlines (the approved airline\u2019s airline)',
    expect: signedIn(403, { airline: 200, superAdmin: 200 }),
    prepare: () => ({
      method: 'POST',
      path: '/api/airlines',
      body: {
        name: 'Sky Line',
        image: 'https://images.test/logo.png',
        userId: actors.airline.user?.id,
      },
    }),
  },
  {
    route: 'DELETE /airlines/delete/{id}',
    expect: superAdminOnly(200),
    prepare: async () => {
      const [airline] = await sql<
        { id: string }[]
      >`INSERT INTO airlines (name) VALUES ('Doomed Air') RETURNING id`;
      return { method: 'DELETE', path: `/api/airlines/delete/${airline!.id}` };
    },
  },
  {
    route: 'DELETE /airlines/delete/{id} (the approved airline\u2019s own)',
    expect: superAdminOnly(200),
    prepare: async () => {
      const owner = await insertUser(sql, {
        role: 'airline',
        airlineStatus: 'approved',
        withPassword: false,
      });
      return { method: 'DELETE', path: `/api/airlines/delete/${owner.airlineId}` };
    },
  },
  {
    route: 'GET /admin/outbox (holds live verification and reset links)',
    expect: superAdminOnly(200),
    prepare: () => ({ method: 'GET', path: '/api/admin/outbox' }),
  },
];

function request(call: Call, actor: Actor, via: 'bearer' | 'cookie') {
  const token = call.token === undefined ? actor.token : call.token;
  const auth: Record<string, string> =
    token === null
      ? via === 'cookie'
        ? { Origin: 'http://localhost' }
        : {}
      : via === 'cookie'
        ? { Cookie: `skyport_session=${token}`, Origin: 'http://localhost' }
        : { Authorization: `Bearer ${token}` };
  const headers: Record<string, string> = { ...auth, 'X-Forwarded-For': randomIp() };
  if (call.body !== undefined) headers['Content-Type'] = 'application/json';
  return app.request(call.path, {
    method: call.method,
    headers,
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
}

const cases = ROUTES.flatMap((route) =>
  ACTOR_NAMES.map((actor) => ({ ...route, actor, status: route.expect[actor] })),
);

for (const via of ['bearer', 'cookie'] as const) {
  describe(`authorization matrix (${via})`, () => {
    test.each(cases)('$route as $actor → $status', async ({ prepare, actor, status }) => {
      const call = await prepare(actors[actor]);
      const before = await snapshot(sql);
      const response = await request(call, actors[actor], via);
      await background.settled();
      expect(response.status, await response.clone().text()).toBe(status);
      if (status === 401 || status === 403) {
        const body = await bodyOf(response);
        expect(body.code).toBe(status === 401 ? 'unauthenticated' : 'forbidden');
        // Refused calls write nothing (rate-limit counters aside: a failed login is counted).
        expect(await snapshot(sql)).toEqual(before);
      }
    });
  });
}

test('the matrix covers every identity, admin and dev route the app serves', () => {
  const served = app.routes
    .filter((r) => r.method !== 'ALL' && /^\/api\/(auth|user|airlines|dev)/.test(r.path))
    .map((r) => `${r.method} ${r.path.replace(/^\/api/, '')}`);
  const covered = new Set(
    ROUTES.map((r) =>
      r.route
        .split(' ')
        .slice(0, 2)
        .join(' ')
        .replace(/\{(\w+)\}/g, ':$1'),
    ),
  );
  // The public catalogue's GET /airlines belongs to the catalogue's own tests.
  const uncovered = [...new Set(served)].filter(
    (route) => !covered.has(route) && route !== 'GET /airlines',
  );
  expect(served.length).toBeGreaterThanOrEqual(23);
  expect(uncovered).toEqual([]);
});
