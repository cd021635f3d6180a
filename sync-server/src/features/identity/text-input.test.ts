import { randomUUID } from 'node:crypto';
import { messages, SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';
import { beforeAll, describe, expect, test } from 'vitest';
import { bodyOf, createTestHarness, randomIp } from '../../test/harness.ts';
import { insertOrder } from '../../sync/test-fixtures.ts';
import { futureDate, insertFlight } from '../checkout/testing.ts';
import { snapshot } from './testing.ts';

/**
 * Text PostgreSQL cannot store (NUL, an unpaired UTF-16 surrogate) in any text field, over REST
 * (bodies, queries, path parameters) and over sync push: 400 with the shared message
 * (`messages.textNotStorable`) and nothing written, never a 500. Each case is also sent with
 * clean text, to show that the refusal is the character's and not the rest of the request's.
 */

const NUL = '\u0000';
const LONE_SURROGATE = '\uD800';

const { sql, app, background, actors } = await createTestHarness({ actors: true });
const customerId = actors.customer.user!.id;
/** Flights of the approved airline; the customer's paid order holds the first six. */
let flights: string[];
let orderId: string;
let reviewId: string;

beforeAll(async () => {
  flights = [];
  for (let i = 0; i < 10; i += 1) flights.push(await insertFlight(sql, actors.airline.airlineId!));
  orderId = await insertOrder(sql, customerId, flights.slice(0, 6));
  const created = await send('customer', 'POST', '/api/comments', reviewBody(flights[3]!, {}));
  expect(created.status).toBe(201);
  reviewId = ((await created.json()) as { review: { id: string } }).review.id;
});

type Who = 'guest' | 'customer' | 'airline' | 'superAdmin';

async function send(who: Who, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = {
    ...(who === 'guest' ? {} : actors[who].headers()),
    'X-Forwarded-For': randomIp(),
    [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION),
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await app.request(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await background.settled();
  return response;
}

/** Everything a request of this file could write. */
async function fingerprint() {
  const [extra] = await sql`
    SELECT
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY id), '')) FROM reviews t) AS reviews,
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY id), '')) FROM review_drafts t) AS drafts,
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY user_id, flight_id), '')) FROM cart_lines t) AS cart,
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY user_id, flight_id), '')) FROM favourites t) AS favourites,
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY id), '')) FROM orders t) AS orders,
      (SELECT count(*) FROM payments) AS payments`;
  return { ...(await snapshot(sql)), ...extra };
}

function reviewBody(flightId: string, fields: Record<string, unknown>) {
  return {
    name: 'Ana',
    rating: 4,
    comment: 'Smooth flight',
    airlineId: actors.airline.airlineId,
    flightId,
    orderId,
    ...fields,
  };
}

function flightForm(fields: Record<string, unknown>) {
  const day = futureDate(40);
  return {
    origin: 'Argentina',
    destination: 'Chile',
    departureDate: day,
    departureHour: '08:00',
    arrivalDate: day,
    arrivalHour: '10:30',
    durationEstimated: '02:30',
    price: 150,
    stock: 10,
    description: 'Direct',
    ...fields,
  };
}

function draftDoc(flightId: string, fields: Record<string, unknown>) {
  return {
    id: randomUUID(),
    userId: customerId,
    orderId,
    flightId,
    rating: 5,
    name: 'Bea',
    comment: 'Great crew',
    status: 'pending',
    reason: null,
    _deleted: false,
    ...fields,
  };
}

function snapshotDoc(flightId: string, fields: Record<string, unknown>) {
  return {
    id: flightId,
    userId: customerId,
    flightId,
    airlineId: actors.airline.airlineId,
    airlineName: 'Test Air',
    origin: 'Argentina',
    destination: 'Chile',
    priceCents: 15_000,
    logo: '/logos/test.svg',
    ...fields,
  };
}

interface Case {
  field: string;
  as: Who;
  /** The request with `value` in the field under test. */
  request: (value: string) => { method: string; path: string; body?: unknown };
  /** The status of the same request with clean text, when it is worth sending. */
  clean?: number;
  /** Whether the value travels in a URL (where a lone surrogate cannot be encoded). */
  inUrl?: boolean;
}

const CASES: Case[] = [
  // REST bodies.
  {
    field: 'POST /api/comments name',
    as: 'customer',
    request: (value) => ({
      method: 'POST',
      path: '/api/comments',
      body: reviewBody(flights[0]!, { name: `Ana${value}` }),
    }),
    clean: 201,
  },
  {
    field: 'POST /api/comments comment',
    as: 'customer',
    request: (value) => ({
      method: 'POST',
      path: '/api/comments',
      body: reviewBody(flights[1]!, { comment: `Good${value}` }),
    }),
    clean: 201,
  },
  {
    field: 'POST /api/comments moreInfo',
    as: 'customer',
    request: (value) => ({
      method: 'POST',
      path: '/api/comments',
      body: reviewBody(flights[2]!, {
        moreInfo: [{ flightName: `Test${value}`, origin: 'Argentina', destination: 'Chile' }],
      }),
    }),
    clean: 201,
  },
  {
    field: 'PUT /api/comments name',
    as: 'customer',
    request: (value) => ({
      method: 'PUT',
      path: '/api/comments',
      body: { id: reviewId, name: `Ana${value}` },
    }),
    clean: 200,
  },
  {
    field: 'PUT /api/comments comment',
    as: 'customer',
    request: (value) => ({
      method: 'PUT',
      path: '/api/comments',
      body: { id: reviewId, comment: `${value}Edited` },
    }),
    clean: 200,
  },
  {
    field: 'POST /api/flights/create description',
    as: 'airline',
    request: (value) => ({
      method: 'POST',
      path: '/api/flights/create',
      body: { flight: flightForm({ description: `Direct${value}` }) },
    }),
    clean: 201,
  },
  {
    field: 'PUT /api/flights/update description',
    as: 'airline',
    request: (value) => ({
      method: 'PUT',
      path: '/api/flights/update',
      body: { flight: flightForm({ id: flights[9], description: `Direct${value}` }) },
    }),
    clean: 200,
  },
  {
    field: 'POST /api/orders idpurchase',
    as: 'customer',
    request: (value) => ({
      method: 'POST',
      path: '/api/orders',
      body: {
        price: 150_00,
        userId: customerId,
        idpurchase: `pay_${value}x`,
        creationdate: new Date().toISOString(),
        stocks: [
          {
            flightId: flights[0],
            airlineId: actors.airline.airlineId,
            amount: 1,
            value: 150_00,
            moreinfo: {
              origin: 'Argentina',
              destination: 'Chile',
              departureHour: '08:00',
              arrivalHour: '10:30',
            },
          },
        ],
      },
    }),
    clean: 409, // no captured payment has that id: checked, refused, nothing written
  },
  {
    field: 'POST /api/checkout paymentMethodId',
    as: 'customer',
    request: (value) => ({
      method: 'POST',
      path: '/api/checkout',
      body: { method: 'card', paymentMethodId: `pm_${value}card`, amount: 100 },
    }),
  },
  {
    field: 'POST /api/stripe id',
    as: 'customer',
    request: (value) => ({
      method: 'POST',
      path: '/api/stripe',
      body: { id: `pm_${value}card`, amount: 100, receipt_email: 'buyer@example.test' },
    }),
  },
  {
    field: 'POST /api/auth/register password',
    as: 'guest',
    request: (value) => ({
      method: 'POST',
      path: '/api/auth/register',
      body: {
        name: 'Nora',
        lastName: 'Null',
        image: 'https://images.test/n.png',
        email: 'nora@text-input.test',
        phone: '+123 456 7890',
        password: `Secret1!${value}`,
        confirmPassword: `Secret1!${value}`,
      },
    }),
  },
  {
    field: 'POST /api/auth/login password',
    as: 'guest',
    request: (value) => ({
      method: 'POST',
      path: '/api/auth/login',
      body: { email: actors.customer.email, password: `Actor-Pass1!${value}` },
    }),
  },
  {
    field: 'POST /api/user/create name',
    as: 'superAdmin',
    request: (value) => ({
      method: 'POST',
      path: '/api/user/create',
      body: { email: 'made@text-input.test', name: `Made${value}` },
    }),
  },
  {
    field: 'POST /api/airlines name',
    as: 'airline',
    request: (value) => ({
      method: 'POST',
      path: '/api/airlines',
      body: { name: `Sky${value}`, image: 'https://images.test/sky.png' },
    }),
  },

  // Queries and path parameters.
  {
    field: 'GET /api/admin/outbox?to=',
    as: 'superAdmin',
    request: (value) => ({
      method: 'GET',
      path: `/api/admin/outbox?to=${encodeURIComponent(`a${value}@b.io`)}`,
    }),
    clean: 200,
    inUrl: true,
  },
  {
    field: 'GET /api/sync/cart/pull?id=',
    as: 'customer',
    request: (value) => ({
      method: 'GET',
      path: `/api/sync/cart/pull?revision=1&id=${encodeURIComponent(`x${value}`)}`,
    }),
    clean: 200,
    inUrl: true,
  },
  {
    field: 'GET /api/flights?origin=',
    as: 'guest',
    request: (value) => ({
      method: 'GET',
      path: `/api/flights?origin=${encodeURIComponent(`Chi${value}`)}`,
    }),
    clean: 200,
    inUrl: true,
  },
  {
    field: 'POST /api/user/resetPassword/:email',
    as: 'guest',
    request: (value) => ({
      method: 'POST',
      path: `/api/user/resetPassword/${encodeURIComponent(`a${value}@b.io`)}`,
    }),
    inUrl: true,
  },
  {
    field: 'DELETE /api/user/auth/:uid',
    as: 'superAdmin',
    request: (value) => ({
      method: 'DELETE',
      path: `/api/user/auth/${encodeURIComponent(`uid${value}`)}`,
    }),
    inUrl: true,
  },

  // Sync push.
  {
    field: 'push reviewDrafts name',
    as: 'customer',
    request: (value) => ({
      method: 'POST',
      path: '/api/sync/reviewDrafts/push',
      body: { rows: [{ newDocumentState: draftDoc(flights[4]!, { name: `Bea${value}` }) }] },
    }),
    clean: 200,
  },
  {
    field: 'push reviewDrafts comment',
    as: 'customer',
    request: (value) => ({
      method: 'POST',
      path: '/api/sync/reviewDrafts/push',
      body: { rows: [{ newDocumentState: draftDoc(flights[5]!, { comment: `${value}` }) }] },
    }),
    clean: 200,
  },
  {
    field: 'push reviewDrafts reason (assumedMasterState)',
    as: 'customer',
    request: (value) => {
      const doc = draftDoc(flights[5]!, {});
      return {
        method: 'POST',
        path: '/api/sync/reviewDrafts/push',
        body: {
          rows: [
            {
              newDocumentState: doc,
              assumedMasterState: { ...doc, status: 'rejected', reason: `No${value}` },
            },
          ],
        },
      };
    },
    clean: 200,
  },
  {
    field: 'push cart airlineName',
    as: 'customer',
    request: (value) => ({
      method: 'POST',
      path: '/api/sync/cart/push',
      body: {
        rows: [
          {
            newDocumentState: snapshotDoc(flights[6]!, {
              airlineName: `Test${value}`,
              departureHour: '08:00',
              arrivalHour: '10:30',
              tickets: 100,
              amount: 1,
              _deleted: false,
            }),
          },
        ],
      },
    }),
    clean: 200,
  },
  {
    field: 'push favourites logo',
    as: 'customer',
    request: (value) => ({
      method: 'POST',
      path: '/api/sync/favourites/push',
      body: {
        rows: [
          {
            newDocumentState: snapshotDoc(flights[7]!, {
              logo: `/logos/${value}.svg`,
              departureDate: futureDate(20),
              departureHour: '08:00',
              arrivalHour: '10:30',
              createdAt: Date.now(),
              _deleted: false,
            }),
          },
        ],
      },
    }),
    clean: 200,
  },
];

describe.each(CASES)('$field', (item) => {
  const values = item.inUrl
    ? [['a NUL', NUL]]
    : [
        ['a NUL', NUL],
        ['an unpaired surrogate', LONE_SURROGATE],
      ];

  test.each(values)('%s → 400 with the shared message, nothing written', async (_kind, value) => {
    const before = await fingerprint();
    const { method, path, body } = item.request(value!);
    const response = await send(item.as, method, path, body);
    const answer = await bodyOf(response);
    expect({ status: response.status, message: answer.message }).toEqual({
      status: 400,
      message: expect.stringContaining(messages.textNotStorable),
    });
    expect(answer.code).toBe('bad_request');
    expect(await fingerprint()).toEqual(before);
  });

  if (item.clean !== undefined) {
    test(`the same request with clean text → ${item.clean}`, async () => {
      const { method, path, body } = item.request('');
      const response = await send(item.as, method, path, body);
      expect(response.status, await response.text()).toBe(item.clean);
    });
  }
});
