import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { calculateTotals, messages } from '@skyport/shared';
import { insertSignedInUser, type ActorName } from '../../test/actors.ts';
import { createTestApp, createTestHarness, jsonRequest } from '../../test/harness.ts';
import { createPayments } from '../../payments/index.ts';
import { crashTimes, delay, withFaults, type FaultHooks } from '../../payments/faults.ts';
import { createTestPaymentProvider } from '../../payments/test-provider.ts';
import { createCheckout } from './checkout.ts';
import { createLogger } from '../../lib/logger.ts';
import {
  buyingPathCounts,
  cardPayment,
  confirmCheckout,
  checkInvariants,
  insertFlight,
  INVARIANTS_HOLD,
  putInCart,
  startCheckout,
  ticketsOf,
} from './testing.ts';

const { sql, actors } = await createTestHarness({ actors: true });
const airlineId = actors.airline.airlineId!;

/** A fresh verified customer with a session, so tests never share a cart. */
const newCustomer = () => insertSignedInUser(sql);

function testShop(hooks?: FaultHooks) {
  const provider = createTestPaymentProvider();
  const payments = createPayments([hooks ? withFaults(provider, hooks) : provider], {
    timeoutMs: 300,
  });
  return { ...createTestApp(sql, { payments }), provider };
}

function totalOf(priceCents: number, amount: number) {
  return calculateTotals([{ unitPriceCents: priceCents, amount }]).totalCents;
}

async function paymentRow(userId: string) {
  const rows = await sql<
    {
      id: string;
      status: string;
      failure_code: string | null;
      order_id: string | null;
      provider_payment_id: string | null;
    }[]
  >`
    SELECT id, status, failure_code, order_id, provider_payment_id FROM payments WHERE user_id = ${userId} ORDER BY created_at`;
  return rows;
}

describe('card checkout through POST /api/stripe', () => {
  test('a paid checkout writes the order, its lines, the sales, takes the stock and clears the cart', async () => {
    const { app, provider, background } = testShop();
    const buyer = await newCustomer();
    const flight = await insertFlight(sql, airlineId, { priceCents: 1234_56, tickets: 10 });
    await putInCart(sql, buyer.id, flight, 3);
    const total = totalOf(1234_56, 3);

    const res = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: '4242 4242 4242 4242', amount: total }, randomUUID()),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.status).toBe('succeeded');
    expect(body.order.priceCents).toBe(total);
    expect(body.order.stocks).toHaveLength(1);
    expect(body.order.stocks[0]).toMatchObject({
      flightId: flight,
      amount: 3,
      valueCents: 1234_56,
      review: false,
    });
    expect(body.order.stocks[0].moreinfo).toEqual({
      origin: 'Argentina',
      destination: 'Chile',
      arrivalHour: '10:30',
      departureHour: '08:00',
    });

    expect(await ticketsOf(sql, flight)).toBe(7);
    const [sale] = await sql`SELECT * FROM sales WHERE flight_id = ${flight}`;
    expect(sale).toMatchObject({ airline_id: airlineId, amount: 3, unit_price_cents: 1234_56 });
    const cart = await sql`SELECT * FROM cart_lines WHERE user_id = ${buyer.id} AND NOT deleted`;
    expect(cart).toHaveLength(0);
    const [payment] = await paymentRow(buyer.id);
    expect(payment).toMatchObject({
      status: 'captured',
      order_id: body.order.id,
      provider_payment_id: body.idpurchase,
    });
    expect(provider.payments.get(body.idpurchase)).toMatchObject({
      status: 'succeeded',
      capturedCents: total,
      method: 'pm_card_visa',
    });
    // Security: the card number itself is never stored.
    const stored = await sql`SELECT payment_method FROM payments WHERE user_id = ${buyer.id}`;
    expect(stored[0]!.payment_method).toBe('pm_card_visa');

    const orders = await app.request('/api/orders', { headers: buyer.headers });
    expect(((await orders.json()) as any[]).map((o) => o.id)).toEqual([body.order.id]);

    await background.settled();
    const [mail] =
      await sql`SELECT to_address, subject, text_body FROM email_outbox WHERE subject LIKE ${`%${body.order.id}%`}`;
    expect(mail).toMatchObject({ to_address: 'buyer@example.test' });
    expect(mail!.text_body).toContain('Payment status: confirmed');
    expect(await checkInvariants(sql)).toEqual(INVARIANTS_HOLD);
  });

  test('a client amount that differs from the server total is refused before anything is charged', async () => {
    const { app, provider } = testShop();
    const buyer = await newCustomer();
    const flight = await insertFlight(sql, airlineId, { priceCents: 100_00, tickets: 5 });
    await putInCart(sql, buyer.id, flight, 1);
    const before = await buyingPathCounts(sql);

    for (const amount of [totalOf(100_00, 1) - 1, 100, totalOf(100_00, 1) + 1]) {
      const res = await app.request(
        '/api/stripe',
        cardPayment(buyer.headers, { id: 'pm_card_visa', amount }),
      );
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({
        code: 'conflict',
        message: 'Price changed',
        details: { totalCents: totalOf(100_00, 1) },
      });
    }
    expect(await buyingPathCounts(sql)).toEqual(before);
    expect(provider.payments.size).toBe(0);
  });

  test.each([
    ['4000 0000 0000 0002', 'card_declined'],
    ['pm_card_chargeDeclined', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
    ['1234 5678 9012 3456', 'incorrect_number'],
  ])('card %s is declined (%s): 402, no order, stock and cart untouched', async (card, code) => {
    const { app, provider } = testShop();
    const buyer = await newCustomer();
    const flight = await insertFlight(sql, airlineId, { priceCents: 50_00, tickets: 4 });
    await putInCart(sql, buyer.id, flight, 2);
    const res = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: card, amount: totalOf(50_00, 2) }, randomUUID()),
    );
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ code: 'payment_failed', details: { reason: code } });
    expect(await ticketsOf(sql, flight)).toBe(4);
    expect(await sql`SELECT 1 FROM orders WHERE user_id = ${buyer.id}`).toHaveLength(0);
    expect(
      await sql`SELECT 1 FROM cart_lines WHERE user_id = ${buyer.id} AND NOT deleted`,
    ).toHaveLength(1);
    expect(await paymentRow(buyer.id)).toMatchObject([
      { status: 'failed', failure_code: code, order_id: null },
    ]);
    expect(provider.capturedCount()).toBe(0);
  });

  test('a retry with the same key returns the same order and charges once', async () => {
    const { app, provider } = testShop();
    const buyer = await newCustomer();
    const flight = await insertFlight(sql, airlineId, { priceCents: 80_00, tickets: 9 });
    await putInCart(sql, buyer.id, flight, 2);
    const key = randomUUID();
    const request = () =>
      app.request(
        '/api/stripe',
        cardPayment(buyer.headers, { id: 'pm_card_visa', amount: totalOf(80_00, 2) }, key),
      );
    const first = (await (await request()).json()) as any;
    const second = await request();
    expect(second.status).toBe(200);
    expect(((await second.json()) as any).order.id).toBe(first.order.id);
    expect(provider.capturedCount()).toBe(1);
    expect(await ticketsOf(sql, flight)).toBe(7);
  });

  test('the same checkout sent 20 times in parallel makes one order and one capture', async () => {
    const { app, provider } = testShop();
    const buyer = await newCustomer();
    const flight = await insertFlight(sql, airlineId, { priceCents: 99_99, tickets: 30 });
    await putInCart(sql, buyer.id, flight, 2);
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.request(
          '/api/stripe',
          cardPayment(buyer.headers, { id: 'pm_card_visa', amount: totalOf(99_99, 2) }, key),
        ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(
      await Promise.all(responses.map(async (r) => ((await r.json()) as any).order.id)),
    );
    expect(ids.size).toBe(1);
    expect(provider.payments.size).toBe(1);
    expect(provider.capturedCount()).toBe(1);
    expect(await sql`SELECT 1 FROM orders WHERE user_id = ${buyer.id}`).toHaveLength(1);
    expect(await ticketsOf(sql, flight)).toBe(28);
  });

  test('without any key, a double click (same cart state) still makes one order', async () => {
    const { app, provider } = testShop();
    const buyer = await newCustomer();
    const flight = await insertFlight(sql, airlineId, { priceCents: 10_00, tickets: 30 });
    await putInCart(sql, buyer.id, flight, 1);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.request(
          '/api/stripe',
          cardPayment(buyer.headers, { id: 'pm_card_visa', amount: totalOf(10_00, 1) }),
        ),
      ),
    );
    // Clicks that arrive while the first runs share its key and get its order; one that arrives
    // after it finished finds the cart already bought (400 empty cart). Never a second charge.
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 400)).toBe(true);
    const orderIds = new Set(
      await Promise.all(
        responses
          .filter((r) => r.status === 200)
          .map(async (r) => ((await r.json()) as any).order.id),
      ),
    );
    expect(orderIds.size).toBe(1);
    expect(provider.capturedCount()).toBe(1);
    expect(await ticketsOf(sql, flight)).toBe(29);
  });

  test('a key reused for a different checkout is refused', async () => {
    const { app } = testShop();
    const buyer = await newCustomer();
    const flight = await insertFlight(sql, airlineId, { priceCents: 20_00, tickets: 30 });
    await putInCart(sql, buyer.id, flight, 1);
    const key = randomUUID();
    expect(
      (
        await app.request(
          '/api/stripe',
          cardPayment(buyer.headers, { id: 'pm_card_visa', amount: totalOf(20_00, 1) }, key),
        )
      ).status,
    ).toBe(200);
    const other = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: 'pm_card_visa', amount: totalOf(20_00, 1) + 5 }, key),
    );
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ details: { reason: 'idempotency_key_reused' } });
  });

  test('short stock: the authorisation is released, nothing is charged or written, "No stock available"', async () => {
    const flight = await insertFlight(sql, airlineId, { priceCents: 70_00, tickets: 2 });
    const buyer = await newCustomer();
    await putInCart(sql, buyer.id, flight, 2);
    // Stock leaves between the quote and the order transaction (another buyer, right after authorise).
    const { app, provider } = testShop({
      after: { authorize: () => sql`UPDATE flights SET tickets = 1 WHERE id = ${flight}` },
    });
    const res = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: 'pm_card_visa', amount: totalOf(70_00, 2) }, randomUUID()),
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ message: messages.noStockAvailable });
    expect(await ticketsOf(sql, flight)).toBe(1);
    expect(await paymentRow(buyer.id)).toMatchObject([
      { status: 'released', failure_code: 'no_stock', order_id: null },
    ]);
    expect([...provider.payments.values()].map((p) => p.status)).toEqual(['canceled']);
    expect(await sql`SELECT 1 FROM orders WHERE user_id = ${buyer.id}`).toHaveLength(0);
  });

  test('a price that moves between quote and order is refused and released', async () => {
    const flight = await insertFlight(sql, airlineId, { priceCents: 70_00, tickets: 5 });
    const buyer = await newCustomer();
    await putInCart(sql, buyer.id, flight, 1);
    const { app, provider } = testShop({
      after: {
        authorize: () => sql`UPDATE flights SET price_cents = ${75_00} WHERE id = ${flight}`,
      },
    });
    const res = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: 'pm_card_visa', amount: totalOf(70_00, 1) }, randomUUID()),
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ message: 'Price changed' });
    expect(await ticketsOf(sql, flight)).toBe(5);
    expect([...provider.payments.values()].map((p) => p.status)).toEqual(['canceled']);
  });

  test('an empty cart, an unavailable flight and a missing card are 4xx and write nothing', async () => {
    const { app } = testShop();
    const buyer = await newCustomer();
    const before = await buyingPathCounts(sql);
    const empty = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: 'pm_card_visa', amount: 100 }),
    );
    expect(empty.status).toBe(400);
    const gone = await insertFlight(sql, airlineId, { tickets: 1 });
    await putInCart(sql, buyer.id, gone, 1);
    await sql`UPDATE flights SET deleted = true WHERE id = ${gone}`;
    const mid = await buyingPathCounts(sql);
    const sold = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: 'pm_card_visa', amount: totalOf(150_00, 1) }),
    );
    expect(sold.status).toBe(409);
    expect(await sold.json()).toMatchObject({ message: messages.noStockAvailable });
    expect(await buyingPathCounts(sql)).toEqual(mid);
    expect(before.orders).toBe(mid.orders);
  });
});

describe('faults between authorise and capture, and the reconciler', () => {
  const far = () => new Date(Date.now() + 10 * 60_000);

  async function setup(hooks: FaultHooks, tickets = 10) {
    const shop = testShop(hooks);
    const buyer = await newCustomer();
    const flight = await insertFlight(sql, airlineId, { priceCents: 300_00, tickets });
    await putInCart(sql, buyer.id, flight, 2);
    const checkout = createCheckout({
      sql,
      logger: createLogger('silent'),
      payments: shop.payments,
    });
    const send = (key: string) =>
      shop.app.request(
        '/api/stripe',
        cardPayment(buyer.headers, { id: 'pm_card_visa', amount: totalOf(300_00, 2) }, key),
      );
    return { ...shop, buyer, flight, checkout, send };
  }

  test('provider timeout on authorise: 503, nothing bought; the reconciler releases the late hold', async () => {
    let calls = 0;
    const { provider, buyer, flight, checkout, send } = await setup({
      before: { authorize: () => (calls++ === 0 ? delay(600)() : undefined) },
    });
    const res = await send(randomUUID());
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      details: { reason: 'payment_pending', retryable: true },
    });
    expect(await ticketsOf(sql, flight)).toBe(10);
    expect(await sql`SELECT 1 FROM orders WHERE user_id = ${buyer.id}`).toHaveLength(0);
    // The provider answers after we gave up: a hold exists (waited for, not slept on).
    await expect
      .poll(() => [...provider.payments.values()].map((p) => p.status), { timeout: 10_000 })
      .toEqual(['requires_capture']);

    const report = await checkout.reconcile({ asOf: far(), staleAfterMs: 0, userId: buyer.id });
    expect(report).toMatchObject({ released: 1, captured: 0 });
    expect([...provider.payments.values()].map((p) => p.status)).toEqual(['canceled']);
    expect(await paymentRow(buyer.id)).toMatchObject([{ status: 'released', order_id: null }]);
    expect(await ticketsOf(sql, flight)).toBe(10);
  });

  test('provider timeout, then the client retries with the same key: one order, one capture', async () => {
    let slow = true;
    const { provider, flight, send } = await setup({
      before: { authorize: () => (slow ? delay(600)() : undefined) },
    });
    const key = randomUUID();
    expect((await send(key)).status).toBe(503);
    slow = false;
    // The late first call lands (a hold at the provider) before the client retries.
    await expect.poll(() => provider.payments.size, { timeout: 10_000 }).toBe(1);
    const retry = await send(key);
    expect(retry.status).toBe(200);
    expect(provider.payments.size).toBe(1);
    expect(provider.capturedCount()).toBe(1);
    expect(await ticketsOf(sql, flight)).toBe(8);
  });

  test('crash right after authorise (hold taken, not recorded): no order; the reconciler releases it', async () => {
    const { provider, buyer, flight, checkout, send } = await setup({
      after: { authorize: crashTimes(1, 'after authorise') },
    });
    expect((await send(randomUUID())).status).toBe(503);
    expect(await paymentRow(buyer.id)).toMatchObject([{ status: 'created', order_id: null }]);
    expect([...provider.payments.values()].map((p) => p.status)).toEqual(['requires_capture']);

    const report = await checkout.reconcile({ asOf: far(), staleAfterMs: 0, userId: buyer.id });
    expect(report).toMatchObject({ released: 1 });
    expect([...provider.payments.values()].map((p) => p.status)).toEqual(['canceled']);
    expect(provider.capturedCount()).toBe(0);
    expect(await ticketsOf(sql, flight)).toBe(10);
    expect(await sql`SELECT 1 FROM orders WHERE user_id = ${buyer.id}`).toHaveLength(0);
    expect(await checkInvariants(sql)).toMatchObject({
      orders_without_capture: 0,
      captures_without_order: 0,
    });
  });

  test('crash between the order transaction and capture: the order stays pending (hidden), the reconciler captures it', async () => {
    const { app, provider, buyer, flight, checkout, send } = await setup({
      before: { capture: crashTimes(1, 'before capture') },
    });
    expect((await send(randomUUID())).status).toBe(503);
    const [order] = await sql`SELECT status FROM orders WHERE user_id = ${buyer.id}`;
    expect(order).toMatchObject({ status: 'pending' });
    expect(await ticketsOf(sql, flight)).toBe(8); // stock held for the order
    expect(provider.capturedCount()).toBe(0);
    expect(await (await app.request('/api/orders', { headers: buyer.headers })).json()).toEqual([]);
    // Not yet: a checkout that stalled moments ago may still be retried by its client.
    expect((await checkout.reconcile({ userId: buyer.id })).examined).toBe(0);

    const report = await checkout.reconcile({ asOf: far(), staleAfterMs: 0, userId: buyer.id });
    expect(report).toMatchObject({ captured: 1 });
    expect(provider.capturedCount()).toBe(1);
    expect(await sql`SELECT status FROM orders WHERE user_id = ${buyer.id}`).toMatchObject([
      { status: 'confirmed' },
    ]);
    expect(
      await (await app.request('/api/orders', { headers: buyer.headers })).json(),
    ).toHaveLength(1);
    expect(await ticketsOf(sql, flight)).toBe(8);
    expect(await checkInvariants(sql)).toMatchObject({
      orders_without_capture: 0,
      captures_without_order: 0,
    });
  });

  test('crash right after capture (money taken, not recorded): the reconciler records it without charging twice', async () => {
    const { provider, buyer, checkout, send } = await setup({
      after: { capture: crashTimes(1, 'after capture') },
    });
    expect((await send(randomUUID())).status).toBe(503);
    expect(provider.capturedCount()).toBe(1);
    expect(await paymentRow(buyer.id)).toMatchObject([{ status: 'authorized' }]);
    await checkout.reconcile({ asOf: far(), staleAfterMs: 0, userId: buyer.id });
    expect(await paymentRow(buyer.id)).toMatchObject([{ status: 'captured' }]);
    const [payment] = [...provider.payments.values()];
    expect(payment).toMatchObject({ status: 'succeeded', captureCalls: 2 });
    expect(provider.capturedCount()).toBe(1);
    expect(await checkInvariants(sql)).toMatchObject({
      orders_without_capture: 0,
      captures_without_order: 0,
    });
  });

  test('a capture the provider refuses cancels the order, returns the stock and the cart', async () => {
    const shop = await setup({
      before: {
        // The hold vanished at the provider (expired) before the capture.
        capture: async () => {
          for (const p of target.payments.values()) await target.release(p.id, 'x');
        },
      },
    });
    const target = shop.provider;
    const res = await shop.send(randomUUID());
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ details: { reason: 'capture_failed' } });
    expect(await ticketsOf(sql, shop.flight)).toBe(10);
    expect(
      await sql`SELECT status, deleted FROM orders WHERE user_id = ${shop.buyer.id}`,
    ).toMatchObject([{ status: 'cancelled', deleted: true }]);
    expect(
      await sql`SELECT s.deleted FROM sales s JOIN order_lines l ON l.id = s.order_line_id JOIN orders o ON o.id = l.order_id WHERE o.user_id = ${shop.buyer.id}`,
    ).toMatchObject([{ deleted: true }]);
    expect(
      await sql`SELECT amount FROM cart_lines WHERE user_id = ${shop.buyer.id} AND NOT deleted`,
    ).toMatchObject([{ amount: 2 }]);
    expect(shop.provider.capturedCount()).toBe(0);
    expect(await checkInvariants(sql)).toMatchObject({
      orders_without_capture: 0,
      captures_without_order: 0,
    });
  });
});

describe('wallet checkout with the test provider', () => {
  test('create, approve on the locally served page, confirm: one order', async () => {
    const { app, provider } = testShop();
    const buyer = await newCustomer();
    const flight = await insertFlight(sql, airlineId, { priceCents: 45_00, tickets: 3 });
    await putInCart(sql, buyer.id, flight, 1);
    const key = randomUUID();
    const start = await app.request(
      '/api/checkout',
      startCheckout(buyer.headers, { method: 'wallet', amount: totalOf(45_00, 1) }, key),
    );
    expect(start.status).toBe(202);
    const { paymentId, approvalUrl } = (await start.json()) as any;
    expect(approvalUrl).toMatch(/^\/api\/payments\/test-wallet\/wo_test_/);

    // Confirming before the buyer approved: refused, retryable, nothing bought.
    const early = await confirmCheckout(app, paymentId, buyer.headers);
    expect(early.status).toBe(402);
    expect(await early.json()).toMatchObject({
      details: { reason: 'wallet_not_approved', retryable: true },
    });

    const page = await app.request(approvalUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('TEST MODE');
    const approved = await app.request(`${approvalUrl}/approve`, { method: 'POST' });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toBe(
      `http://localhost/payment?checkout=${paymentId}&wallet=approved`,
    );

    const done = await confirmCheckout(app, paymentId, buyer.headers);
    expect(done.status).toBe(200);
    const body = (await done.json()) as any;
    expect(body.order.priceCents).toBe(totalOf(45_00, 1));
    expect(provider.capturedCount()).toBe(1);
    expect(await ticketsOf(sql, flight)).toBe(2);
    // Confirming again, or replaying the start with its key, returns the same order.
    const again = await confirmCheckout(app, paymentId, buyer.headers);
    expect(((await again.json()) as any).order.id).toBe(body.order.id);
    const status = await app.request(`/api/checkout/${paymentId}`, { headers: buyer.headers });
    expect(await status.json()).toMatchObject({ status: 'captured', orderId: body.order.id });
    // Another customer cannot see or confirm it.
    const other = await newCustomer();
    expect(
      (await app.request(`/api/checkout/${paymentId}`, { headers: other.headers })).status,
    ).toBe(404);
    expect((await confirmCheckout(app, paymentId, other.headers)).status).toBe(404);
  });
});

test('GET /api/checkout/config tells the checkout screen which providers run and that this is test mode', async () => {
  const { app } = testShop();
  expect(await (await app.request('/api/checkout/config')).json()).toEqual({
    card: 'test',
    wallet: 'test',
    testMode: true,
    stripePublishableKey: null,
    paypalClientId: null,
  });
});

describe('who may buy, and bad input', () => {
  test('guests, unverified customers, airlines and administrators cannot check out', async () => {
    const { app } = testShop();
    const body = { id: 'pm_card_visa', amount: 1000, receipt_email: 'a@b.test' };
    const status = async (who: ActorName) =>
      (await app.request('/api/stripe', jsonRequest('POST', body, actors[who].headers()))).status;
    expect(await status('guest')).toBe(401);
    expect(await status('disabledUser')).toBe(401);
    const unverified = await app.request(
      '/api/stripe',
      jsonRequest('POST', body, actors.unverifiedCustomer.headers()),
    );
    expect(unverified.status).toBe(403);
    expect(await unverified.json()).toMatchObject({ message: messages.verifyEmailToBuy });
    for (const who of ['pendingAirline', 'airline', 'otherAirline', 'superAdmin'] as const)
      expect(await status(who)).toBe(403);
  });

  test.each([
    ['a negative amount', { id: 'pm_card_visa', amount: -100, receipt_email: 'a@b.test' }],
    ['a fractional amount', { id: 'pm_card_visa', amount: 10.5, receipt_email: 'a@b.test' }],
    ['an amount as text', { id: 'pm_card_visa', amount: '1000', receipt_email: 'a@b.test' }],
    ['no payment method', { amount: 1000, receipt_email: 'a@b.test' }],
    ['no receipt email', { id: 'pm_card_visa', amount: 1000 }],
    ['malformed JSON', '{"id": "pm_card_visa", "amount": '],
  ])('%s is a 400 and writes nothing', async (_name, body) => {
    const { app } = testShop();
    const buyer = await newCustomer();
    const flight = await insertFlight(sql, airlineId, { tickets: 3 });
    await putInCart(sql, buyer.id, flight, 1);
    const before = await buyingPathCounts(sql);
    const res = await app.request('/api/stripe', jsonRequest('POST', body, buyer.headers));
    expect(res.status).toBe(400);
    expect(await buyingPathCounts(sql)).toEqual(before);
  });

  test('a bad Idempotency-Key header is a 400', async () => {
    const { app } = testShop();
    const buyer = await newCustomer();
    const res = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: 'pm_card_visa', amount: 100 }, 'short'),
    );
    expect(res.status).toBe(400);
  });

  test('an oversized body is a 413 and writes nothing', async () => {
    const { app } = testShop();
    const buyer = await newCustomer();
    const before = await buyingPathCounts(sql);
    const res = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: 'x'.repeat(70_000), amount: 100 }),
    );
    expect(res.status).toBe(413);
    expect(await buyingPathCounts(sql)).toEqual(before);
  });
});
