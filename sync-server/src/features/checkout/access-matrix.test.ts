import { beforeAll, describe, expect, test } from 'vitest';
import { ACTOR_NAMES, type Actor, type ActorName } from '../../test/actors.ts';
import { createTestHarness, jsonRequest } from '../../test/harness.ts';
import { futureDate, insertFlight, orderConfirmation, purchase, type Purchase } from './testing.ts';

/**
 * Every route of issue 4 against every kind of caller (test/actors.ts). Expected statuses are
 * written out per actor; object-level rules (another airline's flight, another customer's
 * review or order) are in the cells too.
 */

const { sql, app, actors } = await createTestHarness({ actors: true });
let ownFlight: string;
let customerOrder: Purchase;
let customerReview: string;

beforeAll(async () => {
  ownFlight = await insertFlight(sql, actors.airline.airlineId!, { tickets: 1000 });
  const customer = { id: actors.customer.user!.id, headers: actors.customer.headers() };
  customerOrder = await purchase(app, sql, customer, ownFlight, 1);
  const second = await purchase(
    app,
    sql,
    customer,
    await insertFlight(sql, actors.airline.airlineId!, { tickets: 5 }),
    1,
  );
  const res = await app.request(
    '/api/comments',
    jsonRequest(
      'POST',
      {
        name: 'Ana',
        rating: 5,
        comment: 'ok',
        orderId: second.id,
        flightId: second.stocks[0]!.flightId,
        airlineId: actors.airline.airlineId,
        moreInfo: [],
      },
      customer.headers,
    ),
  );
  customerReview = ((await res.json()) as { review: { id: string } }).review.id;
});

type Expected = Record<ActorName, number>;
const row = (
  guest: number,
  customer: number,
  unverifiedCustomer: number,
  pendingAirline: number,
  airline: number,
  otherAirline: number,
  disabledUser: number,
  superAdmin: number,
): Expected => ({
  guest,
  customer,
  unverifiedCustomer,
  pendingAirline,
  airline,
  otherAirline,
  disabledUser,
  superAdmin,
});

const flightForm = () => ({
  origin: 'Peru',
  destination: 'Chile',
  departureDate: futureDate(3),
  departureHour: '10:00',
  arrivalDate: futureDate(3),
  arrivalHour: '12:00',
  durationEstimated: '02:00',
  price: 100,
  stock: 10,
});

interface Case {
  name: string;
  expected: Expected;
  request: (actor: Actor) => Promise<[string, RequestInit]>;
}

const cases: Case[] = [
  {
    name: 'GET /api/cart',
    expected: row(401, 200, 200, 403, 403, 403, 401, 403),
    request: async () => ['/api/cart', {}],
  },
  {
    name: 'PUT /api/cart',
    expected: row(401, 200, 200, 403, 403, 403, 401, 403),
    request: async () => ['/api/cart', jsonRequest('PUT', { lines: [] })],
  },
  {
    name: 'POST /api/stripe (empty cart)',
    expected: row(401, 400, 403, 403, 403, 403, 401, 403),
    request: async () => [
      '/api/stripe',
      jsonRequest('POST', { id: 'pm_card_visa', amount: 1000, receipt_email: 'a@b.test' }),
    ],
  },
  {
    name: 'POST /api/checkout (empty cart)',
    expected: row(401, 400, 403, 403, 403, 403, 401, 403),
    request: async () => ['/api/checkout', jsonRequest('POST', { method: 'wallet', amount: 1000 })],
  },
  {
    name: "POST /api/checkout/:id/confirm (not the caller's)",
    expected: row(401, 404, 403, 403, 403, 403, 401, 403),
    request: async () => [`/api/checkout/${crypto.randomUUID()}/confirm`, { method: 'POST' }],
  },
  {
    name: 'POST /api/checkout/hold (empty cart)',
    expected: row(401, 400, 403, 403, 403, 403, 401, 403),
    request: async () => ['/api/checkout/hold', jsonRequest('POST', {})],
  },
  {
    name: "DELETE /api/checkout/hold/:id (not the caller's)",
    expected: row(401, 404, 403, 403, 403, 403, 401, 403),
    request: async () => [`/api/checkout/hold/${crypto.randomUUID()}`, { method: 'DELETE' }],
  },
  {
    name: "GET /api/checkout/:id (not the caller's)",
    expected: row(401, 404, 404, 403, 403, 403, 401, 403),
    request: async () => [`/api/checkout/${crypto.randomUUID()}`, {}],
  },
  {
    name: 'GET /api/orders',
    expected: row(401, 200, 200, 403, 403, 403, 401, 403),
    request: async () => ['/api/orders', {}],
  },
  {
    name: "POST /api/orders (the customer's paid order, confirmed by its owner only)",
    expected: row(401, 200, 409, 403, 403, 403, 401, 403),
    request: async (actor) => [
      '/api/orders',
      jsonRequest('POST', orderConfirmation(customerOrder, actor.user?.id ?? crypto.randomUUID())),
    ],
  },
  {
    name: 'GET /api/sales',
    expected: row(401, 403, 403, 403, 200, 200, 401, 403),
    request: async () => ['/api/sales', {}],
  },
  {
    name: "POST /api/sales (the customer's paid sale)",
    expected: row(401, 200, 409, 403, 403, 403, 401, 403),
    request: async () => [
      '/api/sales',
      jsonRequest('POST', {
        sales: [
          {
            id: ownFlight,
            amount: 1,
            airlineId: actors.airline.airlineId,
            price: customerOrder.stocks[0]!.valueCents,
          },
        ],
      }),
    ],
  },
  {
    name: 'GET /api/airline/flights',
    expected: row(401, 403, 403, 403, 200, 200, 401, 403),
    request: async () => ['/api/airline/flights', {}],
  },
  {
    name: 'POST /api/flights/create',
    expected: row(401, 403, 403, 403, 201, 201, 401, 403),
    request: async () => ['/api/flights/create', jsonRequest('POST', { flight: flightForm() })],
  },
  {
    name: 'PUT /api/flights/update (a flight of "airline")',
    expected: row(401, 403, 403, 403, 200, 403, 401, 403),
    request: async () => [
      '/api/flights/update',
      jsonRequest('PUT', {
        flight: { ...flightForm(), id: await insertFlight(sql, actors.airline.airlineId!) },
      }),
    ],
  },
  {
    name: 'POST /api/flights/delete (a flight of "airline")',
    expected: row(401, 403, 403, 403, 200, 403, 401, 403),
    request: async () => [
      '/api/flights/delete',
      jsonRequest('POST', { flightIds: [await insertFlight(sql, actors.airline.airlineId!)] }),
    ],
  },
  {
    name: 'PUT /api/flights/stock (a flight of "airline")',
    expected: row(401, 409, 409, 403, 200, 403, 401, 403),
    request: async () => [
      '/api/flights/stock',
      jsonRequest('PUT', {
        flightIdAmount: [{ id: await insertFlight(sql, actors.airline.airlineId!), amount: 1 }],
      }),
    ],
  },
  {
    name: "POST /api/comments (on the customer's order)",
    expected: row(401, 201, 403, 403, 403, 403, 401, 403),
    request: async () => [
      '/api/comments',
      jsonRequest('POST', {
        name: 'N',
        rating: 3,
        comment: 'c',
        orderId: customerOrder.id,
        flightId: ownFlight,
        airlineId: actors.airline.airlineId,
        moreInfo: [],
      }),
    ],
  },
  {
    name: "PUT /api/comments (the customer's review)",
    expected: row(401, 200, 403, 403, 403, 403, 401, 403),
    request: async () => ['/api/comments', jsonRequest('PUT', { id: customerReview, rating: 4 })],
  },
  {
    name: 'GET /api/checkout/config',
    expected: row(200, 200, 200, 200, 200, 200, 200, 200),
    request: async () => ['/api/checkout/config', {}],
  },
  {
    name: 'POST /api/stripe/webhook (webhooks not configured here)',
    expected: row(404, 404, 404, 404, 404, 404, 404, 404),
    request: async () => ['/api/stripe/webhook', { method: 'POST', body: '{}' }],
  },
  {
    name: 'GET /api/payments/test-wallet/:orderId (unknown order)',
    expected: row(404, 404, 404, 404, 404, 404, 404, 404),
    request: async () => ['/api/payments/test-wallet/wo_test_0123456789abcdef0123', {}],
  },
];

describe('authorization matrix', () => {
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const actual = {} as Expected;
    for (const name of ACTOR_NAMES) {
      const actor = actors[name];
      const [path, init] = await c.request(actor);
      const headers = {
        ...(init.headers as Record<string, string> | undefined),
        ...actor.headers(),
      };
      actual[name] = (await app.request(path, { ...init, headers })).status;
    }
    expect(actual).toEqual(c.expected);
  });
});
