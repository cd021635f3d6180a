import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { afterAll, expect, test } from 'vitest';
import {
  calculateTotals,
  holdShareExceeded,
  messages,
  SeatHoldSchema,
  SYNC_PROTOCOL_VERSION,
  SYNC_VERSION_HEADER,
} from '@skyport/shared';
import { createSql } from '../../db/client.ts';
import { Lifecycle } from '../../lib/lifecycle.ts';
import { createLogger } from '../../lib/logger.ts';
import { insertUser } from '../../test/actors.ts';
import { bodyOf, createTestApp, createTestHarness, jsonRequest } from '../../test/harness.ts';
import { createHolds } from './holds.ts';
import {
  checkInvariants,
  insertFlight,
  INVARIANTS_HOLD,
  newBuyer,
  putInCart,
  payHold,
  ticketsOf,
  type Buyer,
} from './testing.ts';

/**
 * Seat holds (issue 17, docs/decisions/013-seat-holds.md) on real PostgreSQL: a hold takes the
 * cart's seats out of the stock everyone sees, a payment against it charges its quote and buys
 * its seats, and expired holds give their seats back exactly once through the release job, on
 * any instance, after a restart too.
 */

const { sql, url, app, startInstance } = await createTestHarness();
const airline = await insertUser(sql, { role: 'airline', airlineStatus: 'approved' });
const airlineId = airline.airlineId!;

const lifecycles: Lifecycle[] = [];
afterAll(async () => {
  for (const lifecycle of lifecycles) await lifecycle.stopParts(Date.now() + 5_000, quiet);
});
const quiet = createLogger('silent');

type RequestingApp = {
  request: (path: string, init?: RequestInit) => Response | Promise<Response>;
};

function postHold(target: RequestingApp, buyer: Buyer, key?: string): Promise<Response> {
  return Promise.resolve(
    target.request(
      '/api/checkout/hold',
      jsonRequest('POST', {}, key ? { ...buyer.headers, 'Idempotency-Key': key } : buyer.headers),
    ),
  );
}

async function holdOf(response: Response) {
  return SeatHoldSchema.parse(await bodyOf(response));
}

async function holdRow(id: string) {
  const [row] = await sql<{ status: string; release_reason: string | null }[]>`
    SELECT status, release_reason FROM seat_holds WHERE id = ${id}`;
  return row!;
}

async function cartAmount(userId: string, flightId: string): Promise<number | null> {
  const [row] = await sql<{ amount: number }[]>`
    SELECT amount FROM cart_lines WHERE user_id = ${userId} AND flight_id = ${flightId} AND NOT deleted`;
  return row?.amount ?? null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a hold takes the cart's seats at the server's prices: the public flight, the catalogue and the replicated document show what is left", async () => {
  const flight = await insertFlight(sql, airlineId, { priceCents: 250_00, tickets: 10 });
  const buyer = await newBuyer(sql);
  await putInCart(sql, buyer.id, flight, 3);
  const sync = { headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) } };
  const before = await bodyOf(app.request('/api/sync/flights/pull?limit=2000', sync));

  const started = Date.now();
  const res = await postHold(app, buyer);
  expect(res.status).toBe(201);
  const hold = await holdOf(res);
  expect(hold.lines).toEqual([{ flightId: flight, amount: 3, unitPriceCents: 250_00 }]);
  expect(hold.totalCents).toBe(calculateTotals([{ unitPriceCents: 250_00, amount: 3 }]).totalCents);
  expect(hold.status).toBe('active');
  // 10 minutes by default, by the server's clock.
  expect(hold.expiresAt).toBeGreaterThanOrEqual(started + 10 * 60_000 - 2_000);
  expect(hold.expiresAt).toBeLessThanOrEqual(Date.now() + 10 * 60_000 + 2_000);
  // What is left when the answer was written: the request's own time less, which a busy machine
  // stretches; a wrong duration or unit is minutes off.
  expect(hold.expiresInMs).toBeGreaterThan(10 * 60_000 - 60_000);

  expect(await ticketsOf(sql, flight)).toBe(7);
  const shown = await bodyOf(app.request(`/api/flights/${flight}`));
  expect(shown.tickets).toBe(7);
  const after = await bodyOf(
    app.request(
      `/api/sync/flights/pull?limit=2000&tx=${before.checkpoint?.tx ?? 0}&revision=${before.checkpoint?.revision ?? 0}&id=${before.checkpoint?.id ?? ''}`,
      sync,
    ),
  );
  const replicated = (after.documents as { id: string; tickets: number }[]).find(
    (doc) => doc.id === flight,
  );
  expect(replicated?.tickets).toBe(7);

  // Others cannot take the held seats: of the 7 left, 5 and then 2 are held, a third 3 is refused.
  const other = await newBuyer(sql);
  await putInCart(sql, other.id, flight, 5);
  expect((await postHold(app, other)).status).toBe(201);
  const third = await newBuyer(sql);
  await putInCart(sql, third.id, flight, 3);
  const refused = await postHold(app, third);
  expect(refused.status).toBe(409);
  expect((await bodyOf(refused)).message).toBe(messages.noStockAvailable);
  expect(await ticketsOf(sql, flight)).toBe(2);
  await putInCart(sql, third.id, flight, 2);
  expect((await postHold(app, third)).status).toBe(201);
  expect(await ticketsOf(sql, flight)).toBe(0);
});

test('replaying the request answers the same hold with the same expiresAt: by its key, without a key, and with a new key for the same cart', async () => {
  const flight = await insertFlight(sql, airlineId, { priceCents: 80_00, tickets: 10 });
  const buyer = await newBuyer(sql);
  await putInCart(sql, buyer.id, flight, 2);
  const key = randomUUID();
  const first = await holdOf(await postHold(app, buyer, key));
  await sleep(1_100);
  for (const replay of [
    postHold(app, buyer, key),
    postHold(app, buyer),
    postHold(app, buyer, randomUUID()),
  ]) {
    const res = await replay;
    expect(res.status).toBe(200);
    const again = await holdOf(res);
    expect(again.holdId).toBe(first.holdId);
    expect(again.expiresAt).toBe(first.expiresAt);
    expect(again.expiresInMs).toBeLessThan(first.expiresInMs);
  }
  expect(await ticketsOf(sql, flight)).toBe(8);
  const [count] = await sql<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM seat_holds WHERE user_id = ${buyer.id}`;
  expect(count!.n).toBe(1);

  // Another cart replaces the hold: the earlier seats go back, the new ones are taken.
  await putInCart(sql, buyer.id, flight, 3);
  const replaced = await postHold(app, buyer);
  expect(replaced.status).toBe(201);
  const second = await holdOf(replaced);
  expect(second.holdId).not.toBe(first.holdId);
  expect(await holdRow(first.holdId)).toEqual({ status: 'released', release_reason: 'replaced' });
  expect(await ticketsOf(sql, flight)).toBe(7);
  // The first key still answers its own hold, as it is now: released, never renewed.
  const old = await holdOf(await postHold(app, buyer, key));
  expect(old).toMatchObject({
    holdId: first.holdId,
    status: 'released',
    expiresAt: first.expiresAt,
  });
  expect(await ticketsOf(sql, flight)).toBe(7);
});

test("the customer's own held seats stay theirs: saving the cart again during the hold (a reload of the payment page) is accepted", async () => {
  const flight = await insertFlight(sql, airlineId, { priceCents: 90_00, tickets: 2 });
  const buyer = await newBuyer(sql);
  const saveCart = () =>
    app.request(
      '/api/cart',
      jsonRequest('PUT', { lines: [{ flightId: flight, amount: 1 }] }, buyer.headers),
    );
  expect((await saveCart()).status).toBe(200);
  const hold = await holdOf(await postHold(app, buyer));
  expect(await ticketsOf(sql, flight)).toBe(1);
  expect((await saveCart()).status).toBe(200);
  const again = await holdOf(await postHold(app, buyer));
  expect(again).toMatchObject({ holdId: hold.holdId, expiresAt: hold.expiresAt });
  // Another customer cannot put the held seat in their cart beyond what is left.
  const other = await newBuyer(sql);
  const refused = await app.request(
    '/api/cart',
    jsonRequest('PUT', { lines: [{ flightId: flight, amount: 2 }] }, other.headers),
  );
  expect(refused.status).toBe(409);
  expect(await ticketsOf(sql, flight)).toBe(1);
});

test("one customer holds at most the configured share of a flight's seats: a clear 409, and nothing changes", async () => {
  const flight = await insertFlight(sql, airlineId, { priceCents: 99_00, tickets: 10 });
  const buyer = await newBuyer(sql);
  await putInCart(sql, buyer.id, flight, 6);
  const res = await postHold(app, buyer);
  expect(res.status).toBe(409);
  const body = await bodyOf(res);
  expect(body.message).toBe(holdShareExceeded('Argentina → Chile', 5, 50));
  expect(body.details).toMatchObject({ reason: 'hold_share_exceeded', most: 5, flightId: flight });
  expect(await ticketsOf(sql, flight)).toBe(10);
  const [count] = await sql<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM seat_holds WHERE user_id = ${buyer.id}`;
  expect(count!.n).toBe(0);

  // Half of the flight's seats is allowed; seats sold and held by others count as the flight's.
  await putInCart(sql, buyer.id, flight, 5);
  expect((await postHold(app, buyer)).status).toBe(201);
  expect(await ticketsOf(sql, flight)).toBe(5);

  // A setting of the app: 20 % of 10 seats is 2.
  const strict = createTestApp(sql, { holds: { maxSharePercent: 20 } }).app;
  const other = await newBuyer(sql);
  await putInCart(sql, other.id, flight, 3);
  const capped = await postHold(strict, other);
  expect(capped.status).toBe(409);
  expect((await bodyOf(capped)).message).toBe(holdShareExceeded('Argentina → Chile', 2, 20));
});

test('DELETE /api/checkout/hold/{holdId}: only its owner releases it; another customer and a guest are refused and change nothing', async () => {
  const flight = await insertFlight(sql, airlineId, { priceCents: 120_00, tickets: 10 });
  const owner = await newBuyer(sql);
  await putInCart(sql, owner.id, flight, 2);
  const hold = await holdOf(await postHold(app, owner));

  const stranger = await newBuyer(sql);
  const byStranger = await app.request(`/api/checkout/hold/${hold.holdId}`, {
    method: 'DELETE',
    headers: stranger.headers,
  });
  expect(byStranger.status).toBe(404);
  expect((await bodyOf(byStranger)).message).toBe(messages.holdNotFound);
  const byGuest = await app.request(`/api/checkout/hold/${hold.holdId}`, { method: 'DELETE' });
  expect(byGuest.status).toBe(401);
  expect(await holdRow(hold.holdId)).toEqual({ status: 'active', release_reason: null });
  expect(await ticketsOf(sql, flight)).toBe(8);

  const byOwner = await app.request(`/api/checkout/hold/${hold.holdId}`, {
    method: 'DELETE',
    headers: owner.headers,
  });
  expect(byOwner.status).toBe(200);
  expect(await holdOf(byOwner)).toMatchObject({ holdId: hold.holdId, status: 'released' });
  expect(await ticketsOf(sql, flight)).toBe(10);
  // Again: the same answer, the seats go back once.
  const again = await app.request(`/api/checkout/hold/${hold.holdId}`, {
    method: 'DELETE',
    headers: owner.headers,
  });
  expect(again.status).toBe(200);
  expect(await ticketsOf(sql, flight)).toBe(10);
  // The cart stays.
  expect(await cartAmount(owner.id, flight)).toBe(2);
});

test("a checkout with holdId charges the hold's quote and buys its seats without taking stock again; the hold cannot be released afterwards", async () => {
  const flight = await insertFlight(sql, airlineId, { priceCents: 300_00, tickets: 10 });
  const buyer = await newBuyer(sql);
  await putInCart(sql, buyer.id, flight, 2);
  const hold = await holdOf(await postHold(app, buyer));
  expect(await ticketsOf(sql, flight)).toBe(8);

  // The airline changes the price during the hold: the hold keeps the price it quoted.
  await sql`UPDATE flights SET price_cents = ${350_00} WHERE id = ${flight}`;
  const res = await app.request('/api/checkout', payHold(buyer.headers, hold));
  expect(res.status).toBe(200);
  const paid = await bodyOf(res);
  expect(paid.amount).toBe(hold.totalCents);
  expect(paid.order.stocks).toMatchObject([{ flightId: flight, amount: 2, valueCents: 300_00 }]);
  expect(await ticketsOf(sql, flight)).toBe(8);
  expect(await holdRow(hold.holdId)).toEqual({ status: 'consumed', release_reason: null });
  expect(await cartAmount(buyer.id, flight)).toBeNull();
  const [payment] = await sql<
    { hold_id: string }[]
  >`SELECT hold_id FROM payments WHERE id = ${paid.paymentId}`;
  expect(payment!.hold_id).toBe(hold.holdId);

  const release = await app.request(`/api/checkout/hold/${hold.holdId}`, {
    method: 'DELETE',
    headers: buyer.headers,
  });
  expect(release.status).toBe(409);
  expect((await bodyOf(release)).message).toBe(messages.holdAlreadyPaid);
  expect(await ticketsOf(sql, flight)).toBe(8);
  expect(await checkInvariants(sql)).toEqual(INVARIANTS_HOLD);
});

test('re-quote: a price changed between the cart and the payment is 409 "Price changed" with the server\'s quote; paying the new quote succeeds', async () => {
  const flight = await insertFlight(sql, airlineId, { priceCents: 100_00, tickets: 10 });
  const buyer = await newBuyer(sql);
  await putInCart(sql, buyer.id, flight, 1);
  const seen = calculateTotals([{ unitPriceCents: 100_00, amount: 1 }]).totalCents;
  // The airline raises the price after the customer's cart showed the old one.
  await sql`UPDATE flights SET price_cents = ${125_00} WHERE id = ${flight}`;
  const hold = await holdOf(await postHold(app, buyer));
  const quoted = calculateTotals([{ unitPriceCents: 125_00, amount: 1 }]);
  expect(hold.totalCents).toBe(quoted.totalCents);

  const old = await app.request('/api/checkout', payHold(buyer.headers, hold, { amount: seen }));
  expect(old.status).toBe(409);
  const refused = await bodyOf(old);
  expect(refused.message).toBe('Price changed');
  expect(refused.details).toEqual({ reason: 'price_changed', ...quoted });
  const [payments] = await sql<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM payments WHERE user_id = ${buyer.id}`;
  expect(payments!.n).toBe(0);
  expect(await holdRow(hold.holdId)).toEqual({ status: 'active', release_reason: null });

  // The buyer confirmed the new total.
  const confirmed = await app.request('/api/checkout', payHold(buyer.headers, hold));
  expect(confirmed.status).toBe(200);
  expect((await bodyOf(confirmed)).amount).toBe(quoted.totalCents);
  expect(await ticketsOf(sql, flight)).toBe(9);
});

test("another customer's hold id is refused at checkout as unknown; nothing is charged", async () => {
  const flight = await insertFlight(sql, airlineId, { priceCents: 60_00, tickets: 10 });
  const owner = await newBuyer(sql);
  await putInCart(sql, owner.id, flight, 1);
  const hold = await holdOf(await postHold(app, owner));
  const thief = await newBuyer(sql);
  await putInCart(sql, thief.id, flight, 1);
  const res = await app.request('/api/checkout', payHold(thief.headers, hold));
  expect(res.status).toBe(404);
  expect((await bodyOf(res)).message).toBe(messages.holdNotFound);
  expect(await holdRow(hold.holdId)).toEqual({ status: 'active', release_reason: null });
});

test('an expired hold: paying is refused, the release job gives the seats back once, the cart stays, a replay does not renew it, holding again does', async () => {
  const short = createTestApp(sql, { holds: { ttlMs: 300 } }).app;
  const holds = createHolds({ sql, logger: quiet, settings: { ttlMs: 300, maxSharePercent: 50 } });
  const flight = await insertFlight(sql, airlineId, { priceCents: 70_00, tickets: 10 });
  const buyer = await newBuyer(sql);
  await putInCart(sql, buyer.id, flight, 2);
  const key = randomUUID();
  const hold = await holdOf(await postHold(short, buyer, key));
  expect(await ticketsOf(sql, flight)).toBe(8);
  await sleep(400);

  const late = await short.request('/api/checkout', payHold(buyer.headers, hold));
  expect(late.status).toBe(409);
  expect(await bodyOf(late)).toMatchObject({
    message: messages.holdExpired,
    details: { reason: 'hold_expired' },
  });

  // Nothing released before the job runs (its state is the row), then exactly this hold.
  expect(await ticketsOf(sql, flight)).toBe(8);
  const pass = await holds.releaseExpired();
  expect(pass.ran).toBe(true);
  expect(pass.released).toBeGreaterThanOrEqual(1);
  expect(await holdRow(hold.holdId)).toEqual({ status: 'released', release_reason: 'expired' });
  expect(await ticketsOf(sql, flight)).toBe(10);
  expect((await holds.releaseExpired()).released).toBe(0);
  expect(await ticketsOf(sql, flight)).toBe(10);
  expect(await cartAmount(buyer.id, flight)).toBe(2);

  const replay = await holdOf(await postHold(short, buyer, key));
  expect(replay).toMatchObject({
    holdId: hold.holdId,
    status: 'released',
    expiresAt: hold.expiresAt,
  });
  expect(await ticketsOf(sql, flight)).toBe(10);

  const again = await postHold(short, buyer);
  expect(again.status).toBe(201);
  expect((await holdOf(again)).holdId).not.toBe(hold.holdId);
  expect(await ticketsOf(sql, flight)).toBe(8);
});

test('a hold that expires while its checkout runs is bought or released, never both', async () => {
  const flight = await insertFlight(sql, airlineId, { priceCents: 45_00, tickets: 10 });
  const buyer = await newBuyer(sql);
  await putInCart(sql, buyer.id, flight, 1);
  const hold = await holdOf(await postHold(app, buyer));
  // The release job and the order transaction race for the hold (the hold forced past expiry
  // after the checkout checked it).
  await sql`UPDATE seat_holds SET expires_at = now() + interval '150 milliseconds' WHERE id = ${hold.holdId}`;
  const holds = createHolds({ sql, logger: quiet, settings: { ttlMs: 1, maxSharePercent: 50 } });
  const paying = app.request('/api/checkout', payHold(buyer.headers, hold));
  await sleep(150);
  const [res] = await Promise.all([paying, holds.releaseExpired()]);
  const row = await holdRow(hold.holdId);
  if (res.status === 200) {
    expect(row.status).toBe('consumed');
    expect(await ticketsOf(sql, flight)).toBe(9);
  } else {
    expect(res.status).toBe(409);
    expect(row.status).toBe('released');
    expect(await ticketsOf(sql, flight)).toBe(10);
  }
  expect(await checkInvariants(sql)).toEqual(INVARIANTS_HOLD);
});

test('release after a restart: the instance that took the hold stops, a new instance releases the expired hold (the state is in PostgreSQL)', async () => {
  const first = await startInstance({ holds: { ttlMs: 400 } });
  const flight = await insertFlight(sql, airlineId, { priceCents: 55_00, tickets: 10 });
  const buyer = await newBuyer(sql);
  await putInCart(sql, buyer.id, flight, 3);
  const res = await fetch(
    `${first.origin}/api/checkout/hold`,
    jsonRequest('POST', {}, buyer.headers),
  );
  expect(res.status).toBe(201);
  const hold = await holdOf(res);
  expect(await ticketsOf(sql, flight)).toBe(7);
  // The instance goes away (its server and its pool), before the hold expires.
  (first.server as Server).closeAllConnections();
  await new Promise((resolve) => first.server.close(resolve));
  await first.sql.end({ timeout: 1 });
  await sleep(500);
  expect(await ticketsOf(sql, flight)).toBe(7);

  const lifecycle = new Lifecycle();
  lifecycles.push(lifecycle);
  await startInstance({ holds: { ttlMs: 400, releaseEveryMs: 50 }, lifecycle });
  await expect.poll(() => ticketsOf(sql, flight), { timeout: 10_000 }).toBe(10);
  expect(await holdRow(hold.holdId)).toEqual({ status: 'released', release_reason: 'expired' });
  expect(await cartAmount(buyer.id, flight)).toBe(3);
  await lifecycle.stopParts(Date.now() + 5_000, quiet);
});

test('two instances running the release job at once release each expired hold exactly once', async () => {
  const flights = await Promise.all(
    Array.from({ length: 5 }, () =>
      insertFlight(sql, airlineId, { priceCents: 10_00, tickets: 100 }),
    ),
  );
  const holdApp = createTestApp(sql, { holds: { ttlMs: 1 } }).app;
  const buyers = await Promise.all(Array.from({ length: 60 }, () => newBuyer(sql)));
  for (const [i, buyer] of buyers.entries()) {
    await putInCart(sql, buyer.id, flights[i % flights.length]!, 1 + (i % 3));
    expect((await postHold(holdApp, buyer)).status).toBe(201);
  }
  const held = buyers.reduce((sum, _, i) => sum + 1 + (i % 3), 0);
  const [before] = await sql<{ tickets: number }[]>`
    SELECT sum(tickets)::int8 AS tickets FROM flights WHERE id = ANY(${flights}::uuid[])`;
  expect(before!.tickets).toBe(500 - held);
  await sleep(20);

  // Two instances: each its own pool and its own job, running passes at the same moment.
  const pools = [createSql(url, { max: 4 }), createSql(url, { max: 4 })];
  afterAll(() => Promise.all(pools.map((pool) => pool.end({ timeout: 1 }))));
  const jobs = pools.map((pool) =>
    createHolds({ sql: pool, logger: quiet, settings: { ttlMs: 1, maxSharePercent: 50 } }),
  );
  const expiredReleases = async () =>
    (
      await sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM seat_holds WHERE status = 'released' AND release_reason = 'expired'`
    )[0]!.n;
  const releasedBefore = await expiredReleases();
  const passes = await Promise.all(
    Array.from({ length: 10 }, (_, i) => jobs[i % 2]!.releaseExpired()),
  );
  // Each hold released by exactly one pass: the passes' counts add up to the holds released.
  const released = passes.reduce((sum, pass) => sum + pass.released, 0);
  expect(released).toBe((await expiredReleases()) - releasedBefore);
  // Finish any the racing passes left (a pass skips while another one holds the job's lock).
  await jobs[0]!.releaseExpired();
  const [after] = await sql<{ tickets: number; released: number }[]>`
    SELECT (SELECT sum(tickets)::int8 FROM flights WHERE id = ANY(${flights}::uuid[])) AS tickets,
           (SELECT count(*)::int FROM seat_holds WHERE status = 'released' AND release_reason = 'expired'
              AND user_id = ANY(${buyers.map((b) => b.id)}::uuid[])) AS released`;
  expect(after).toEqual({ tickets: 500, released: 60 });

  // And the same with the jobs on timers, on two served instances at once.
  for (const [i, buyer] of buyers.entries()) {
    await putInCart(sql, buyer.id, flights[i % flights.length]!, 1 + (i % 3));
    expect((await postHold(holdApp, buyer)).status).toBe(201);
  }
  for (let i = 0; i < 2; i++) {
    const lifecycle = new Lifecycle();
    lifecycles.push(lifecycle);
    await startInstance({ holds: { ttlMs: 1, releaseEveryMs: 5 }, lifecycle });
  }
  await expect
    .poll(
      async () =>
        (
          await sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM seat_holds WHERE status = 'active'
            AND user_id = ANY(${buyers.map((b) => b.id)}::uuid[])`
        )[0]!.n,
      { timeout: 10_000 },
    )
    .toBe(0);
  const [final] = await sql<{ tickets: number }[]>`
    SELECT sum(tickets)::int8 AS tickets FROM flights WHERE id = ANY(${flights}::uuid[])`;
  expect(final!.tickets).toBe(500);
}, 60_000);
