import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { insertUser } from '../../test/actors.ts';
import { createTestApp, createTestHarness } from '../../test/harness.ts';
import { createLogger } from '../../lib/logger.ts';
import { createPayments } from '../../payments/index.ts';
import { startPaymentPeers } from '../../payments/testing/peers.ts';
import { createCheckout } from './checkout.ts';
import {
  buyerWithCart,
  checkInvariants,
  confirmCheckout,
  startCheckout,
  ticketsOf,
} from './testing.ts';

/**
 * A card that needs 3-D Secure, against the local Stripe peer: the checkout answers the buyer's
 * step (the PaymentIntent's client secret), holds nothing until the buyer authenticated, and
 * captures only after; failed or abandoned authentication buys nothing. And the PayPal buttons'
 * path: the order id the buttons approve, then create and capture on the server.
 */

const { sql } = await createTestHarness();
const { stripePeer, paypalPeer, providers } = await startPaymentPeers({
  stripeSecretKey: 'sk_test_3ds',
  paypalClientId: 'shop',
  paypalClientSecret: 'shh',
});
const airlineId = (await insertUser(sql, { role: 'airline', airlineStatus: 'approved' }))
  .airlineId!;
const THREE_D_SECURE = 'pm_card_authenticationRequired';

function shop() {
  const { stripe, paypal } = providers(2000);
  const payments = createPayments([stripe, paypal], {
    timeoutMs: 1000,
    stripePublishableKey: 'pk_test_3ds',
    paypalClientId: 'shop',
  });
  const checkout = createCheckout({ sql, logger: createLogger('silent'), payments });
  return { ...createTestApp(sql, { payments }), checkout };
}

/** A fresh buyer with `amount` tickets of a new flight at `priceCents` in the cart. */
const withCart = (priceCents: number, amount: number) =>
  buyerWithCart(sql, airlineId, { priceCents, amount });

type Buyer = Awaited<ReturnType<typeof withCart>>;

function payByCard(buyer: Buyer, key: string, paymentMethodId = THREE_D_SECURE) {
  return startCheckout(
    buyer.headers,
    { method: 'card', paymentMethodId, amount: buyer.total, receiptEmail: 'r@x.test' },
    key,
  );
}

async function paymentOf(userId: string) {
  return sql<{ status: string; failure_code: string | null; order_id: string | null }[]>`
    SELECT status, failure_code, order_id FROM payments WHERE user_id = ${userId}`;
}

async function ordersOf(userId: string) {
  return sql<{ status: string }[]>`SELECT status FROM orders WHERE user_id = ${userId}`;
}

/** Starts a 3-D Secure checkout: 202 with the intent's client secret, nothing held. */
async function startThreeDSecure(app: ReturnType<typeof shop>['app'], buyer: Buyer, key: string) {
  const res = await app.request('/api/checkout', payByCard(buyer, key));
  expect(res.status).toBe(202);
  const body = (await res.json()) as { status: string; paymentId: string; clientSecret: string };
  expect(body.status).toBe('requires_action');
  const intent = [...stripePeer.intents.values()].find(
    (i) => i.client_secret === body.clientSecret,
  );
  expect(intent).toBeDefined();
  return { ...body, intent: intent! };
}

describe('Stripe cards that need 3-D Secure', () => {
  test('the checkout hands the buyer the authentication step and captures only after it', async () => {
    const { app } = shop();
    const buyer = await withCart(120_00, 2);
    const key = randomUUID();
    const { paymentId, clientSecret, intent } = await startThreeDSecure(app, buyer, key);

    // Created on the server for Stripe.js to finish in the page, with nothing held or bought.
    expect(intent).toMatchObject({
      amount: buyer.total,
      capture_method: 'manual',
      status: 'requires_action',
      next_action: { type: 'use_stripe_sdk' },
    });
    expect(await paymentOf(buyer.user.id)).toEqual([
      { status: 'approval_pending', failure_code: null, order_id: null },
    ]);
    expect(await ordersOf(buyer.user.id)).toEqual([]);
    expect(await ticketsOf(sql, buyer.flight)).toBe(10);

    // Confirming before the buyer authenticated: still their step, the same secret.
    const early = await confirmCheckout(app, paymentId, buyer.headers);
    expect(early.status).toBe(202);
    expect(await early.json()).toEqual({ status: 'requires_action', paymentId, clientSecret });
    expect(intent.status).toBe('requires_action');

    // The buyer completes the challenge (Stripe.js handleNextAction), then the PWA confirms.
    stripePeer.authenticate(intent.id);
    const done = await confirmCheckout(app, paymentId, buyer.headers);
    expect(done.status).toBe(200);
    const body = (await done.json()) as { paymentId: string; idpurchase: string; order: any };
    expect(body).toMatchObject({ paymentId, idpurchase: intent.id });
    expect(body.order.priceCents).toBe(buyer.total);
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: buyer.total });
    expect(await ticketsOf(sql, buyer.flight)).toBe(8);
    expect(await ordersOf(buyer.user.id)).toEqual([{ status: 'confirmed' }]);

    // The same key again (a retry whose answer was lost) is the same order, charged once.
    const replay = await app.request('/api/checkout', payByCard(buyer, key));
    expect(replay.status).toBe(200);
    expect(((await replay.json()) as any).order.id).toBe(body.order.id);
    const captures = stripePeer.requests.filter(
      (r) => r === `POST /v1/payment_intents/${intent.id}/capture`,
    );
    expect(captures).toHaveLength(1);
    expect(await checkInvariants(sql)).toMatchObject({
      orders_without_capture: 0,
      captures_without_order: 0,
    });
  });

  test('after authenticating, a retry with the same key completes the purchase too', async () => {
    const { app } = shop();
    const buyer = await withCart(60_00, 1);
    const key = randomUUID();
    const { intent } = await startThreeDSecure(app, buyer, key);
    stripePeer.authenticate(intent.id);
    const res = await app.request('/api/checkout', payByCard(buyer, key));
    expect(res.status).toBe(200);
    expect(intent.status).toBe('succeeded');
    expect(await ordersOf(buyer.user.id)).toEqual([{ status: 'confirmed' }]);
  });

  test('a failed authentication is a final 402: nothing held, nothing bought, the same answer on retry', async () => {
    const { app } = shop();
    const buyer = await withCart(75_00, 1);
    const key = randomUUID();
    const { paymentId, intent } = await startThreeDSecure(app, buyer, key);
    stripePeer.authenticate(intent.id, 'fail');

    const res = await confirmCheckout(app, paymentId, buyer.headers);
    expect(res.status).toBe(402);
    const refusal = await res.json();
    expect(refusal).toMatchObject({ details: { reason: 'authentication_failed' } });
    expect((refusal as { details: { retryable?: boolean } }).details.retryable).toBeUndefined();
    expect(intent.status).toBe('canceled');
    expect(await paymentOf(buyer.user.id)).toEqual([
      { status: 'failed', failure_code: 'authentication_failed', order_id: null },
    ]);
    expect(await ordersOf(buyer.user.id)).toEqual([]);
    expect(await ticketsOf(sql, buyer.flight)).toBe(10);

    const again = await app.request('/api/checkout', payByCard(buyer, key));
    expect(again.status).toBe(402);
    expect(await again.json()).toMatchObject({ details: { reason: 'authentication_failed' } });
  });

  test('Stripe not answering while the checkout looks the authentication up: 503, then the same key completes once', async () => {
    const { app } = shop();
    const buyer = await withCart(90_00, 1);
    const key = randomUUID();
    const { paymentId, intent } = await startThreeDSecure(app, buyer, key);
    stripePeer.authenticate(intent.id);

    stripePeer.delayMs = 1500; // past the checkout's 1 s provider timeout
    try {
      const slow = await confirmCheckout(app, paymentId, buyer.headers);
      expect(slow.status).toBe(503);
      expect(await slow.json()).toMatchObject({
        details: { reason: 'payment_pending', retryable: true, paymentId },
      });
    } finally {
      stripePeer.delayMs = 0;
    }
    expect(await ordersOf(buyer.user.id)).toEqual([]);
    const done = await app.request('/api/checkout', payByCard(buyer, key));
    expect(done.status).toBe(200);
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: buyer.total });
    expect(await ordersOf(buyer.user.id)).toEqual([{ status: 'confirmed' }]);
  });

  test('abandoned authentication: the reconciler cancels the intent (even one the buyer authenticated) and buys nothing', async () => {
    const { app, checkout } = shop();
    const later = new Date(Date.now() + 10 * 60_000);

    const never = await withCart(30_00, 1);
    const abandoned = await startThreeDSecure(app, never, randomUUID());
    const authenticatedOnly = await withCart(40_00, 1);
    const held = await startThreeDSecure(app, authenticatedOnly, randomUUID());
    stripePeer.authenticate(held.intent.id); // held now, but the PWA never confirmed

    for (const buyer of [never, authenticatedOnly]) {
      const report = await checkout.reconcile({
        asOf: later,
        staleAfterMs: 0,
        walletExpiryMs: 0,
        userId: buyer.user.id,
      });
      expect(report).toMatchObject({ examined: 1, failed: 1, captured: 0, errors: 0 });
      expect(await paymentOf(buyer.user.id)).toEqual([
        { status: 'failed', failure_code: 'expired', order_id: null },
      ]);
      expect(await ordersOf(buyer.user.id)).toEqual([]);
      expect(await ticketsOf(sql, buyer.flight)).toBe(10);
    }
    expect(abandoned.intent.status).toBe('canceled');
    expect(held.intent).toMatchObject({ status: 'canceled', amount_received: 0 });
  });

  test('a card without 3-D Secure still authorises and captures in one request', async () => {
    const { app } = shop();
    const buyer = await withCart(20_00, 1);
    const res = await app.request('/api/checkout', payByCard(buyer, randomUUID(), 'pm_card_visa'));
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).status).toBe('succeeded');
  });
});

describe('PayPal buttons: the order id to approve, then create and capture on the server', () => {
  test('the wallet answer names the PayPal order; approved in the buttons, confirm captures it once', async () => {
    const { app } = shop();
    const config = await (await app.request('/api/checkout/config')).json();
    expect(config).toEqual({
      card: 'stripe',
      wallet: 'paypal',
      testMode: false,
      stripePublishableKey: 'pk_test_3ds',
      paypalClientId: 'shop',
    });

    const buyer = await withCart(55_50, 2);
    const key = randomUUID();
    const start = () =>
      app.request(
        '/api/checkout',
        startCheckout(buyer.headers, { method: 'wallet', amount: buyer.total }, key),
      );
    const res = await start();
    expect(res.status).toBe(202);
    const body = (await res.json()) as { paymentId: string; walletOrderId: string };
    const order = paypalPeer.orders.get(body.walletOrderId);
    expect(order).toMatchObject({
      intent: 'AUTHORIZE',
      amount: { currency_code: 'USD', value: (buyer.total / 100).toFixed(2) },
    });
    // The buttons' createOrder retried with the same key: the same PayPal order, not a second.
    const again = (await (await start()).json()) as { walletOrderId: string };
    expect(again.walletOrderId).toBe(body.walletOrderId);

    paypalPeer.approve(body.walletOrderId); // the buyer approves in PayPal's window
    const done = await confirmCheckout(app, body.paymentId, buyer.headers);
    expect(done.status).toBe(200);
    expect(order!.authorization).toMatchObject({ status: 'CAPTURED', captures: 1 });
    expect(await ordersOf(buyer.user.id)).toEqual([{ status: 'confirmed' }]);
  });
});
