import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../config.ts';
import { createPaymentsFromConfig } from './index.ts';
import { createPayPalProvider } from './paypal-provider.ts';
import { PaymentDeclinedError, PaymentUnavailableError } from './provider.ts';
import { createStripeProvider, signStripeWebhook, verifyStripeWebhook } from './stripe-provider.ts';
import { createTestPaymentProvider } from './test-provider.ts';
import { startPayPalPeer, type PayPalPeer } from './testing/paypal-peer.ts';
import { startStripePeer, type StripePeer } from './testing/stripe-peer.ts';

const card = (id: string) => ({ type: 'card' as const, id });

describe('test provider', () => {
  test('test cards and their pm_ twins: success, decline, insufficient funds', async () => {
    const provider = createTestPaymentProvider();
    await expect(
      provider.authorize(1000, 'k1', card('4242 4242 4242 4242')),
    ).resolves.toMatchObject({ amountCents: 1000 });
    await expect(provider.authorize(1000, 'k2', card('pm_card_visa'))).resolves.toMatchObject({
      amountCents: 1000,
    });
    for (const [id, code] of [
      ['4000 0000 0000 0002', 'card_declined'],
      ['pm_card_chargeDeclined', 'card_declined'],
      ['4000 0000 0000 9995', 'insufficient_funds'],
      ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
    ] as const) {
      await expect(provider.authorize(1000, `k-${id}`, card(id))).rejects.toMatchObject({
        name: 'PaymentDeclinedError',
        code,
      });
    }
    expect(provider.normalizeCardMethod('4000-0000-0000-0002')).toBe('pm_card_chargeDeclined');
    expect(provider.normalizeCardMethod('4111 1111 1111 1111')).toBe('pm_card_unknown_number');
  });

  test('authorise is idempotent per key; capture twice is one capture; release after capture is refused', async () => {
    const provider = createTestPaymentProvider();
    const a = await provider.authorize(500, 'same', card('pm_card_visa'));
    const b = await provider.authorize(500, 'same', card('pm_card_visa'));
    expect(b.id).toBe(a.id);
    await provider.capture(a.id, 500, 'c');
    await provider.capture(a.id, 500, 'c');
    expect(provider.capturedCount()).toBe(1);
    await expect(provider.release(a.id, 'r')).rejects.toBeInstanceOf(PaymentDeclinedError);
    const c = await provider.authorize(700, 'other', card('pm_card_visa'));
    await provider.release(c.id, 'r');
    await provider.release(c.id, 'r');
    await expect(provider.capture(c.id, 700, 'c')).rejects.toMatchObject({
      code: 'authorization_not_capturable',
    });
  });

  test("the wallet needs the buyer's approval before it can be authorised", async () => {
    const provider = createTestPaymentProvider();
    const order = await provider.createWalletOrder!(1234, 'w', {
      returnUrl: 'https://shop/ok',
      cancelUrl: 'https://shop/no',
    });
    await expect(
      provider.authorize(1234, 'w', { type: 'wallet', orderId: order.orderId }),
    ).rejects.toMatchObject({ code: 'wallet_not_approved' });
    expect(provider.approveWalletOrder(order.orderId)).toBe('https://shop/ok');
    await expect(
      provider.authorize(1234, 'w', { type: 'wallet', orderId: order.orderId }),
    ).resolves.toMatchObject({ amountCents: 1234 });
  });
});

describe('Stripe adapter against a local Stripe peer', () => {
  let peer: StripePeer;
  beforeAll(async () => {
    peer = await startStripePeer({ secretKey: 'sk_test_peer' });
  });
  afterAll(() => peer.close());
  const stripe = (options: { timeoutMs?: number; secretKey?: string } = {}) =>
    createStripeProvider({
      secretKey: options.secretKey ?? 'sk_test_peer',
      apiBase: peer.url,
      timeoutMs: options.timeoutMs ?? 2000,
    });

  test('authorise creates a manual-capture PaymentIntent for the server amount, idempotently', async () => {
    const provider = stripe();
    const a = await provider.authorize(12_345, 'checkout-1', {
      type: 'card',
      id: 'pm_card_visa',
      receiptEmail: 'a@b.test',
    });
    const b = await provider.authorize(12_345, 'checkout-1', {
      type: 'card',
      id: 'pm_card_visa',
      receiptEmail: 'a@b.test',
    });
    expect(b.id).toBe(a.id);
    expect(peer.intents.get(a.id)).toMatchObject({
      amount: 12_345,
      capture_method: 'manual',
      status: 'requires_capture',
      receipt_email: 'a@b.test',
    });
    expect([...peer.intents.values()].filter((i) => i.id === a.id)).toHaveLength(1);
  });

  test('declines map to card_declined and insufficient_funds', async () => {
    const provider = stripe();
    await expect(
      provider.authorize(1000, 'd1', card('pm_card_chargeDeclined')),
    ).rejects.toMatchObject({ code: 'card_declined', message: 'Your card was declined.' });
    await expect(
      provider.authorize(1000, 'd2', card('pm_card_chargeDeclinedInsufficientFunds')),
    ).rejects.toMatchObject({ code: 'insufficient_funds' });
  });

  test('capture, a repeated capture, and release rules', async () => {
    const provider = stripe();
    const a = await provider.authorize(5000, 'cap-1', card('pm_card_visa'));
    await provider.capture(a.id, 5000, 'cap-1');
    await provider.capture(a.id, 5000, 'cap-1-again'); // already succeeded: fine
    expect(peer.intents.get(a.id)).toMatchObject({ status: 'succeeded', amount_received: 5000 });
    await expect(provider.release(a.id, 'rel')).rejects.toMatchObject({ code: 'already_captured' });
    const b = await provider.authorize(5000, 'rel-1', card('pm_card_visa'));
    await provider.release(b.id, 'rel-1');
    await provider.release(b.id, 'rel-1-again');
    expect(peer.intents.get(b.id)?.status).toBe('canceled');
    await expect(provider.capture(b.id, 5000, 'x')).rejects.toMatchObject({
      code: 'authorization_not_capturable',
    });
  });

  test('an outage or a slow answer is "unavailable" (outcome unknown), not a decline', async () => {
    peer.failNext(1);
    await expect(stripe().authorize(1000, 'out-1', card('pm_card_visa'))).rejects.toBeInstanceOf(
      PaymentUnavailableError,
    );
    peer.delayMs = 500;
    try {
      await expect(
        stripe({ timeoutMs: 100 }).authorize(1000, 'slow-1', card('pm_card_visa')),
      ).rejects.toBeInstanceOf(PaymentUnavailableError);
    } finally {
      peer.delayMs = 0;
    }
  });

  test('webhook signatures are checked on the raw body', () => {
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_1' } },
    });
    const signature = signStripeWebhook(payload, 'whsec_test');
    expect(verifyStripeWebhook(payload, signature, 'whsec_test').id).toBe('evt_1');
    expect(() =>
      verifyStripeWebhook(payload.replace('pi_1', 'pi_2'), signature, 'whsec_test'),
    ).toThrow();
    expect(() => verifyStripeWebhook(payload, signature, 'whsec_other')).toThrow();
    const stale = signStripeWebhook(payload, 'whsec_test', Math.floor(Date.now() / 1000) - 3600);
    expect(() => verifyStripeWebhook(payload, stale, 'whsec_test')).toThrow();
  });
});

describe('PayPal adapter against a local PayPal peer', () => {
  let peer: PayPalPeer;
  beforeAll(async () => {
    peer = await startPayPalPeer({ clientId: 'cid', clientSecret: 'secret' });
  });
  afterAll(() => peer.close());
  const paypal = (secret = 'secret') =>
    createPayPalProvider({
      clientId: 'cid',
      clientSecret: secret,
      apiBase: peer.url,
      timeoutMs: 2000,
    });
  const urls = {
    returnUrl: 'https://shop.test/payment?ok',
    cancelUrl: 'https://shop.test/payment?no',
  };

  test('create (USD, no shipping, AUTHORIZE), approve, authorise, capture: with PayPal-Request-Id idempotency', async () => {
    const provider = paypal();
    const order = await provider.createWalletOrder!(12_34, 'pp-1', urls);
    const again = await provider.createWalletOrder!(12_34, 'pp-1', urls);
    expect(again.orderId).toBe(order.orderId);
    expect(peer.orders.get(order.orderId)).toMatchObject({
      intent: 'AUTHORIZE',
      amount: { currency_code: 'USD', value: '12.34' },
    });
    expect(order.approvalUrl).toBe(`${peer.url}/checkoutnow?token=${order.orderId}`);

    await expect(
      provider.authorize(12_34, 'pp-1', { type: 'wallet', orderId: order.orderId }),
    ).rejects.toMatchObject({ code: 'wallet_not_approved' });
    const approval = await fetch(order.approvalUrl, { redirect: 'manual' });
    expect(approval.status).toBe(302);
    expect(approval.headers.get('location')).toBe(urls.returnUrl);

    const authorization = await provider.authorize(12_34, 'pp-1', {
      type: 'wallet',
      orderId: order.orderId,
    });
    const repeated = await provider.authorize(12_34, 'pp-1-retry', {
      type: 'wallet',
      orderId: order.orderId,
    });
    expect(repeated.id).toBe(authorization.id);
    await provider.capture(authorization.id, 12_34, 'pp-1');
    await provider.capture(authorization.id, 12_34, 'pp-1-second');
    expect(peer.authorizations.get(authorization.id)).toMatchObject({
      status: 'CAPTURED',
      captures: 1,
    });
    await expect(provider.release(authorization.id, 'pp-1')).rejects.toMatchObject({
      code: 'already_captured',
    });
  });

  test('void releases an authorisation; a voided one cannot be captured', async () => {
    const provider = paypal();
    const order = await provider.createWalletOrder!(500, 'pp-2', urls);
    peer.approve(order.orderId);
    const authorization = await provider.authorize(500, 'pp-2', {
      type: 'wallet',
      orderId: order.orderId,
    });
    await provider.release(authorization.id, 'pp-2');
    await provider.release(authorization.id, 'pp-2-again');
    expect(peer.authorizations.get(authorization.id)?.status).toBe('VOIDED');
    await expect(provider.capture(authorization.id, 500, 'pp-2')).rejects.toMatchObject({
      code: 'authorization_not_capturable',
    });
  });

  test('outages and bad credentials are "unavailable"', async () => {
    peer.failNext(1);
    await expect(paypal().createWalletOrder!(500, 'pp-3', urls)).rejects.toBeInstanceOf(
      PaymentUnavailableError,
    );
    await expect(paypal('wrong').createWalletOrder!(500, 'pp-4', urls)).rejects.toBeInstanceOf(
      PaymentUnavailableError,
    );
  });
});

describe('configuration', () => {
  test('production refuses the test provider unless explicitly allowed', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PAYMENT_PROVIDER/);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://db.skyport.test/skyport',
        ALLOW_TEST_PAYMENTS: 'true',
        APP_ORIGIN: 'https://skyport.test',
      }).PAYMENT_PROVIDER,
    ).toBe('test');
    expect(loadConfig({}).PAYMENT_PROVIDER).toBe('test');
  });

  test('real providers need their keys, and switch each other on', () => {
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYPAL_CLIENT_ID/);
    const both = createPaymentsFromConfig(
      loadConfig({
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_x',
        PAYPAL_CLIENT_ID: 'c',
        PAYPAL_CLIENT_SECRET: 's',
      }),
    );
    expect(both.forMethod('card')?.name).toBe('stripe');
    expect(both.forMethod('wallet')?.name).toBe('paypal');
    const test = createPaymentsFromConfig(loadConfig({}));
    expect(test.forMethod('card')?.name).toBe('test');
    expect(test.forMethod('wallet')?.name).toBe('test');
  });
});
