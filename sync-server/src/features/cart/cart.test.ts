import { expect, test } from 'vitest';
import { calculateTotals, messages, notEnoughStockWithAmount } from '@skyport/shared';
import { createTestHarness, jsonRequest } from '../../test/harness.ts';
import { buyingPathCounts, insertFlight, newBuyer } from '../checkout/testing.ts';

const { sql, app, actors } = await createTestHarness({ actors: true });
const airlineId = actors.airline.airlineId!;

const put = (headers: Record<string, string>, lines: unknown) =>
  app.request('/api/cart', jsonRequest('PUT', { lines }, headers));

test('PUT replaces the cart and GET returns it with server prices and the shared totals', async () => {
  const buyer = await newBuyer(sql);
  const a = await insertFlight(sql, airlineId, { priceCents: 100_00, tickets: 5 });
  const b = await insertFlight(sql, airlineId, { priceCents: 333_33, tickets: 2 });
  const res = await put(buyer.headers, [
    { flightId: a, amount: 2 },
    { flightId: b, amount: 1 },
  ]);
  expect(res.status).toBe(200);
  const cart = (await res.json()) as any;
  const byId = (x: any[]) => [...x].sort((p, q) => (p[0] < q[0] ? -1 : 1));
  expect(
    byId(cart.lines.map((l: any) => [l.flightId, l.amount, l.priceCents, l.available])),
  ).toEqual(
    byId([
      [a, 2, 100_00, true],
      [b, 1, 333_33, true],
    ]),
  );
  const totals = calculateTotals([
    { unitPriceCents: 100_00, amount: 2 },
    { unitPriceCents: 333_33, amount: 1 },
  ]);
  expect(cart).toMatchObject(totals);

  // A price change on the server shows at once: the cart is never priced by the client.
  await sql`UPDATE flights SET price_cents = ${150_00} WHERE id = ${a}`;
  const again = (await (await app.request('/api/cart', { headers: buyer.headers })).json()) as any;
  expect(again.subtotalCents).toBe(2 * 150_00 + 333_33);

  // Replacing drops lines not listed (tombstoned, not deleted), keeps the rest.
  expect((await put(buyer.headers, [{ flightId: b, amount: 2 }])).status).toBe(200);
  const rows =
    await sql`SELECT flight_id, amount, deleted FROM cart_lines WHERE user_id = ${buyer.id} ORDER BY deleted DESC`;
  expect(rows.map((r) => [r.flight_id, r.amount, r.deleted])).toEqual([
    [a, 2, true],
    [b, 2, false],
  ]);
  expect((await put(buyer.headers, [])).status).toBe(200);
  expect(
    ((await (await app.request('/api/cart', { headers: buyer.headers })).json()) as any).lines,
  ).toEqual([]);
});

test.each([
  ['a negative amount', (f: string) => [{ flightId: f, amount: -1 }], 400],
  ['a fractional amount', (f: string) => [{ flightId: f, amount: 1.5 }], 400],
  ['a zero amount', (f: string) => [{ flightId: f, amount: 0 }], 400],
  [
    'a duplicated flight',
    (f: string) => [
      { flightId: f, amount: 1 },
      { flightId: f, amount: 1 },
    ],
    400,
  ],
  ['a malformed id', () => [{ flightId: 'nope', amount: 1 }], 400],
  ['an unknown flight', () => [{ flightId: crypto.randomUUID(), amount: 1 }], 404],
  [
    'an oversized cart',
    (f: string) => Array.from({ length: 101 }, () => ({ flightId: f, amount: 1 })),
    400,
  ],
])('%s is refused and nothing is written', async (_name, lines, status) => {
  const buyer = await newBuyer(sql);
  const flight = await insertFlight(sql, airlineId, { tickets: 5 });
  expect((await put(buyer.headers, [{ flightId: flight, amount: 1 }])).status).toBe(200);
  const before = await buyingPathCounts(sql);
  expect((await put(buyer.headers, lines(flight))).status).toBe(status);
  expect(await buyingPathCounts(sql)).toEqual(before);
});

test('more than the stock, or a sold-out or deleted flight, is a 409 with the §8 message', async () => {
  const buyer = await newBuyer(sql);
  const flight = await insertFlight(sql, airlineId, { tickets: 3 });
  const over = await put(buyer.headers, [{ flightId: flight, amount: 4 }]);
  expect(over.status).toBe(409);
  expect(await over.json()).toMatchObject({ message: notEnoughStockWithAmount(3) });
  await sql`UPDATE flights SET tickets = 0 WHERE id = ${flight}`;
  const none = await put(buyer.headers, [{ flightId: flight, amount: 1 }]);
  expect(await none.json()).toMatchObject({ message: messages.noStockAvailable });
  const gone = await insertFlight(sql, airlineId);
  await sql`UPDATE flights SET deleted = true WHERE id = ${gone}`;
  expect((await put(buyer.headers, [{ flightId: gone, amount: 1 }])).status).toBe(404);
});

test("the cart is each customer's own; guests, airlines and admins have none", async () => {
  const one = await newBuyer(sql);
  const two = await newBuyer(sql);
  const flight = await insertFlight(sql, airlineId, { tickets: 5 });
  await put(one.headers, [{ flightId: flight, amount: 2 }]);
  expect(
    ((await (await app.request('/api/cart', { headers: two.headers })).json()) as any).lines,
  ).toEqual([]);
  expect((await app.request('/api/cart')).status).toBe(401);
  for (const who of ['airline', 'pendingAirline', 'superAdmin'] as const) {
    expect((await app.request('/api/cart', { headers: actors[who].headers() })).status).toBe(403);
    expect((await put(actors[who].headers(), [])).status).toBe(403);
  }
});
