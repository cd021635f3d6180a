import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { insertUser } from '../../test/actors.ts';
import { createTestHarness, type TestInstance } from '../../test/harness.ts';
import { createPayments } from '../../payments/index.ts';
import { crashTimes, withFaults } from '../../payments/faults.ts';
import { createTestPaymentProvider } from '../../payments/test-provider.ts';
import { startPaymentPeers } from '../../payments/testing/peers.ts';
import { buyerWithCart, checkInvariants, startCheckout, ticketsOf } from './testing.ts';

/**
 * Everything a checkout needs is in its `payments` row (issue 38 part 3, migration 026): a 3-D
 * Secure or wallet checkout started on one instance is finished by another instance on the same
 * database, by the buyer's confirm or a replay of the same idempotency key. The two instances
 * share one payment provider, as two servers share one Stripe or PayPal account.
 */

const { sql, startInstance } = await createTestHarness();
const airlineId = (await insertUser(sql, { role: 'airline', airlineStatus: 'approved' }))
  .airlineId!;
const { stripePeer, paypalPeer, providers } = await startPaymentPeers({
  stripeSecretKey: 'sk_test_instances',
  paypalClientId: 'shop',
  paypalClientSecret: 'shh',
});

type Buyer = Awaited<ReturnType<typeof buyerWithCart>>;

const post = (instance: TestInstance, path: string, init: RequestInit) =>
  fetch(`${instance.origin}${path}`, init);
const confirmOn = (instance: TestInstance, paymentId: string, buyer: { headers: object }) =>
  post(instance, `/api/checkout/${paymentId}/confirm`, {
    method: 'POST',
    headers: { ...buyer.headers },
  });

async function ordersOf(userId: string) {
  return sql<{ id: string; status: string }[]>`
    SELECT id, status FROM orders WHERE user_id = ${userId}`;
}

async function rowOf(paymentId: string) {
  const [row] = await sql<{ status: string; client_secret: string | null }[]>`
    SELECT status, client_secret FROM payments WHERE id = ${paymentId}`;
  return row;
}

describe('a card that needs 3-D Secure', () => {
  const { stripe, paypal } = providers(2000);
  const payments = createPayments([stripe, paypal], { timeoutMs: 1000 });
  const THREE_D_SECURE = 'pm_card_authenticationRequired';
  const pay = (buyer: Buyer, key: string) =>
    startCheckout(
      buyer.headers,
      { method: 'card', paymentMethodId: THREE_D_SECURE, amount: buyer.total },
      key,
    );

  test('started on one instance, the authentication is finished on another', async () => {
    const [first, second] = [await startInstance({ payments }), await startInstance({ payments })];
    const buyer = await buyerWithCart(sql, airlineId, { priceCents: 80_00, amount: 2 });
    const key = randomUUID();

    const started = await post(first, '/api/checkout', pay(buyer, key));
    expect(started.status).toBe(202);
    const { paymentId, clientSecret } = (await started.json()) as {
      paymentId: string;
      clientSecret: string;
    };
    const intent = [...stripePeer.intents.values()].find((i) => i.client_secret === clientSecret)!;
    expect(intent.status).toBe('requires_action');
    // The step's secret is in the row, for the payment's owner only: not in the status view,
    // and another customer's confirm is answered like an unknown checkout's.
    expect(await rowOf(paymentId)).toEqual({
      status: 'approval_pending',
      client_secret: clientSecret,
    });
    const view = await fetch(`${second.origin}/api/checkout/${paymentId}`, {
      headers: buyer.headers,
    });
    expect(JSON.stringify(await view.json())).not.toContain(clientSecret);
    const stranger = await buyerWithCart(sql, airlineId, { priceCents: 10_00, amount: 1 });
    expect((await confirmOn(second, paymentId, stranger)).status).toBe(404);

    // The other instance, before the buyer authenticated: still their step, the same secret.
    const early = await confirmOn(second, paymentId, buyer);
    expect(early.status).toBe(202);
    expect(await early.json()).toEqual({ status: 'requires_action', paymentId, clientSecret });

    stripePeer.authenticate(intent.id);
    const done = await confirmOn(second, paymentId, buyer);
    expect(done.status).toBe(200);
    const body = (await done.json()) as { order: { id: string; priceCents: number } };
    expect(body.order.priceCents).toBe(buyer.total);
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: buyer.total });
    expect(await rowOf(paymentId)).toEqual({ status: 'captured', client_secret: null });

    // The first instance, replaying the key: the same order, captured once.
    const replay = await post(first, '/api/checkout', pay(buyer, key));
    expect(replay.status).toBe(200);
    expect(((await replay.json()) as { order: { id: string } }).order.id).toBe(body.order.id);
    const captures = stripePeer.requests.filter(
      (r) => r === `POST /v1/payment_intents/${intent.id}/capture`,
    );
    expect(captures).toHaveLength(1);
    expect(await ticketsOf(sql, buyer.flight)).toBe(8);
    expect(await ordersOf(buyer.id)).toEqual([{ id: body.order.id, status: 'confirmed' }]);
  });

  test('after authenticating, a replay of the key on another instance completes it', async () => {
    const [first, second] = [await startInstance({ payments }), await startInstance({ payments })];
    const buyer = await buyerWithCart(sql, airlineId, { priceCents: 45_00, amount: 1 });
    const key = randomUUID();
    const started = await post(first, '/api/checkout', pay(buyer, key));
    const { clientSecret } = (await started.json()) as { clientSecret: string };
    const intent = [...stripePeer.intents.values()].find((i) => i.client_secret === clientSecret)!;
    stripePeer.authenticate(intent.id);

    const replay = await post(second, '/api/checkout', pay(buyer, key));
    expect(replay.status).toBe(200);
    expect(intent.status).toBe('succeeded');
    expect(await ordersOf(buyer.id)).toMatchObject([{ status: 'confirmed' }]);
  });
});

describe('a wallet payment', () => {
  test('started on one instance (PayPal), approved, confirmed on another', async () => {
    const { stripe, paypal } = providers(2000);
    const payments = createPayments([stripe, paypal], { timeoutMs: 1000 });
    const [first, second] = [await startInstance({ payments }), await startInstance({ payments })];
    const buyer = await buyerWithCart(sql, airlineId, { priceCents: 55_50, amount: 2 });
    const key = randomUUID();
    const wallet = startCheckout(buyer.headers, { method: 'wallet', amount: buyer.total }, key);

    const started = await post(first, '/api/checkout', wallet);
    expect(started.status).toBe(202);
    const { paymentId, walletOrderId } = (await started.json()) as {
      paymentId: string;
      walletOrderId: string;
    };
    paypalPeer.approve(walletOrderId);
    const done = await confirmOn(second, paymentId, buyer);
    expect(done.status).toBe(200);
    expect(paypalPeer.orders.get(walletOrderId)!.authorization).toMatchObject({
      status: 'CAPTURED',
      captures: 1,
    });
    const again = await post(first, '/api/checkout', wallet);
    expect(again.status).toBe(200);
    expect(await ordersOf(buyer.id)).toMatchObject([{ status: 'confirmed' }]);
  });

  test('cut off on one instance before the wallet order existed: the key on another sends the buyer back to the shop they started from', async () => {
    // One wallet provider behind both; the first instance's first call to it never gets there.
    const provider = createTestPaymentProvider();
    const cut = withFaults(provider, {
      before: { createWalletOrder: crashTimes(1, 'before the wallet order') },
    });
    const first = await startInstance({ payments: createPayments([cut], { timeoutMs: 2000 }) });
    const second = await startInstance({
      payments: createPayments([provider], { timeoutMs: 2000 }),
    });
    const buyer = await buyerWithCart(sql, airlineId, { priceCents: 30_00, amount: 1 });
    const key = randomUUID();
    const wallet = startCheckout(buyer.headers, { method: 'wallet', amount: buyer.total }, key);

    const lost = await post(first, '/api/checkout', wallet);
    expect(lost.status).toBe(503);
    const resumed = await post(second, '/api/checkout', wallet);
    expect(resumed.status).toBe(202);
    const { paymentId, approvalUrl } = (await resumed.json()) as {
      paymentId: string;
      approvalUrl: string;
    };
    // The buyer started on the first instance's origin: the wallet sends them back there, not
    // to the second instance's own public address.
    const approved = await post(second, `${approvalUrl}/approve`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toBe(
      `${first.origin}/payment?checkout=${paymentId}&wallet=approved`,
    );

    const done = await confirmOn(second, paymentId, buyer);
    expect(done.status).toBe(200);
    expect(provider.capturedCount()).toBe(1);
    expect(await ticketsOf(sql, buyer.flight)).toBe(9);
    expect(await checkInvariants(sql)).toMatchObject({
      orders_without_capture: 0,
      captures_without_order: 0,
    });
  });
});
