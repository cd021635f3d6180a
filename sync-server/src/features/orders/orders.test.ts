import { expect, test } from 'vitest';
import { createTestHarness, jsonRequest } from '../../test/harness.ts';
import {
  buyingPathCounts,
  insertFlight,
  newBuyer,
  orderConfirmation,
  purchase,
} from '../checkout/testing.ts';

const { sql, app, actors } = await createTestHarness({ actors: true });

test("GET /api/orders returns only the caller's confirmed orders, newest first, with lines and moreinfo", async () => {
  const alice = await newBuyer(sql);
  const bob = await newBuyer(sql);
  const flight = await insertFlight(sql, actors.airline.airlineId!, {
    priceCents: 40_00,
    tickets: 10,
  });
  const first = await purchase(app, sql, alice, flight, 2);
  const second = await purchase(app, sql, alice, flight, 1);
  const bobs = await purchase(app, sql, bob, flight, 1);

  const res = await app.request('/api/orders', { headers: alice.headers });
  const orders = (await res.json()) as any[];
  expect(orders.map((o) => o.id)).toEqual([second.id, first.id]);
  expect(orders[1]).toMatchObject({
    userId: alice.id,
    idpurchase: first.idpurchase,
    priceCents: first.priceCents,
    stocks: [
      {
        flightId: flight,
        amount: 2,
        valueCents: 40_00,
        review: false,
        moreinfo: { origin: 'Argentina', destination: 'Chile' },
      },
    ],
  });
  expect(orders.some((o) => o.id === bobs.id)).toBe(false);
});

test('POST /api/orders never creates an order: it confirms one a captured payment made, else 409', async () => {
  const buyer = await newBuyer(sql);
  const flight = await insertFlight(sql, actors.airline.airlineId!, {
    priceCents: 25_00,
    tickets: 10,
  });
  const order = await purchase(app, sql, buyer, flight, 2);
  const body = (overrides: Record<string, unknown> = {}) => ({
    ...orderConfirmation(order, buyer.id),
    ...overrides,
  });
  const confirmed = await app.request('/api/orders', jsonRequest('POST', body(), buyer.headers));
  expect(confirmed.status).toBe(200);
  expect(((await confirmed.json()) as any).id).toBe(order.id);

  const before = await buyingPathCounts(sql);
  const forged = await app.request(
    '/api/orders',
    jsonRequest('POST', body({ idpurchase: 'pi_never_paid' }), buyer.headers),
  );
  expect(forged.status).toBe(409);
  expect(await forged.json()).toMatchObject({ details: { reason: 'no_captured_payment' } });
  const cheaper = await app.request(
    '/api/orders',
    jsonRequest('POST', body({ price: 1 }), buyer.headers),
  );
  expect(cheaper.status).toBe(409);
  const forSomeoneElse = await app.request(
    '/api/orders',
    jsonRequest('POST', body({ userId: actors.customer.user!.id }), buyer.headers),
  );
  expect(forSomeoneElse.status).toBe(403);
  // Another customer cannot confirm (or read) this order through its payment id.
  const other = await newBuyer(sql);
  const stolen = await app.request(
    '/api/orders',
    jsonRequest('POST', body({ userId: other.id }), other.headers),
  );
  expect(stolen.status).toBe(409);
  expect(
    (await app.request('/api/orders', jsonRequest('POST', { price: -1 }, buyer.headers))).status,
  ).toBe(400);
  expect(await buyingPathCounts(sql)).toEqual(before);
});
