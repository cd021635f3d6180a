import { randomUUID } from 'node:crypto';
import { afterAll, expect, test } from 'vitest';
import { messages, SeatHoldSchema } from '@skyport/shared';
import { createSql } from '../../db/client.ts';
import { bodyOf, createTestHarness, jsonRequest } from '../../test/harness.ts';
import {
  checkInvariants,
  insertBuyers,
  insertFlight,
  INVARIANTS_HOLD,
  payHold,
  purchase,
  sendRetrying,
  startCheckout,
  stormStage,
  ticketsOf,
} from './testing.ts';

/**
 * The oversell guarantee with seat holds (issue 17): 500 buyers on 50 seats, each holding first
 * and paying against the hold, as the PWA does. Holds take seats with the order transaction's
 * guarded decrement, so exactly 50 holds are granted and 50 orders captured; the other 450 are
 * refused "No stock available" before anything reaches the payment provider.
 */

const { url } = await createTestHarness();
// The app's own pool, as in production: moderate, so 500 requests queue on it.
const sql = createSql(url, { max: 20 });
afterAll(() => sql.end({ timeout: 1 }));

test('500 buyers hold then pay one seat of a flight with 50: 50 holds, 50 orders, 450 "No stock available", no authorisation or capture for the rest', async () => {
  const { airline, flight, buyers, provider, app, amount } = await stormStage(sql, 50, 500);
  // One purchase of another flight first, as a running server has made before any storm: the
  // first capture of a fresh database creates the e-ticket signing key (main.ts creates it at
  // start-up), which the storm's captures then share.
  const [early] = await insertBuyers(sql, 1);
  await purchase(app, sql, early!, await insertFlight(sql, airline.airlineId!, { tickets: 5 }));

  const started = performance.now();
  const responses = await Promise.all(
    buyers.map(async (buyer) => {
      const holdKey = randomUUID();
      const held = await app.request(
        '/api/checkout/hold',
        jsonRequest('POST', {}, { ...buyer.headers, 'Idempotency-Key': holdKey }),
      );
      if (held.status !== 201) {
        return { buyer, step: 'hold', status: held.status, body: await bodyOf(held) };
      }
      const hold = SeatHoldSchema.parse(await bodyOf(held));
      // A replay of the hold in the middle of the storm changes nothing.
      const replay = await app.request(
        '/api/checkout/hold',
        jsonRequest('POST', {}, { ...buyer.headers, 'Idempotency-Key': holdKey }),
      );
      expect(SeatHoldSchema.parse(await bodyOf(replay)).expiresAt).toBe(hold.expiresAt);
      const key = randomUUID();
      const res = await sendRetrying(() =>
        app.request('/api/checkout', payHold(buyer.headers, hold, { key })),
      );
      return { buyer, step: 'pay', status: res.status, body: await bodyOf(res) };
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  const paid = responses.filter((r) => r.step === 'pay' && r.status === 200);
  const refused = responses.filter((r) => r.step === 'hold' && r.status === 409);
  const other = responses.filter(
    (r) => !(r.step === 'pay' && r.status === 200) && !(r.step === 'hold' && r.status === 409),
  );
  expect(other.map((r) => `${r.step} ${r.status} ${r.body.message}`)).toEqual([]);
  expect(paid).toHaveLength(50);
  expect(refused).toHaveLength(450);
  for (const r of refused) expect(r.body.message).toBe(messages.noStockAvailable);
  for (const r of paid) expect(r.body.amount).toBe(amount);

  expect(await ticketsOf(sql, flight)).toBe(0);
  const [counts] = await sql<
    {
      orders: number;
      confirmed: number;
      sold: number;
      captured: number;
      holds: number;
      consumed: number;
    }[]
  >`
    WITH storm AS (SELECT DISTINCT order_id FROM order_lines WHERE flight_id = ${flight})
    SELECT (SELECT count(*) FROM storm) AS orders,
           (SELECT count(*) FROM orders o JOIN storm s ON s.order_id = o.id WHERE o.status = 'confirmed') AS confirmed,
           (SELECT coalesce(sum(amount), 0) FROM sales WHERE flight_id = ${flight} AND NOT deleted) AS sold,
           (SELECT count(*) FROM payments p JOIN storm s ON s.order_id = p.order_id WHERE p.status = 'captured') AS captured,
           (SELECT count(*) FROM seat_holds) AS holds,
           (SELECT count(*) FROM seat_holds WHERE status = 'consumed') AS consumed`;
  expect(counts).toEqual({
    orders: 50,
    confirmed: 50,
    sold: 50,
    captured: 50,
    holds: 50,
    consumed: 50,
  });
  const owners = await sql<{ user_id: string; id: string }[]>`
    SELECT DISTINCT o.user_id, o.id FROM orders o JOIN order_lines l ON l.order_id = o.id
    WHERE l.flight_id = ${flight}`;
  expect(new Map(owners.map((o) => [o.user_id, o.id]))).toEqual(
    new Map(paid.map((r) => [r.buyer.id, r.body.order.id])),
  );
  // The provider saw only the 50 holders (and the early purchase): all captured, none left open.
  expect(provider.capturedCount()).toBe(51);
  const statuses = [...provider.payments.values()].map((p) => p.status);
  expect(statuses).toHaveLength(51);
  expect(statuses.filter((s) => s === 'succeeded')).toHaveLength(51);

  // Those without a hold who try to pay anyway (the spec's flow) find no stock either.
  const late = await Promise.all(
    refused.slice(0, 50).map(async ({ buyer }) => {
      const res = await app.request(
        '/api/checkout',
        startCheckout(
          buyer.headers,
          { method: 'card', paymentMethodId: 'pm_card_visa', amount },
          randomUUID(),
        ),
      );
      return { status: res.status, message: (await bodyOf(res)).message };
    }),
  );
  expect(late.every((r) => r.status === 409 && r.message === messages.noStockAvailable)).toBe(true);
  expect(provider.capturedCount()).toBe(51);
  expect(await checkInvariants(sql)).toEqual(INVARIANTS_HOLD);
  console.log(`500 buyers holding then paying on 50 seats: ${seconds.toFixed(2)} s`);
}, 300_000);
