import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { insertUser } from '../../test/actors.ts';
import { createTestApp, createTestHarness } from '../../test/harness.ts';
import { createPayments } from '../../payments/index.ts';
import { crashTimes, withFaults } from '../../payments/faults.ts';
import { signStripeWebhook } from '../../payments/stripe-provider.ts';
import { startPaymentPeers } from '../../payments/testing/peers.ts';
import {
  buyerWithCart,
  cardPayment,
  checkInvariants,
  confirmCheckout,
  startCheckout,
} from './testing.ts';

/** The whole buying path with the real adapters, against local peers that answer like Stripe and PayPal. */

const { sql } = await createTestHarness();
const { stripePeer, paypalPeer, providers } = await startPaymentPeers({
  stripeSecretKey: 'sk_test_shop',
  paypalClientId: 'shop',
  paypalClientSecret: 'shh',
});
const airlineId = (await insertUser(sql, { role: 'airline', airlineStatus: 'approved' }))
  .airlineId!;
const WEBHOOK_SECRET = 'whsec_local_test';

function shop(options: { crashAfterCapture?: boolean } = {}) {
  const { stripe, paypal } = providers(3000);
  const card = options.crashAfterCapture
    ? withFaults(stripe, { after: { capture: crashTimes(1, 'after capture') } })
    : stripe;
  const payments = createPayments([card, paypal], {
    timeoutMs: 3000,
    stripeWebhookSecret: WEBHOOK_SECRET,
  });
  return createTestApp(sql, { payments });
}

/** A fresh buyer with `amount` tickets of a new flight at `priceCents` in the cart. */
const withCart = (priceCents: number, amount: number) =>
  buyerWithCart(sql, airlineId, { priceCents, amount, tickets: 20 });

function webhook(event: object, secret = WEBHOOK_SECRET): RequestInit {
  const payload = JSON.stringify(event);
  return {
    method: 'POST',
    body: payload,
    headers: {
      'Content-Type': 'application/json',
      'Stripe-Signature': signStripeWebhook(payload, secret),
    },
  };
}

describe('Stripe cards', () => {
  test('POST /api/stripe authorises a manual-capture PaymentIntent for the server total, then captures it', async () => {
    const { app } = shop();
    const buyer = await withCart(250_00, 2);
    const res = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: 'pm_card_visa', amount: buyer.total }, randomUUID()),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.idpurchase).toMatch(/^pi_/);
    expect(stripePeer.intents.get(body.idpurchase)).toMatchObject({
      amount: buyer.total,
      amount_received: buyer.total,
      capture_method: 'manual',
      status: 'succeeded',
      receipt_email: 'buyer@example.test',
    });
    expect(body.order.priceCents).toBe(buyer.total);
  });

  test("a Stripe decline is a 402 with Stripe's message, and nothing is bought", async () => {
    const { app } = shop();
    const buyer = await withCart(10_00, 1);
    const res = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, {
        id: 'pm_card_chargeDeclinedInsufficientFunds',
        amount: buyer.total,
      }),
    );
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({
      message: 'Your card has insufficient funds.',
      details: { reason: 'insufficient_funds' },
    });
    expect(await sql`SELECT 1 FROM orders WHERE user_id = ${buyer.user.id}`).toHaveLength(0);
  });

  test('webhook: a signed payment_intent.succeeded settles a checkout that crashed after capture; redelivery is deduplicated', async () => {
    const { app } = shop({ crashAfterCapture: true });
    const buyer = await withCart(33_00, 1);
    const res = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: 'pm_card_visa', amount: buyer.total }, randomUUID()),
    );
    expect(res.status).toBe(503);
    const [payment] = await sql<
      { provider_payment_id: string; status: string }[]
    >`SELECT provider_payment_id, status FROM payments WHERE user_id = ${buyer.user.id}`;
    expect(payment!.status).toBe('authorized');
    expect(stripePeer.intents.get(payment!.provider_payment_id)?.status).toBe('succeeded');

    const event = {
      id: `evt_${randomUUID()}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: payment!.provider_payment_id, object: 'payment_intent' } },
    };
    const first = await app.request('/api/stripe/webhook', webhook(event));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });
    const [settled] = await sql`SELECT status FROM payments WHERE user_id = ${buyer.user.id}`;
    expect(settled).toMatchObject({ status: 'captured' });
    expect(await sql`SELECT status FROM orders WHERE user_id = ${buyer.user.id}`).toMatchObject([
      { status: 'confirmed' },
    ]);

    const again = await app.request('/api/stripe/webhook', webhook(event));
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(await checkInvariants(sql)).toMatchObject({
      orders_without_capture: 0,
      captures_without_order: 0,
    });
  });

  test('webhook: a bad signature is refused and recorded nowhere', async () => {
    const { app } = shop();
    const event = {
      id: `evt_${randomUUID()}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_x' } },
    };
    const forged = await app.request('/api/stripe/webhook', webhook(event, 'whsec_attacker'));
    expect(forged.status).toBe(400);
    const unsigned = await app.request('/api/stripe/webhook', {
      method: 'POST',
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(400);
    expect(await sql`SELECT 1 FROM payment_events WHERE event_id = ${event.id}`).toHaveLength(0);
  });
});

describe('PayPal wallet', () => {
  test('create → buyer approves at PayPal → confirm: authorised, order written, captured', async () => {
    const { app } = shop();
    const buyer = await withCart(12_34, 1);
    const start = await app.request(
      '/api/checkout',
      startCheckout(buyer.headers, { method: 'wallet', amount: buyer.total }, randomUUID()),
    );
    expect(start.status).toBe(202);
    const { paymentId, approvalUrl } = (await start.json()) as {
      paymentId: string;
      approvalUrl: string;
    };
    expect(approvalUrl.startsWith(paypalPeer.url)).toBe(true);
    const approval = await fetch(approvalUrl, { redirect: 'manual' });
    expect(approval.headers.get('location')).toBe(
      `http://localhost/payment?checkout=${paymentId}&wallet=approved`,
    );

    const done = await confirmCheckout(app, paymentId, buyer.headers);
    expect(done.status).toBe(200);
    const body = (await done.json()) as any;
    expect(paypalPeer.authorizations.get(body.idpurchase)).toMatchObject({
      status: 'CAPTURED',
      amount: { currency_code: 'USD', value: (buyer.total / 100).toFixed(2) },
    });
    expect(body.order.priceCents).toBe(buyer.total);
  });

  test('a card payment is refused by the wallet-only PayPal setup', async () => {
    const { paypal } = providers();
    const { app } = createTestApp(sql, { payments: createPayments([paypal]) });
    const buyer = await withCart(5_00, 1);
    const res = await app.request(
      '/api/stripe',
      cardPayment(buyer.headers, { id: 'pm_card_visa', amount: buyer.total }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ details: { reason: 'method_unavailable' } });
  });
});
