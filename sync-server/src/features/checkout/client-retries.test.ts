import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { insertUser } from '../../test/actors.ts';
import { createTestApp, createTestHarness, jsonRequest } from '../../test/harness.ts';
import { createPayments, testProviderFor } from '../../payments/index.ts';
import { delay, withFaults, type FaultHooks } from '../../payments/faults.ts';
import { createStripeProvider } from '../../payments/stripe-provider.ts';
import {
  createTestPaymentProvider,
  type TestPaymentProvider,
} from '../../payments/test-provider.ts';
import {
  buyerWithCart,
  confirmCheckout,
  insertFlight,
  putInCart,
  startCheckout,
} from './testing.ts';

/**
 * What the PWA's checkout relies on to never pay twice (issue 14): the test provider's card
 * token (the PWA keeps a token per attempt, never a card number), continuing a card checkout by
 * its payment id after a lost answer, and the test-only slow provider of the browser test.
 */

const { sql, app } = await createTestHarness();
const airlineId = (await insertUser(sql, { role: 'airline', airlineStatus: 'approved' }))
  .airlineId!;

/** A fresh buyer with `amount` tickets of a new flight at `priceCents` in the cart. */
const withCart = (priceCents: number, amount: number) =>
  buyerWithCart(sql, airlineId, { priceCents, amount });

/**
 * Fault hooks that count the provider's authorisations begun and not answered yet (`slow`, if
 * given, runs first, to delay a call): a test waits for a late call to land instead of sleeping.
 */
function countingAuthorizations(slow?: () => unknown) {
  let unanswered = 0;
  const hooks: FaultHooks = {
    before: {
      authorize: () => {
        unanswered += 1;
        return slow?.();
      },
    },
    after: {
      authorize: () => {
        unanswered -= 1;
      },
    },
  };
  return { hooks, unanswered: () => unanswered };
}

describe('POST /api/payments/test-card: the test provider tokenises a card like Stripe.js', () => {
  test('test card numbers become their payment-method ids; anything else a token that is declined', async () => {
    const buyer = await withCart(10_00, 1);
    const token = async (number: string) => {
      const res = await app.request(
        '/api/payments/test-card',
        jsonRequest('POST', { number }, buyer.headers),
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { paymentMethodId: string }).paymentMethodId;
    };
    expect(await token('4242 4242 4242 4242')).toBe('pm_card_visa');
    expect(await token('4000000000000002')).toBe('pm_card_chargeDeclined');
    expect(await token('4000 0000 0000 9995')).toBe('pm_card_chargeDeclinedInsufficientFunds');
    expect(await token('4111 1111 1111 1111')).toBe('pm_card_unknown_number');

    // The token pays like the number did.
    const paid = await app.request(
      '/api/checkout',
      startCheckout(
        buyer.headers,
        { method: 'card', paymentMethodId: await token('4242424242424242'), amount: buyer.total },
        randomUUID(),
      ),
    );
    expect(paid.status).toBe(200);
  });

  test('only for buyers, and only while the test provider takes cards', async () => {
    const guest = await app.request(
      '/api/payments/test-card',
      jsonRequest('POST', { number: '4242424242424242' }),
    );
    expect(guest.status).toBe(401);

    const stripe = createStripeProvider({ secretKey: 'sk_test_x', apiBase: 'http://127.0.0.1:9' });
    const { app: real } = createTestApp(sql, { payments: createPayments([stripe]) });
    const buyer = await withCart(10_00, 1);
    const res = await real.request(
      '/api/payments/test-card',
      jsonRequest('POST', { number: '4242424242424242' }, buyer.headers),
    );
    expect(res.status).toBe(404);
  });
});

describe('a card checkout whose answer was lost', () => {
  test('POST /api/checkout/{paymentId}/confirm continues it: one order, one capture', async () => {
    let slow = true;
    const provider = createTestPaymentProvider();
    const calls = countingAuthorizations(() => (slow ? delay(600)() : undefined));
    const payments = createPayments([withFaults(provider, calls.hooks)], { timeoutMs: 300 });
    const { app } = createTestApp(sql, { payments });
    const buyer = await withCart(80_00, 1);
    const first = await app.request(
      '/api/checkout',
      startCheckout(
        buyer.headers,
        { method: 'card', paymentMethodId: 'pm_card_visa', amount: buyer.total },
        randomUUID(),
      ),
    );
    expect(first.status).toBe(503);
    const { details } = (await first.json()) as { details: { paymentId: string } };
    slow = false;

    const status = await app.request(`/api/checkout/${details.paymentId}`, {
      headers: buyer.headers,
    });
    expect(await status.json()).toMatchObject({ status: 'created', orderId: null });

    const done = await confirmCheckout(app, details.paymentId, buyer.headers);
    expect(done.status).toBe(200);
    const again = await confirmCheckout(app, details.paymentId, buyer.headers);
    expect(((await again.json()) as any).order.id).toBe(((await done.json()) as any).order.id);
    // The late first call lands too (waited for, not slept on).
    await expect.poll(calls.unanswered, { timeout: 10_000 }).toBe(0);
    expect(provider.payments.size).toBe(1);
    expect(provider.capturedCount()).toBe(1);
  });
});

describe('TEST_PAYMENT_SLOW_AUTHORIZATIONS (test only)', () => {
  const env = { TEST_PAYMENT_SLOW_AUTHORIZATIONS: '1' };

  test('outside production, the first N authorisations of each checkout answer after the timeout, then the same key completes', async () => {
    const provider = testProviderFor(
      { NODE_ENV: 'development', PAYMENT_TIMEOUT_MS: 200 },
      env,
    ) as TestPaymentProvider;
    const calls = countingAuthorizations();
    const { app } = createTestApp(sql, {
      payments: createPayments([withFaults(provider, calls.hooks)], { timeoutMs: 200 }),
    });
    const buyer = await withCart(30_00, 1);
    const send = (key: string) =>
      app.request(
        '/api/checkout',
        startCheckout(
          buyer.headers,
          { method: 'card', paymentMethodId: 'pm_card_visa', amount: buyer.total },
          key,
        ),
      );
    const key = randomUUID();
    expect((await send(key)).status).toBe(503);
    expect((await send(key)).status).toBe(200);
    // The slow first call lands too (waited for, not slept on).
    await expect.poll(calls.unanswered, { timeout: 10_000 }).toBe(0);
    expect(provider.payments.size).toBe(1);
    expect(provider.capturedCount()).toBe(1);

    // Every checkout gets its own slow first call.
    await putInCart(
      sql,
      buyer.user.id,
      await insertFlight(sql, airlineId, { priceCents: 30_00 }),
      1,
    );
    const next = randomUUID();
    expect((await send(next)).status).toBe(503);
    expect((await send(next)).status).toBe(200);
  });

  test('ignored in production, and without a positive count', async () => {
    for (const [nodeEnv, settings] of [
      ['production', env],
      ['development', {}],
      ['development', { TEST_PAYMENT_SLOW_AUTHORIZATIONS: 'many' }],
    ] as const) {
      // Slowed, a call would answer after twice the timeout, 20 s; unslowed it is in-memory work.
      // Half of that separates the two however busy the machine.
      const provider = testProviderFor({ NODE_ENV: nodeEnv, PAYMENT_TIMEOUT_MS: 10_000 }, settings);
      const started = Date.now();
      await provider.authorize(1000, randomUUID(), { type: 'card', id: 'pm_card_visa' });
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  });
});
