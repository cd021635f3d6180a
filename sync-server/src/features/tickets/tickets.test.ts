import { randomUUID } from 'node:crypto';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  jwtVerify,
  type JSONWebKeySet,
} from 'jose';
import { describe, expect, test } from 'vitest';
import {
  TICKET_ISSUER,
  TICKET_TYPE,
  TicketClaimsSchema,
  TicketJwksSchema,
  type OrderDoc,
} from '@skyport/shared';
import { createSql } from '../../db/client.ts';
import { createLogger } from '../../lib/logger.ts';
import { insertSignedInUser } from '../../test/actors.ts';
import {
  createTestApp,
  createTestDatabase,
  createTestHarness,
  jsonRequest,
  randomIp,
} from '../../test/harness.ts';
import { syncHeaders } from '../../sync/test-fixtures.ts';
import { insertFlight, purchase, type Purchase } from '../checkout/testing.ts';
import { openSigningKey, TicketKeyUnavailableError } from './keys.ts';
import { createTicketService } from './tickets.ts';

const { sql, app, actors } = await createTestHarness({ actors: true });
const airlineId = actors.airline.airlineId!;
const logger = createLogger('silent');

/** A buyer with a name of their own, and a session. */
const newBuyer = () => insertSignedInUser(sql, { name: 'Ada Lovelace' });

async function jwks(): Promise<JSONWebKeySet> {
  const res = await app.request('/api/tickets/jwks.json');
  expect(res.status).toBe(200);
  return TicketJwksSchema.parse(await res.json()) as JSONWebKeySet;
}

async function ticketsOf(order: Purchase): Promise<{ id: string; kid: string; token: string }[]> {
  return sql<{ id: string; kid: string; token: string }[]>`
    SELECT id, kid, token FROM tickets WHERE order_id = ${order.id} ORDER BY order_line_id`;
}

/** POST /api/tickets/verify from a fresh address. */
async function verify(ticket: string) {
  const res = await app.request(
    '/api/tickets/verify',
    jsonRequest('POST', { ticket }, { 'X-Forwarded-For': randomIp() }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function rotate() {
  const res = await app.request('/api/admin/tickets/rotate-key', {
    method: 'POST',
    headers: actors.superAdmin.headers(),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { kid: string; retired: string | null };
}

describe('issuing', () => {
  test('a confirmed order gets one signed ticket per line, naming the order, flight, route, date, seats and passenger', async () => {
    const buyer = await newBuyer();
    const first = await insertFlight(sql, airlineId, { origin: 'Peru', destination: 'Brazil' });
    const second = await insertFlight(sql, airlineId);
    await sql`INSERT INTO cart_lines (user_id, flight_id, amount) VALUES (${buyer.id}, ${first}, 2)`;
    const order = await purchase(app, sql, buyer, second, 3);
    expect(order.stocks).toHaveLength(2);

    const stored = await ticketsOf(order);
    expect(stored).toHaveLength(2);
    const keys = createLocalJWKSet(await jwks());
    const [flight] = await sql<{ departure_date: string; arrival_date: string }[]>`
      SELECT to_char(departure_date, 'YYYY-MM-DD') AS departure_date,
             to_char(arrival_date, 'YYYY-MM-DD') AS arrival_date FROM flights WHERE id = ${first}`;
    const claims = [];
    for (const ticket of stored) {
      const { payload, protectedHeader } = await jwtVerify(ticket.token, keys, {
        issuer: TICKET_ISSUER,
        typ: TICKET_TYPE,
        algorithms: ['EdDSA'],
      });
      expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: ticket.kid, typ: TICKET_TYPE });
      claims.push(TicketClaimsSchema.parse(payload));
    }
    const peru = claims.find((c) => c.flight === first)!;
    expect(peru).toMatchObject({
      iss: 'skyport',
      order: order.id,
      airline: expect.any(String),
      from: 'Peru',
      to: 'Brazil',
      date: flight!.departure_date,
      time: '08:00',
      seats: 2,
      name: expect.stringMatching(/^Ada Lovelace/),
    });
    expect(stored.map((t) => t.id)).toContain(peru.jti);
    // Valid until the day after the flight lands.
    expect(peru.exp).toBe(Date.parse(`${flight!.arrival_date}T00:00:00Z`) / 1000 + 86_400);
    expect(claims.find((c) => c.flight === second)).toMatchObject({ seats: 3, from: 'Argentina' });
  });

  test('the ticket is stable: the checkout answer, GET /api/orders and the replicated order carry the stored one', async () => {
    const buyer = await newBuyer();
    const order = await purchase(app, sql, buyer, await insertFlight(sql, airlineId), 1);
    const [stored] = await ticketsOf(order);
    expect((order.stocks[0] as { ticket?: string }).ticket).toBe(stored!.token);

    const listed = (await (
      await app.request('/api/orders', { headers: buyer.headers })
    ).json()) as {
      stocks: { ticket?: string }[];
    }[];
    expect(listed[0]!.stocks[0]!.ticket).toBe(stored!.token);

    const pull = await app.request('/api/sync/orders/pull', {
      headers: syncHeaders(buyer.headers),
    });
    expect(pull.status).toBe(200);
    const { documents } = (await pull.json()) as {
      documents: (OrderDoc & { _deleted: boolean })[];
    };
    const doc = documents.find((d) => d.id === order.id)!;
    expect(doc._deleted).toBe(false);
    expect(doc.stocks[0]!.ticket).toBe(stored!.token);

    // Issuing again changes nothing: one ticket per line, for good.
    const tickets = createTicketService({ sql, logger });
    expect(await tickets.issueMissing()).toBe(0);
    expect(await ticketsOf(order)).toEqual([stored]);
  });

  test('orders confirmed before tickets existed get theirs from the backfill, and replicate again with them', async () => {
    const buyer = await newBuyer();
    const flight = await insertFlight(sql, airlineId);
    // Written as the demo seed writes orders: confirmed, with no checkout and no ticket.
    const [order] = await sql<{ id: string; revision: number }[]>`
      INSERT INTO orders (user_id, payment_id, subtotal_cents, fee_cents, total_cents)
      VALUES (${buyer.id}, ${`seed-${randomUUID()}`}, 100, 0, 100) RETURNING id, revision`;
    await sql`
      INSERT INTO order_lines (order_id, flight_id, airline_id, amount, unit_price_cents, airline_name,
                               origin, destination, departure_hour, arrival_hour)
      SELECT ${order!.id}, id, airline_id, 1, 100, airline_name, origin, destination, departure_hour, arrival_hour
      FROM flights WHERE id = ${flight}`;
    const [before] = await sql<
      { revision: number }[]
    >`SELECT revision FROM orders WHERE id = ${order!.id}`;

    const tickets = createTicketService({ sql, logger });
    expect(await tickets.issueMissing()).toBeGreaterThanOrEqual(1);
    const [issued] = await sql<
      { token: string }[]
    >`SELECT token FROM tickets WHERE order_id = ${order!.id}`;
    expect(decodeJwt(issued!.token)).toMatchObject({ order: order!.id, flight, seats: 1 });
    const [after] = await sql<
      { revision: number }[]
    >`SELECT revision FROM orders WHERE id = ${order!.id}`;
    expect(after!.revision).toBeGreaterThan(before!.revision);
  });
});

describe('the key set', () => {
  test('publishes public Ed25519 keys only, cacheable, and no route answers a private key', async () => {
    const res = await app.request('/api/tickets/jwks.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/jwk-set+json');
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=300/);
    const body = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(body.keys.length).toBeGreaterThanOrEqual(1);
    for (const key of body.keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
      expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    }
    // Security: the private halves never leave the database.
    const privateParts = await sql<{ d: string }[]>`
      SELECT (private_key::jsonb) ->> 'd' AS d FROM ticket_signing_keys WHERE NOT private_key_encrypted`;
    const text = JSON.stringify(body);
    for (const { d } of privateParts) expect(text).not.toContain(d);
  });

  test('with TICKET_KEY_SECRET the private key is stored sealed, and opens only with that secret', async () => {
    const { sql: own } = await createTestDatabase();
    const secret = 'a-secret-of-at-least-thirty-two-characters';
    const tickets = createTicketService({ sql: own, logger, secret });
    await tickets.ensureKey();
    const [row] = await own<{ kid: string; private_key: string; private_key_encrypted: boolean }[]>`
      SELECT kid, private_key, private_key_encrypted FROM ticket_signing_keys`;
    expect(row!.private_key_encrypted).toBe(true);
    expect(JSON.parse(row!.private_key)).not.toHaveProperty('d');
    expect(openSigningKey(row!, secret).asymmetricKeyType).toBe('ed25519');
    expect(() => openSigningKey(row!, `${secret}-other`)).toThrow(TicketKeyUnavailableError);
    expect(() => openSigningKey(row!, undefined)).toThrow(TicketKeyUnavailableError);
  });

  test('instances starting at once create exactly one first key', async () => {
    const { url } = await createTestDatabase();
    const pools = Array.from({ length: 6 }, () => createSql(url, { max: 1 }));
    try {
      const results = await Promise.all(
        pools.map((pool) => createTicketService({ sql: pool, logger }).ensureKey()),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      const [{ count }] =
        (await pools[0]!`SELECT count(*)::int AS count FROM ticket_signing_keys`) as [
          { count: number },
        ];
      expect(count).toBe(1);
      // Started again, nobody adds another.
      expect(await createTicketService({ sql: pools[1]!, logger }).ensureKey()).toEqual({
        created: false,
      });
    } finally {
      await Promise.all(pools.map((pool) => pool.end({ timeout: 1 })));
    }
  });
});

describe('verifying', () => {
  test("a genuine ticket is valid; a tampered one, another key's or garbage is not", async () => {
    const buyer = await newBuyer();
    const order = await purchase(app, sql, buyer, await insertFlight(sql, airlineId), 2);
    const [ticket] = await ticketsOf(order);

    const genuine = await verify(ticket!.token);
    expect(genuine.status).toBe(200);
    expect(genuine.body).toMatchObject({ jti: ticket!.id, status: 'valid', voidedAt: null });
    expect(genuine.body.claims).toMatchObject({ order: order.id, seats: 2 });

    // Two seats become nine: the signature no longer matches.
    const [header, payload, signature] = ticket!.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...claims, seats: 9 })).toString('base64url');
    expect((await verify(`${header}.${forged}.${signature}`)).body).toMatchObject({
      status: 'invalid',
      claims: null,
    });
    // Signed by a key we never published.
    const { sql: elsewhere } = await createTestDatabase();
    const stranger = createTicketService({ sql: elsewhere, logger });
    await stranger.ensureKey();
    const [otherKey] = await elsewhere<
      { kid: string; private_key: string; private_key_encrypted: boolean }[]
    >`
      SELECT kid, private_key, private_key_encrypted FROM ticket_signing_keys`;
    const { SignJWT } = await import('jose');
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: otherKey!.kid, typ: TICKET_TYPE })
      .sign(openSigningKey(otherKey!, undefined));
    expect((await verify(foreign)).body.status).toBe('invalid');

    const garbage = await verify('not-a-ticket');
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe('bad_request');
  });

  test('GET /api/tickets/status answers valid, unknown, and 400 for a malformed id', async () => {
    const buyer = await newBuyer();
    const order = await purchase(app, sql, buyer, await insertFlight(sql, airlineId), 1);
    const [ticket] = await ticketsOf(order);
    const status = (jti: string) =>
      app.request(`/api/tickets/status?jti=${jti}`, { headers: { 'X-Forwarded-For': randomIp() } });
    const valid = await status(ticket!.id);
    expect(valid.headers.get('cache-control')).toBe('no-store');
    expect(await valid.json()).toEqual({ jti: ticket!.id, status: 'valid', voidedAt: null });
    const unknown = randomUUID();
    expect(await (await status(unknown)).json()).toEqual({
      jti: unknown,
      status: 'unknown',
      voidedAt: null,
    });
    expect((await status('x')).status).toBe(400);
  });

  test('lookups are rate-limited per client address', async () => {
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await app.request(`/api/tickets/status?jti=${randomUUID()}`, {
        headers: { 'X-Forwarded-For': ip },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    // Another address is not affected.
    const other = await app.request(`/api/tickets/status?jti=${randomUUID()}`, {
      headers: { 'X-Forwarded-For': randomIp() },
    });
    expect(other.status).toBe(200);
  });
});

describe('rotation', () => {
  test('only the super administrator rotates keys', async () => {
    for (const actor of [actors.guest, actors.customer, actors.airline]) {
      const res = await app.request('/api/admin/tickets/rotate-key', {
        method: 'POST',
        headers: actor.headers(),
      });
      expect(res.status, actor.name).toBe(actor.name === 'guest' ? 401 : 403);
    }
  });

  test('after a rotation old tickets still verify and new ones carry the new kid', async () => {
    const buyer = await newBuyer();
    const before = await purchase(app, sql, buyer, await insertFlight(sql, airlineId), 1);
    const [old] = await ticketsOf(before);
    const oldKid = decodeProtectedHeader(old!.token).kid;

    const { kid, retired } = await rotate();
    expect(retired).toBe(oldKid);
    expect(kid).not.toBe(oldKid);
    const published = (await jwks()).keys.map((key) => key.kid);
    expect(published[0]).toBe(kid);
    expect(published).toContain(oldKid);

    expect((await verify(old!.token)).body.status).toBe('valid');
    const after = await purchase(app, sql, buyer, await insertFlight(sql, airlineId), 1);
    const [fresh] = await ticketsOf(after);
    expect(decodeProtectedHeader(fresh!.token).kid).toBe(kid);
    expect((await verify(fresh!.token)).body.status).toBe('valid');
    // Offline, with the key set as a device keeps it: both verify.
    const keys = createLocalJWKSet(await jwks());
    await expect(jwtVerify(old!.token, keys)).resolves.toBeTruthy();
    await expect(jwtVerify(fresh!.token, keys)).resolves.toBeTruthy();
  });

  test('a retired key leaves the key set once no ticket it signed is still valid', async () => {
    const { kid: unused } = await rotate();
    await rotate();
    expect((await jwks()).keys.map((key) => key.kid)).not.toContain(unused);
  });
});

describe('cancellation', () => {
  test('a cancelled order voids its tickets: status and verify say void, the order leaves the device', async () => {
    const buyer = await newBuyer();
    const order = await purchase(app, sql, buyer, await insertFlight(sql, airlineId), 1);
    const [ticket] = await ticketsOf(order);
    // Whatever cancels a confirmed order (no route does yet: a refund would) voids its tickets in
    // the same transaction (migration 013's trigger).
    await sql`UPDATE orders SET status = 'cancelled', deleted = true WHERE id = ${order.id}`;

    const checked = await verify(ticket!.token);
    expect(checked.body).toMatchObject({ jti: ticket!.id, status: 'void' });
    expect(checked.body.voidedAt).toEqual(expect.any(Number));
    const status = await app.request(`/api/tickets/status?jti=${ticket!.id}`, {
      headers: { 'X-Forwarded-For': randomIp() },
    });
    expect(await status.json()).toMatchObject({ status: 'void' });
    const pull = await app.request('/api/sync/orders/pull', {
      headers: syncHeaders(buyer.headers),
    });
    const { documents } = (await pull.json()) as { documents: { id: string; _deleted: boolean }[] };
    expect(documents.find((d) => d.id === order.id)?._deleted).toBe(true);
  });

  test('a ticket of an order that is not cancelled stays valid when the order changes otherwise', async () => {
    const buyer = await newBuyer();
    const order = await purchase(app, sql, buyer, await insertFlight(sql, airlineId), 1);
    await sql`UPDATE order_lines SET reviewed = true WHERE order_id = ${order.id}`;
    const [ticket] = await ticketsOf(order);
    expect((await verify(ticket!.token)).body.status).toBe('valid');
  });
});

describe('an unusable signing key', () => {
  test('never stops a purchase: the order is confirmed, and its ticket comes once the key opens', async () => {
    const { sql: own } = await createTestDatabase();
    const secret = 'the-right-secret-of-thirty-two-characters';
    await createTicketService({ sql: own, logger, secret }).ensureKey();
    // This instance has the wrong secret: it cannot open the sealed key.
    const wrong = createTestApp(own, {
      tickets: createTicketService({ sql: own, logger, secret: `${secret}!` }),
    });
    const seller = await insertSignedInUser(own, { role: 'airline' });
    const [airline] = await own<{ id: string }[]>`
      SELECT id FROM airlines WHERE owner_user_id = ${seller.id}`;
    const buyer = await insertSignedInUser(own);
    const order = await purchase(wrong.app, own, buyer, await insertFlight(own, airline!.id), 1);
    const [confirmed] = await own<
      { status: string }[]
    >`SELECT status FROM orders WHERE id = ${order.id}`;
    expect(confirmed!.status).toBe('confirmed');
    expect(await own`SELECT 1 FROM tickets WHERE order_id = ${order.id}`).toHaveLength(0);

    expect(await createTicketService({ sql: own, logger, secret }).issueMissing()).toBe(1);
    expect(await own`SELECT 1 FROM tickets WHERE order_id = ${order.id}`).toHaveLength(1);
  });
});
