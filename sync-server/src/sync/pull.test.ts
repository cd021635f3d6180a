import { beforeAll, expect, test } from 'vitest';
import { type Actor } from '../test/actors.ts';
import { createTestHarness } from '../test/harness.ts';
import {
  insertAirline,
  insertFlights,
  insertOrder,
  pullUrl,
  syncHeaders,
} from './test-fixtures.ts';

const { sql, app, actors } = await createTestHarness({ actors: true });
let airlineId: string;
let flightIds: string[];

interface PullBody {
  documents: ({ id: string; _deleted: boolean } & Record<string, unknown>)[];
  checkpoint: { tx?: number; revision: number; id: string } | null;
}

async function pull(
  collection: string,
  params: Record<string, string | number | undefined> = {},
  actor?: Actor,
) {
  return app.request(pullUrl(collection, params), { headers: syncHeaders(actor?.headers() ?? {}) });
}

async function pullAll(collection: string, limit: number, actor?: Actor) {
  const documents: PullBody['documents'] = [];
  let checkpoint: PullBody['checkpoint'] = null;
  let requests = 0;
  for (;;) {
    const response = await pull(collection, { limit, ...checkpoint }, actor);
    expect(response.status).toBe(200);
    const body = (await response.json()) as PullBody;
    requests += 1;
    documents.push(...body.documents);
    checkpoint = body.checkpoint;
    if (body.documents.length < limit) return { documents, checkpoint, requests };
  }
}

beforeAll(async () => {
  airlineId = await insertAirline(sql);
  flightIds = await insertFlights(sql, airlineId, 25);
});

test('a pull pages through the catalogue in revision order and ends with a short batch', async () => {
  const { documents, checkpoint, requests } = await pullAll('flights', 10);
  const ours = documents.filter((doc) => flightIds.includes(doc.id));
  expect(ours.map((doc) => doc.id)).toEqual(flightIds);
  expect(new Set(documents.map((doc) => doc.id)).size).toBe(documents.length);
  expect(requests).toBe(Math.floor(documents.length / 10) + 1);
  expect(checkpoint?.id).toBe(documents.at(-1)?.id);
  const first = ours[0];
  expect(first).toMatchObject({
    airlineId,
    origin: 'Argentina',
    destination: 'Chile',
    departureHour: '08:30',
    arrivalHour: '10:45',
    durationEstimated: '02:15',
    tickets: 100,
    _deleted: false,
  });
  expect(first?.departureDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(typeof first?.createdAt).toBe('number');
});

test('a pull from the last checkpoint returns nothing and the same checkpoint', async () => {
  const { checkpoint } = await pullAll('flights', 50);
  const response = await pull('flights', {
    ...checkpoint,
    limit: 50,
  });
  expect(await response.json()).toEqual({ documents: [], checkpoint });
});

test('a changed, sold-out or deleted flight comes again after the checkpoint, deletions as tombstones', async () => {
  const { checkpoint } = await pullAll('flights', 100);
  const [repriced, soldOut, deleted] = flightIds;
  await sql`UPDATE flights SET price_cents = 999900 WHERE id = ${repriced!}`;
  await sql`UPDATE flights SET tickets = 0 WHERE id = ${soldOut!}`;
  await sql`UPDATE flights SET deleted = true WHERE id = ${deleted!}`;
  const response = await pull('flights', {
    ...checkpoint,
    limit: 100,
  });
  const body = (await response.json()) as PullBody;
  expect(body.documents.map((doc) => [doc.id, doc.priceCents, doc.tickets, doc._deleted])).toEqual([
    [repriced, 999900, 100, false],
    [soldOut, expect.any(Number), 0, false],
    [deleted, expect.any(Number), 100, true],
  ]);
  expect(body.checkpoint!.revision).toBeGreaterThan(checkpoint!.revision);
});

test('airlines and reviews are public; guests pull them', async () => {
  const airlines = (await (await pull('airlines')).json()) as PullBody;
  expect(airlines.documents.map((doc) => doc.id)).toContain(airlineId);
  const reviews = await pull('reviews');
  expect(reviews.status).toBe(200);
});

test("a customer pulls its own orders with their lines embedded, never another customer's", async () => {
  const customer = actors.customer.user!;
  const orderId = await insertOrder(sql, customer.id, flightIds.slice(3, 5));
  await insertOrder(sql, actors.unverifiedCustomer.user!.id, flightIds.slice(5, 6));
  const body = (await (await pull('orders', {}, actors.customer)).json()) as PullBody;
  expect(body.documents.map((doc) => doc.id)).toEqual([orderId]);
  const order = body.documents[0]!;
  expect(order).toMatchObject({
    userId: customer.id,
    idpurchase: 'pay_test',
    priceCents: 10010,
    _deleted: false,
  });
  expect(order.creationdate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(order.stocks).toHaveLength(2);
  expect((order.stocks as Record<string, unknown>[])[0]).toMatchObject({
    amount: 1,
    review: false,
    moreinfo: {
      origin: 'Argentina',
      destination: 'Chile',
      departureHour: '08:30',
      arrivalHour: '10:45',
    },
  });
});

test('an order line turning reviewed gives the order a new revision', async () => {
  const customer = actors.customer.user!;
  const first = (await (await pull('orders', {}, actors.customer)).json()) as PullBody;
  await sql`UPDATE order_lines SET reviewed = true
    WHERE order_id = ${first.documents[0]!.id} AND flight_id = ${flightIds[3]!}`;
  const next = (await (
    await pull('orders', { ...first.checkpoint! }, actors.customer)
  ).json()) as PullBody;
  expect(next.documents).toHaveLength(1);
  expect(next.documents[0]!.userId).toBe(customer.id);
  expect(
    (next.documents[0]!.stocks as { flightId: string; review: boolean }[]).find(
      (l) => l.flightId === flightIds[3],
    )?.review,
  ).toBe(true);
});

test("an airline pulls its own sales; another airline's are refused", async () => {
  const ownFlight = (await insertFlights(sql, actors.airline.airlineId!, 1))[0]!;
  await insertOrder(sql, actors.customer.user!.id, [ownFlight]);
  const own = (await (await pull('sales', {}, actors.airline)).json()) as PullBody;
  expect(own.documents).toHaveLength(1);
  expect(own.documents[0]).toMatchObject({
    airlineId: actors.airline.airlineId,
    idFlight: ownFlight,
    amount: 1,
  });

  const others = await pull('sales', { partition: actors.airline.airlineId! }, actors.otherAirline);
  expect(others.status).toBe(403);
  const otherOwn = (await (await pull('sales', {}, actors.otherAirline)).json()) as PullBody;
  expect(otherOwn.documents).toEqual([]);
});

test.each([
  ['a guest', 'favourites', 'guest', undefined, 401],
  ['a guest', 'cart', 'guest', undefined, 401],
  ['a customer naming another customer', 'favourites', 'customer', 'unverifiedCustomer', 403],
  ['a customer naming another customer', 'cart', 'customer', 'unverifiedCustomer', 403],
  ['a customer naming another customer', 'reviewDrafts', 'customer', 'unverifiedCustomer', 403],
  ['a customer naming another customer', 'orders', 'customer', 'unverifiedCustomer', 403],
  ['an airline', 'favourites', 'airline', undefined, 403],
  ['a super admin', 'cart', 'superAdmin', undefined, 403],
  ['a pending airline', 'sales', 'pendingAirline', undefined, 403],
  ['a customer', 'sales', 'customer', undefined, 403],
  ['a disabled user', 'favourites', 'disabledUser', undefined, 401],
] as const)('%s cannot pull %s', async (_who, collection, actorName, partitionOf, status) => {
  const partition = partitionOf ? actors[partitionOf].user!.id : undefined;
  const response = await pull(collection, { partition }, actors[actorName]);
  expect(response.status).toBe(status);
});

test('a customer may name its own partition', async () => {
  const response = await pull(
    'favourites',
    { partition: actors.customer.user!.id },
    actors.customer,
  );
  expect(response.status).toBe(200);
});

test('an outdated or unversioned client is told to update (426)', async () => {
  for (const version of ['0', undefined]) {
    const headers: Record<string, string> = version ? { 'x-skyport-sync-version': version } : {};
    const response = await app.request(pullUrl('flights'), { headers });
    expect(response.status).toBe(426);
    expect(await response.json()).toMatchObject({
      code: 'upgrade_required',
      message: expect.stringMatching(/^Update required/),
    });
  }
});

test('bad pull requests are 4xx', async () => {
  expect((await pull('tickets')).status).toBe(404);
  expect((await pull('flights', { limit: 0 })).status).toBe(400);
  expect((await pull('flights', { limit: 100_000 })).status).toBe(400);
  expect((await pull('flights', { revision: 'abc' })).status).toBe(400);
  expect((await pull('flights', { surprise: 1 })).status).toBe(400);
  expect((await pull('flights', { partition: actors.customer.user!.id })).status).toBe(400);
});

test('an order not yet paid (and its sales) replicate as tombstones until the order is confirmed', async () => {
  const ownFlight = (await insertFlights(sql, actors.airline.airlineId!, 1))[0]!;
  const before = {
    orders: ((await (await pull('orders', { limit: 1000 }, actors.customer)).json()) as PullBody)
      .checkpoint!,
    sales: ((await (await pull('sales', { limit: 1000 }, actors.airline)).json()) as PullBody)
      .checkpoint!,
  };
  const orderId = await insertOrder(sql, actors.customer.user!.id, [ownFlight], 'pending');
  const since = async (collection: 'orders' | 'sales', actor: Actor) =>
    ((await (await pull(collection, { ...before[collection] }, actor)).json()) as PullBody)
      .documents;
  expect((await since('orders', actors.customer)).map((doc) => [doc.id, doc._deleted])).toEqual([
    [orderId, true],
  ]);
  expect((await since('sales', actors.airline)).map((doc) => [doc.idFlight, doc._deleted])).toEqual(
    [[ownFlight, true]],
  );

  await sql`UPDATE orders SET status = 'confirmed' WHERE id = ${orderId}`;
  expect((await since('orders', actors.customer)).map((doc) => [doc.id, doc._deleted])).toEqual([
    [orderId, false],
  ]);
  expect((await since('sales', actors.airline)).map((doc) => [doc.idFlight, doc._deleted])).toEqual(
    [[ownFlight, false]],
  );
});

test('a stock or price change rewrites none of the carts and favourites naming the flight; leaving the catalogue does', async () => {
  const userId = actors.customer.user!.id;
  const flightId = flightIds[20]!;
  await sql`INSERT INTO cart_lines (user_id, flight_id, amount) VALUES (${userId}, ${flightId}, 2)`;
  await sql`INSERT INTO favourites (user_id, flight_id) VALUES (${userId}, ${flightId})`;
  const positions = async () =>
    sql<{ revision: number; txid: number }[]>`
      SELECT revision, txid FROM cart_lines WHERE user_id = ${userId} AND flight_id = ${flightId}
      UNION ALL
      SELECT revision, txid FROM favourites WHERE user_id = ${userId} AND flight_id = ${flightId}`;
  const before = await positions();
  await sql`UPDATE flights SET tickets = tickets - 1, price_cents = price_cents + 100 WHERE id = ${flightId}`;
  expect(await positions()).toEqual(before);
  await sql`UPDATE flights SET deleted = true WHERE id = ${flightId}`;
  const after = await positions();
  expect(after).toHaveLength(2);
  for (const [i, row] of after.entries()) expect(row.revision).toBeGreaterThan(before[i]!.revision);
  await sql`UPDATE flights SET deleted = false WHERE id = ${flightId}`;
});
