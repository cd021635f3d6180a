import { randomUUID } from 'node:crypto';
import { afterAll, expect, test } from 'vitest';
import { messages } from '@skyport/shared';
import { createSql } from '../../db/client.ts';
import { createTestHarness } from '../../test/harness.ts';
import {
  cardPayment,
  checkInvariants,
  INVARIANTS_HOLD,
  sendRetrying,
  stormStage,
  ticketsOf,
} from './testing.ts';

const { url } = await createTestHarness();
// The app's own pool, as in production: moderate, so 500 requests queue on it.
const sql = createSql(url, { max: 20 });
afterAll(() => sql.end({ timeout: 1 }));

test('500 concurrent checkouts of one ticket on a flight with 50 seats: exactly 50 orders, 450 "No stock available", no capture for any of them', async () => {
  const { flight, buyers, provider, app, amount } = await stormStage(sql, 50, 500);

  const started = performance.now();
  const responses = await Promise.all(
    buyers.map(async (buyer) => {
      // The guarantees below are about what clients that retry a 503 end up with.
      const key = randomUUID();
      const res = await sendRetrying(() =>
        app.request('/api/stripe', cardPayment(buyer.headers, { id: 'pm_card_visa', amount }, key)),
      );
      return {
        buyer,
        status: res.status,
        body: (await res.json()) as { message?: string; order?: { id: string } },
      };
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  const ok = responses.filter((r) => r.status === 200);
  const refused = responses.filter((r) => r.status === 409);
  const other = responses.filter((r) => r.status !== 200 && r.status !== 409);
  expect(other.map((r) => `${r.status} ${r.body.message}`)).toEqual([]);
  expect(ok).toHaveLength(50);
  expect(refused).toHaveLength(450);
  for (const r of refused) expect(r.body.message).toBe(messages.noStockAvailable);

  expect(await ticketsOf(sql, flight)).toBe(0);
  const [counts] = await sql<
    {
      orders: number;
      confirmed: number;
      lines: number;
      sales: number;
      sold: number;
      captured: number;
    }[]
  >`
    SELECT (SELECT count(*) FROM orders) AS orders,
           (SELECT count(*) FROM orders WHERE status = 'confirmed') AS confirmed,
           (SELECT count(*) FROM order_lines) AS lines,
           (SELECT count(*) FROM sales WHERE NOT deleted) AS sales,
           (SELECT coalesce(sum(amount), 0) FROM sales WHERE NOT deleted) AS sold,
           (SELECT count(*) FROM payments WHERE status = 'captured') AS captured`;
  expect(counts).toEqual({
    orders: 50,
    confirmed: 50,
    lines: 50,
    sales: 50,
    sold: 50,
    captured: 50,
  });
  // The winners are exactly the buyers with an order; each order belongs to the buyer it answered.
  const owners = await sql<{ user_id: string; id: string }[]>`SELECT user_id, id FROM orders`;
  expect(new Map(owners.map((o) => [o.user_id, o.id]))).toEqual(
    new Map(ok.map((r) => [r.buyer.id, r.body.order!.id])),
  );
  // The provider: 50 captures; any hold taken for a loser was released, none captured.
  expect(provider.capturedCount()).toBe(50);
  const statuses = [...provider.payments.values()].map((p) => p.status);
  expect(statuses.filter((s) => s === 'requires_capture')).toHaveLength(0);
  expect(statuses.filter((s) => s === 'succeeded')).toHaveLength(50);
  expect(await checkInvariants(sql)).toEqual(INVARIANTS_HOLD);
  console.log(
    `500 concurrent checkouts on 50 seats: ${seconds.toFixed(2)} s, holds released for losers: ${statuses.filter((s) => s === 'canceled').length}`,
  );
}, 120_000);
