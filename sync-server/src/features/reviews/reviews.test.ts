import { expect, test } from 'vitest';
import { messages } from '@skyport/shared';
import { createTestHarness, jsonRequest } from '../../test/harness.ts';
import {
  buyingPathCounts,
  insertFlight,
  newBuyer,
  purchase,
  putInCart,
} from '../checkout/testing.ts';

const { sql, app, actors } = await createTestHarness({ actors: true });

function review(
  order: { id: string },
  flightId: string,
  airlineId: string,
  overrides: Record<string, unknown> = {},
) {
  return {
    name: 'Ana',
    rating: 4,
    comment: 'Great flight',
    orderId: order.id,
    flightId,
    airlineId,
    moreInfo: [],
    ...overrides,
  };
}

/** The status of `POST /api/comments` with `body`, as the holder of `headers` (none: a guest). */
async function postStatus(body: unknown, headers?: Record<string, string>): Promise<number> {
  return (await app.request('/api/comments', jsonRequest('POST', body, headers))).status;
}

test('a buyer reviews a flight of their order once; the lines become reviewed and the order revision moves', async () => {
  const buyer = await newBuyer(sql);
  const airlineId = actors.airline.airlineId!;
  const flight = await insertFlight(sql, airlineId, { tickets: 10 });
  const order = await purchase(app, sql, buyer, flight, 2);
  const [{ revision: before }] =
    (await sql`SELECT revision FROM orders WHERE id = ${order.id}`) as any;

  const res = await app.request(
    '/api/comments',
    jsonRequest(
      'POST',
      review(order, flight, airlineId, {
        moreInfo: [{ flightName: 'fake', origin: 'X', destination: 'Y' }],
      }),
      buyer.headers,
    ),
  );
  expect(res.status).toBe(201);
  const body = (await res.json()) as any;
  expect(body.review).toMatchObject({
    rating: 4,
    name: 'Ana',
    comment: 'Great flight',
    flightId: flight,
    airlineId,
    orderId: order.id,
  });
  // moreInfo comes from the order's snapshot, not from the body.
  expect(body.review.moreInfo).toEqual([
    { flightName: expect.any(String), origin: 'Argentina', destination: 'Chile' },
  ]);
  expect(body.flightAverage).toBe(4);
  expect(await sql`SELECT reviewed FROM order_lines WHERE order_id = ${order.id}`).toEqual([
    { reviewed: true },
  ]);
  const [{ revision: after }] =
    (await sql`SELECT revision FROM orders WHERE id = ${order.id}`) as any;
  expect(after).toBeGreaterThan(before);
  const orders = (await (
    await app.request('/api/orders', { headers: buyer.headers })
  ).json()) as any[];
  expect(orders[0].stocks[0].review).toBe(true);

  const twice = await app.request(
    '/api/comments',
    jsonRequest('POST', review(order, flight, airlineId), buyer.headers),
  );
  expect(twice.status).toBe(409);

  // The author edits it; the averages follow (half steps).
  const second = await newBuyer(sql);
  const order2 = await purchase(app, sql, second, flight, 1);
  const r2 = await app.request(
    '/api/comments',
    jsonRequest('POST', review(order2, flight, airlineId, { rating: 5 }), second.headers),
  );
  expect(((await r2.json()) as any).flightAverage).toBe(4.5);
  const edit = await app.request(
    '/api/comments',
    jsonRequest(
      'PUT',
      { id: body.review.id, rating: 1, comment: 'Changed my mind' },
      buyer.headers,
    ),
  );
  expect(edit.status).toBe(200);
  expect(await edit.json()).toMatchObject({
    review: { rating: 1, comment: 'Changed my mind', name: 'Ana' },
    flightAverage: 3,
  });
  const notMine = await app.request(
    '/api/comments',
    jsonRequest('PUT', { id: body.review.id, rating: 5 }, second.headers),
  );
  expect(notMine.status).toBe(403);
  expect(
    (
      await app.request(
        '/api/comments',
        jsonRequest('PUT', { id: crypto.randomUUID(), rating: 5 }, buyer.headers),
      )
    ).status,
  ).toBe(404);
});

test("nobody reviews what they did not buy: another customer's order, a flight not in the order, an unpaid order", async () => {
  const buyer = await newBuyer(sql);
  const stranger = await newBuyer(sql);
  const airlineId = actors.airline.airlineId!;
  const flight = await insertFlight(sql, airlineId, { tickets: 10 });
  const other = await insertFlight(sql, airlineId, { tickets: 10 });
  const order = await purchase(app, sql, buyer, flight, 1);
  const before = await buyingPathCounts(sql);

  expect(await postStatus(review(order, flight, airlineId), stranger.headers)).toBe(403);
  expect(await postStatus(review(order, other, airlineId), buyer.headers)).toBe(404);
  expect(
    await postStatus(review({ id: crypto.randomUUID() }, flight, airlineId), buyer.headers),
  ).toBe(404);
  expect(
    await postStatus(review(order, flight, actors.otherAirline.airlineId!), buyer.headers),
  ).toBe(400);
  for (const who of ['airline', 'superAdmin', 'pendingAirline'] as const) {
    expect(await postStatus(review(order, flight, airlineId), actors[who].headers())).toBe(403);
  }
  expect(await postStatus(review(order, flight, airlineId))).toBe(401);
  // An order whose capture never happened (pending) cannot be reviewed.
  await putInCart(sql, buyer.id, flight, 1);
  await sql`UPDATE orders SET status = 'pending' WHERE id = ${order.id}`;
  expect(await postStatus(review(order, flight, airlineId), buyer.headers)).toBe(404);
  await sql`UPDATE orders SET status = 'confirmed' WHERE id = ${order.id}`;
  expect(await buyingPathCounts(sql)).toMatchObject({ reviews: before.reviews });
});

test.each([
  ['no name', { name: '  ' }, messages.enterAName],
  ['no rating', { rating: undefined }, messages.enterARating],
  ['a rating of 0', { rating: 0 }, messages.ratingRange],
  ['a rating of 6', { rating: 6 }, messages.ratingRange],
  ['a rating of 3.5', { rating: 3.5 }, messages.ratingRange],
  ['no comment', { comment: '' }, messages.enterAComment],
])(
  'a review with %s is a 400 with the §5 message, nothing written',
  async (_name, overrides, message) => {
    const buyer = await newBuyer(sql);
    const flight = await insertFlight(sql, actors.airline.airlineId!, { tickets: 10 });
    const order = await purchase(app, sql, buyer, flight, 1);
    const before = await buyingPathCounts(sql);
    const res = await app.request(
      '/api/comments',
      jsonRequest(
        'POST',
        review(order, flight, actors.airline.airlineId!, overrides),
        buyer.headers,
      ),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).details.map((d: any) => d.message)).toContain(message);
    expect(await buyingPathCounts(sql)).toEqual(before);
  },
);
