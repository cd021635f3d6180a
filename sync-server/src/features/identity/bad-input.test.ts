import { describe, expect, test } from 'vitest';
import { MAX_BODY_BYTES } from '../../app.ts';
import { bodyOf, createTestHarness, randomIp } from '../../test/harness.ts';
import { snapshot } from './testing.ts';

/**
 * Bad input to every identity and admin route: malformed JSON, wrong types, oversized bodies,
 * unknown fields, unknown ids → a 4xx with a clear message, and not one row written.
 */

const { sql, app, background, actors } = await createTestHarness({ actors: true });

type Who = 'guest' | 'customer' | 'superAdmin' | 'airline';
interface BodyRoute {
  method: string;
  path: string;
  as: Who;
  /** A body of the right shape but wrong types. */
  wrongTypes: unknown;
}

const BODY_ROUTES: BodyRoute[] = [
  {
    method: 'POST',
    path: '/api/auth/register',
    as: 'guest',
    wrongTypes: {
      name: 1,
      lastName: [],
      image: {},
      email: true,
      phone: 5,
      password: null,
      confirmPassword: 1,
    },
  },
  {
    method: 'POST',
    path: '/api/auth/register/airline',
    as: 'guest',
    wrongTypes: { name: 'Sky', terms: 'yes' },
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    as: 'guest',
    wrongTypes: { email: ['a@b.io'], password: 12345678 },
  },
  { method: 'POST', path: '/api/auth/verify-email', as: 'guest', wrongTypes: { token: 42 } },
  {
    method: 'POST',
    path: '/api/auth/password/forgot',
    as: 'guest',
    wrongTypes: { email: { $ne: null } },
  },
  {
    method: 'POST',
    path: '/api/auth/password/reset',
    as: 'guest',
    wrongTypes: { token: null, password: false },
  },
  {
    method: 'POST',
    path: '/api/auth/password/change',
    as: 'customer',
    wrongTypes: { oldPassword: 1, newPassword: 2 },
  },
  {
    method: 'POST',
    path: '/api/user/create',
    as: 'superAdmin',
    wrongTypes: { email: 'x@y.io', name: 7, uid: {} },
  },
  { method: 'PUT', path: '/api/user/verificateEmail', as: 'customer', wrongTypes: { email: 1 } },
  { method: 'PUT', path: '/api/user/update', as: 'superAdmin', wrongTypes: { email: ['x'] } },
  {
    method: 'PUT',
    path: '/api/user/disableUser',
    as: 'superAdmin',
    wrongTypes: { uid: 1, disabled: 'no' },
  },
  { method: 'POST', path: '/api/airlines', as: 'airline', wrongTypes: { name: 1, image: 2 } },
];

function headersFor(who: Who): Record<string, string> {
  return who === 'guest' ? {} : actors[who].headers();
}

async function send(
  route: { method: string; path: string; as: Who },
  body: string | undefined,
  contentType = 'application/json',
) {
  const headers: Record<string, string> = {
    ...headersFor(route.as),
    'X-Forwarded-For': randomIp(),
  };
  if (body !== undefined) headers['Content-Type'] = contentType;
  const response = await app.request(route.path, { method: route.method, headers, body });
  await background.settled();
  return response;
}

async function expectRefusedWithoutWrites(make: () => Promise<Response>, status: number) {
  const before = await snapshot(sql, { withRateLimits: true });
  const response = await make();
  expect(response.status).toBe(status);
  const body = await bodyOf(response);
  expect(typeof body.code).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(await snapshot(sql, { withRateLimits: true })).toEqual(before);
  return body;
}

describe.each(BODY_ROUTES)('$method $path', (route) => {
  test('malformed JSON → 400', async () => {
    const body = await expectRefusedWithoutWrites(() => send(route, '{"email": "a@b.io",'), 400);
    expect(body.message).toBe('Malformed JSON in request body');
  });

  test('wrong types → 400 naming the field', async () => {
    const body = await expectRefusedWithoutWrites(
      () => send(route, JSON.stringify(route.wrongTypes)),
      400,
    );
    expect(body.details.length).toBeGreaterThan(0);
  });

  test('not an object → 400', async () => {
    await expectRefusedWithoutWrites(() => send(route, '[1,2,3]'), 400);
    await expectRefusedWithoutWrites(() => send(route, 'null'), 400);
  });

  test('no body, or not JSON → 400', async () => {
    await expectRefusedWithoutWrites(() => send(route, undefined), 400);
    await expectRefusedWithoutWrites(() => send(route, 'email=a@b.io', 'text/plain'), 400);
  });

  test(`a body over ${MAX_BODY_BYTES} bytes → 413`, async () => {
    const huge = JSON.stringify({ email: 'a@b.io', padding: 'x'.repeat(MAX_BODY_BYTES) });
    const body = await expectRefusedWithoutWrites(() => send(route, huge), 413);
    expect(body.code).toBe('payload_too_large');
  });
});

describe('path parameters and unknown ids', () => {
  test.each([
    ['POST', '/api/user/resetPassword/not-an-email', 'guest', 400],
    ['DELETE', '/api/user/delete/not-an-email', 'superAdmin', 400],
    ['DELETE', '/api/user/delete/nobody%40nowhere.test', 'superAdmin', 404],
    ['DELETE', `/api/user/auth/${'x'.repeat(200)}`, 'superAdmin', 400],
    ['DELETE', "/api/user/auth/a'%20OR%201=1", 'superAdmin', 400],
    ['DELETE', '/api/user/auth/unknownUid', 'superAdmin', 404],
    ['DELETE', '/api/airlines/delete/1', 'superAdmin', 400],
    ['DELETE', '/api/airlines/delete/00000000-0000-4000-8000-000000000000', 'superAdmin', 404],
  ] as const)('%s %s → %i', async (method, path, as, status) => {
    await expectRefusedWithoutWrites(() => send({ method, path, as }, undefined), status);
  });

  test.each([
    ['PUT', '/api/user/update', { email: 'nobody@nowhere.test' }, 404],
    ['PUT', '/api/user/disableUser', { uid: 'unknownUid' }, 404],
    [
      'POST',
      '/api/airlines',
      {
        name: 'Ghost Air',
        image: 'https://images.test/g.png',
        userId: '00000000-0000-4000-8000-000000000000',
      },
      404,
    ],
  ] as const)('%s %s with an unknown target → %i', async (method, path, body, status) => {
    await expectRefusedWithoutWrites(
      () => send({ method, path, as: 'superAdmin' }, JSON.stringify(body)),
      status,
    );
  });

  test('GET /user with an unknown filter → 400', async () => {
    await expectRefusedWithoutWrites(
      () => send({ method: 'GET', path: '/api/user?role=admin', as: 'superAdmin' }, undefined),
      400,
    );
    await expectRefusedWithoutWrites(
      () => send({ method: 'GET', path: '/api/user?drop=1', as: 'superAdmin' }, undefined),
      400,
    );
  });
});

describe('values that must not reach the database', () => {
  test('SQL-looking and oversized values are refused by the schemas', async () => {
    const route = { method: 'POST', path: '/api/auth/login', as: 'guest' as const };
    await expectRefusedWithoutWrites(
      () => send(route, JSON.stringify({ email: "a@b.io' OR '1'='1", password: 'x' })),
      400,
    );
    await expectRefusedWithoutWrites(
      () => send(route, JSON.stringify({ email: 'a@b.io', password: 'x'.repeat(10_000) })),
      400,
    );
  });

  test('a Bearer token that is not ours is a guest', async () => {
    for (const token of ["x' OR '1'='1", '../../etc/passwd', 'ä'.repeat(43), 'A'.repeat(5000)]) {
      const response = await app.request('/api/auth/me', {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(401);
    }
  });
});
