import { messages } from '@skyport/shared';
import { beforeAll, describe, expect, test } from 'vitest';
import { bodyOf, createTestHarness, jsonRequest, randomIp } from '../../test/harness.ts';
import { ACTOR_PASSWORD, insertUser } from '../../test/actors.ts';
import { createSession } from '../identity/sessions.ts';
import { snapshot, tokenFromMail } from '../identity/testing.ts';

const { sql, app, background, actors } = await createTestHarness({ actors: true });
let admin: Record<string, string>;

beforeAll(async () => {
  admin = actors.superAdmin.headers();
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = admin,
) {
  const response = await app.request(
    path,
    body === undefined
      ? { method, headers: { ...headers, 'X-Forwarded-For': randomIp() } }
      : jsonRequest(method, body, { ...headers, 'X-Forwarded-For': randomIp() }),
  );
  await background.settled();
  return response;
}

/** A flight of `airlineId`, bought by `userId` (order, line, sale) and reviewed, plus favourite and cart rows. */
async function purchaseHistory(airlineId: string, userId: string) {
  const [flight] = await sql<{ id: string }[]>`
    INSERT INTO flights (airline_id, airline_name, origin, destination, departure_date, departure_hour,
                         arrival_date, arrival_hour, duration_estimated, price_cents, tickets)
    VALUES (${airlineId}, 'Actor Air', 'Chile', 'Peru', '2031-01-01', '10:00', '2031-01-01', '12:00', '02:00', 150000, 40)
    RETURNING id`;
  const [order] = await sql<{ id: string }[]>`
    INSERT INTO orders (user_id, payment_id, subtotal_cents, fee_cents, total_cents)
    VALUES (${userId}, 'pay_1', 150000, 150, 150150) RETURNING id`;
  const [line] = await sql<{ id: string }[]>`
    INSERT INTO order_lines (order_id, flight_id, airline_id, amount, unit_price_cents, airline_name, origin, destination, departure_hour, arrival_hour)
    VALUES (${order!.id}, ${flight!.id}, ${airlineId}, 1, 150000, 'Actor Air', 'Chile', 'Peru', '10:00', '12:00') RETURNING id`;
  await sql`INSERT INTO sales (airline_id, flight_id, order_line_id, unit_price_cents, amount) VALUES (${airlineId}, ${flight!.id}, ${line!.id}, 150000, 1)`;
  await sql`INSERT INTO reviews (user_id, order_id, flight_id, airline_id, rating, name, comment) VALUES (${userId}, ${order!.id}, ${flight!.id}, ${airlineId}, 5, 'Ana', 'Great')`;
  await sql`INSERT INTO favourites (user_id, flight_id) VALUES (${userId}, ${flight!.id})`;
  await sql`INSERT INTO cart_lines (user_id, flight_id, amount) VALUES (${userId}, ${flight!.id}, 1)`;
  return { flightId: flight!.id, orderId: order!.id };
}

describe('GET /user', () => {
  test('lists customers only, never administrators, airlines or the caller; disabled ones are shown as such', async () => {
    const response = await call('GET', '/api/user');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const users = (await bodyOf(response)) as { id: string; role: string; disabled: boolean }[];
    const ids = users.map((u) => u.id);
    expect(ids).toContain(actors.customer.user!.id);
    expect(ids).toContain(actors.unverifiedCustomer.user!.id);
    expect(users.find((u) => u.id === actors.disabledUser.user!.id)?.disabled).toBe(true);
    expect(users.every((u) => u.role === 'customer')).toBe(true);
    expect(ids).not.toContain(actors.superAdmin.user!.id);
    expect(JSON.stringify(users)).not.toMatch(/password|hash/i);
  });

  test('airline accounts by status, for the airline screens', async () => {
    const pending = await bodyOf(call('GET', '/api/user?role=airline&airlineStatus=pending'));
    expect(pending.map((u: { id: string }) => u.id)).toContain(actors.pendingAirline.user!.id);
    expect(pending.every((u: { airlineStatus: string }) => u.airlineStatus === 'pending')).toBe(
      true,
    );
    const approved = await bodyOf(call('GET', '/api/user?role=airline&airlineStatus=approved'));
    expect(approved.map((u: { id: string }) => u.id)).toEqual(
      expect.arrayContaining([actors.airline.user!.id, actors.otherAirline.user!.id]),
    );
    expect((await call('GET', '/api/user?role=super_admin')).status).toBe(400);
  });

  test('GET /user/firebase lists every live identity account', async () => {
    const googleOnly = await insertUser(sql, { withPassword: false });
    const accounts = (await bodyOf(call('GET', '/api/user/firebase'))) as {
      uid: string;
      provider: string;
      role: string;
    }[];
    expect(accounts.find((a) => a.uid === googleOnly.uid)?.provider).toBe('firebase');
    expect(accounts.find((a) => a.uid === actors.customer.user!.uid)?.provider).toBe('password');
    expect(accounts.map((a) => a.role)).toEqual(
      expect.arrayContaining(['customer', 'airline', 'super_admin']),
    );
  });
});

describe('POST /user/create', () => {
  test('creates a password-less customer whose owner sets a password by reset', async () => {
    const response = await call('POST', '/api/user/create', {
      email: 'Created@Actors.test',
      name: 'Created Person',
      uid: 'createdUid1',
      img: 'https://images.test/c.png',
      phone: '1234567890',
    });
    expect(response.status).toBe(201);
    expect(await bodyOf(response)).toMatchObject({
      email: 'created@actors.test',
      uid: 'createdUid1',
      image: 'https://images.test/c.png',
      role: 'customer',
      emailVerified: false,
    });
    await call('POST', '/api/auth/password/forgot', { email: 'created@actors.test' }, {});
    const token = await tokenFromMail(sql, 'created@actors.test', 'reset-password');
    expect(
      (await call('POST', '/api/auth/password/reset', { token, password: 'Chosen-1!' }, {})).status,
    ).toBe(200);
    expect(
      (
        await call(
          'POST',
          '/api/auth/login',
          { email: 'created@actors.test', password: 'Chosen-1!' },
          {},
        )
      ).status,
    ).toBe(200);
  });

  test('a taken email or uid: "Usuario ya creado, login", nothing written', async () => {
    const before = await snapshot(sql);
    for (const body of [
      { email: actors.customer.email, name: 'Dup' },
      { email: 'fresh-dup@actors.test', name: 'Dup', uid: actors.customer.user!.uid },
    ]) {
      const response = await call('POST', '/api/user/create', body);
      expect(response.status).toBe(409);
      expect(await bodyOf(response)).toMatchObject({
        code: 'conflict',
        message: messages.userAlreadyExists,
      });
    }
    expect(await snapshot(sql)).toEqual(before);
  });
});

describe('PUT /user/update (approve an airline)', () => {
  test('grants the airline permissions and creates its airline record', async () => {
    const pending = await insertUser(sql, {
      role: 'airline',
      airlineStatus: 'pending',
      name: 'Condor Andino',
    });
    const session = await createSession(sql, pending.id, 600);
    const ownHeaders = { Authorization: `Bearer ${session.token}` };
    expect(
      (
        await call(
          'POST',
          '/api/airlines',
          { name: 'Condor Andino', image: 'https://images.test/l.png' },
          ownHeaders,
        )
      ).status,
    ).toBe(403);

    const response = await call('PUT', '/api/user/update', { email: pending.email });
    expect(response.status).toBe(200);
    const user = await bodyOf(response);
    expect(user).toMatchObject({
      airlineStatus: 'approved',
      permissions: true,
      empresa: true,
      admin: true,
    });
    const [airline] =
      await sql`SELECT id, name, image FROM airlines WHERE owner_user_id = ${pending.id} AND NOT deleted`;
    expect(airline).toMatchObject({
      id: user.airlineId,
      name: 'Condor Andino',
      image: 'https://images.test/face.png',
    });

    // The same session now has airline rights: roles are read on every request, not cached in it.
    const save = await call(
      'POST',
      '/api/airlines',
      { name: 'Condor Andino', image: 'https://images.test/l.png' },
      ownHeaders,
    );
    expect(save.status).toBe(200);

    // Approving again changes nothing and creates no second airline.
    expect((await call('PUT', '/api/user/update', { email: pending.email })).status).toBe(200);
    expect(await sql`SELECT 1 FROM airlines WHERE owner_user_id = ${pending.id}`).toHaveLength(1);
  });

  test('only airline accounts can be approved; unknown emails are 404; administrators are off limits', async () => {
    const before = await snapshot(sql);
    expect((await call('PUT', '/api/user/update', { email: actors.customer.email })).status).toBe(
      409,
    );
    expect((await call('PUT', '/api/user/update', { email: 'nobody@actors.test' })).status).toBe(
      404,
    );
    expect((await call('PUT', '/api/user/update', { email: actors.superAdmin.email })).status).toBe(
      403,
    );
    expect(await snapshot(sql)).toEqual(before);
  });
});

describe('deleting users', () => {
  test('anonymises the user and keeps orders, sales and reviews consistent', async () => {
    const user = await insertUser(sql, { name: 'Doomed Person' });
    const { orderId } = await purchaseHistory(actors.airline.airlineId!, user.id);
    const session = await createSession(sql, user.id, 600);

    const response = await call('DELETE', `/api/user/delete/${encodeURIComponent(user.email)}`);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({ message: messages.deleted });

    const [row] = await sql`SELECT * FROM users WHERE id = ${user.id}`;
    expect(row).toMatchObject({
      name: null,
      last_name: null,
      image: null,
      phone: null,
      password_hash: null,
      disabled: true,
    });
    expect(row!.email).toBe(`deleted-${user.id}@deleted.invalid`);
    expect(row!.uid).toBe(`deleted:${user.uid}`);
    expect(row!.deleted_at).toBeInstanceOf(Date);
    expect(await sql`SELECT 1 FROM sessions WHERE user_id = ${user.id}`).toHaveLength(0);
    expect(await sql`SELECT 1 FROM auth_tokens WHERE user_id = ${user.id}`).toHaveLength(0);
    // History stays, pointing at the tombstone.
    expect(
      await sql`SELECT 1 FROM orders WHERE id = ${orderId} AND user_id = ${user.id} AND NOT deleted`,
    ).toHaveLength(1);
    expect(
      await sql`SELECT 1 FROM reviews WHERE order_id = ${orderId} AND NOT deleted`,
    ).toHaveLength(1);
    expect(
      await sql`SELECT 1 FROM sales s JOIN order_lines l ON l.id = s.order_line_id WHERE l.order_id = ${orderId}`,
    ).toHaveLength(1);
    // Personal replicated rows are tombstoned.
    expect(
      await sql`SELECT 1 FROM favourites WHERE user_id = ${user.id} AND NOT deleted`,
    ).toHaveLength(0);
    expect(
      await sql`SELECT 1 FROM cart_lines WHERE user_id = ${user.id} AND NOT deleted`,
    ).toHaveLength(0);

    expect(
      (await call('GET', '/api/auth/me', undefined, { Authorization: `Bearer ${session.token}` }))
        .status,
    ).toBe(401);
    const list = (await bodyOf(call('GET', '/api/user'))) as { id: string }[];
    expect(list.map((u) => u.id)).not.toContain(user.id);

    // The spec's screen then deletes the identity account by uid: done already, so 200 and no change.
    const before = await snapshot(sql);
    expect((await call('DELETE', `/api/user/auth/${user.uid}`)).status).toBe(200);
    expect(await snapshot(sql)).toEqual(before);
    // The address is free again.
    const again = await call('POST', '/api/user/create', { email: user.email, name: 'New Owner' });
    expect(again.status).toBe(201);
  });

  test('DELETE /user/auth/{uid} deletes a live account the same way', async () => {
    const user = await insertUser(sql);
    expect((await call('DELETE', `/api/user/auth/${user.uid}`)).status).toBe(200);
    const [row] = await sql`SELECT deleted_at, email FROM users WHERE id = ${user.id}`;
    expect(row!.deleted_at).not.toBeNull();
    expect(row!.email).toContain('@deleted.invalid');
  });

  test('deleting an airline owner takes its airline and flights out of the catalogue, keeping its sales', async () => {
    const owner = await insertUser(sql, { role: 'airline', airlineStatus: 'approved' });
    const { flightId } = await purchaseHistory(owner.airlineId!, actors.customer.user!.id);
    expect(
      (await call('DELETE', `/api/user/delete/${encodeURIComponent(owner.email)}`)).status,
    ).toBe(200);
    expect(
      await sql`SELECT 1 FROM airlines WHERE id = ${owner.airlineId} AND deleted`,
    ).toHaveLength(1);
    expect(await sql`SELECT 1 FROM flights WHERE id = ${flightId} AND deleted`).toHaveLength(1);
    expect(await sql`SELECT 1 FROM sales WHERE flight_id = ${flightId}`).toHaveLength(1);
  });

  test('unknown users are 404, administrators 403, and nothing is written', async () => {
    const before = await snapshot(sql);
    expect((await call('DELETE', '/api/user/delete/nobody%40actors.test')).status).toBe(404);
    expect((await call('DELETE', '/api/user/auth/noSuchUid')).status).toBe(404);
    expect(
      (await call('DELETE', `/api/user/delete/${encodeURIComponent(actors.superAdmin.email!)}`))
        .status,
    ).toBe(403);
    expect((await call('DELETE', `/api/user/auth/${actors.superAdmin.user!.uid}`)).status).toBe(
      403,
    );
    expect(await snapshot(sql)).toEqual(before);
  });
});

describe('PUT /user/disableUser', () => {
  test('disables and enables again', async () => {
    const user = await insertUser(sql);
    const disabled = await call('PUT', '/api/user/disableUser', { uid: user.uid });
    expect((await bodyOf(disabled)).disabled).toBe(true);
    expect(
      (await call('POST', '/api/auth/login', { email: user.email, password: ACTOR_PASSWORD }, {}))
        .status,
    ).toBe(403);
    const enabled = await call('PUT', '/api/user/disableUser', { uid: user.uid, disabled: false });
    expect((await bodyOf(enabled)).disabled).toBe(false);
    expect(
      (await call('POST', '/api/auth/login', { email: user.email, password: ACTOR_PASSWORD }, {}))
        .status,
    ).toBe(200);
  });

  test('an administrator cannot be disabled; unknown uids are 404', async () => {
    expect(
      (await call('PUT', '/api/user/disableUser', { uid: actors.superAdmin.user!.uid })).status,
    ).toBe(403);
    expect((await call('PUT', '/api/user/disableUser', { uid: 'noSuchUid' })).status).toBe(404);
  });
});

describe('POST /airlines', () => {
  test('an approved airline renames its own airline; its flights follow', async () => {
    const owner = await insertUser(sql, { role: 'airline', airlineStatus: 'approved' });
    const { flightId } = await purchaseHistory(owner.airlineId!, actors.customer.user!.id);
    const session = await createSession(sql, owner.id, 600);
    const response = await call(
      'POST',
      '/api/airlines',
      { name: 'Renamed Air', image: 'https://images.test/new.gif' },
      {
        Authorization: `Bearer ${session.token}`,
      },
    );
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      id: owner.airlineId,
      name: 'Renamed Air',
      userId: owner.id,
      image: 'https://images.test/new.gif',
    });
    expect(
      (await sql`SELECT airline_name FROM flights WHERE id = ${flightId}`)[0]!.airline_name,
    ).toBe('Renamed Air');
  });

  test('another airline cannot name someone else as owner', async () => {
    const before = await snapshot(sql);
    const response = await call(
      'POST',
      '/api/airlines',
      { name: 'Hijack Air', image: 'https://images.test/h.png', userId: actors.airline.user!.id },
      actors.otherAirline.headers(),
    );
    expect(response.status).toBe(403);
    expect(await snapshot(sql)).toEqual(before);
  });

  test('the super administrator creates an airline without owner, or for an approved airline account only', async () => {
    const created = await call('POST', '/api/airlines', {
      name: 'Independent Air',
      image: 'https://images.test/i.bmp',
    });
    expect(created.status).toBe(201);
    expect(await bodyOf(created)).toMatchObject({ name: 'Independent Air', userId: null });
    const forPending = await call('POST', '/api/airlines', {
      name: 'Pending Air',
      image: 'https://images.test/p.png',
      userId: actors.pendingAirline.user!.id,
    });
    expect(forPending.status).toBe(404);
  });
});

describe('DELETE /airlines/delete/{id}', () => {
  test('the airline and its flights leave the catalogue; orders and sales stay; the owner is pending again', async () => {
    const owner = await insertUser(sql, { role: 'airline', airlineStatus: 'approved' });
    const { flightId, orderId } = await purchaseHistory(owner.airlineId!, actors.customer.user!.id);
    const session = await createSession(sql, owner.id, 600);
    const counts = async () =>
      (
        await sql`SELECT coalesce(sum(listed), 0)::int AS n FROM catalog_listing_counts WHERE airline_id = ${owner.airlineId}`
      )[0]!.n;
    expect(await counts()).toBe(1);

    const response = await call('DELETE', `/api/airlines/delete/${owner.airlineId}`);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({ message: messages.deleted, flightsRemoved: 1 });

    expect(
      await sql`SELECT 1 FROM airlines WHERE id = ${owner.airlineId} AND deleted`,
    ).toHaveLength(1);
    expect(await sql`SELECT 1 FROM flights WHERE id = ${flightId} AND deleted`).toHaveLength(1);
    expect(await counts()).toBe(0);
    expect(await sql`SELECT 1 FROM orders WHERE id = ${orderId} AND NOT deleted`).toHaveLength(1);
    expect(await sql`SELECT 1 FROM order_lines WHERE order_id = ${orderId}`).toHaveLength(1);
    expect(
      await sql`SELECT 1 FROM sales WHERE flight_id = ${flightId} AND NOT deleted`,
    ).toHaveLength(1);
    expect(
      await sql`SELECT 1 FROM reviews WHERE flight_id = ${flightId} AND NOT deleted`,
    ).toHaveLength(1);

    const me = await bodyOf(
      call('GET', '/api/auth/me', undefined, { Authorization: `Bearer ${session.token}` }),
    );
    expect(me.user).toMatchObject({
      airlineStatus: 'pending',
      airlineId: null,
      permissions: false,
    });
    expect(
      (
        await call(
          'POST',
          '/api/airlines',
          { name: 'Back Again', image: 'https://images.test/b.png' },
          { Authorization: `Bearer ${session.token}` },
        )
      ).status,
    ).toBe(403);

    expect((await call('DELETE', `/api/airlines/delete/${owner.airlineId}`)).status).toBe(404);
  });

  test('a malformed id is 400 and an unknown one 404, writing nothing', async () => {
    const before = await snapshot(sql);
    expect((await call('DELETE', '/api/airlines/delete/not-a-uuid')).status).toBe(400);
    expect(
      (await call('DELETE', '/api/airlines/delete/00000000-0000-4000-8000-000000000000')).status,
    ).toBe(404);
    expect(await snapshot(sql)).toEqual(before);
  });
});
