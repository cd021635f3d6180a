import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { formatCents, IdSchema, StripeChargeBodySchema, text } from '@skyport/shared';
import type { Lifecycle } from '../../lib/lifecycle.ts';
import type { Sql } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { validate } from '../../lib/validate.ts';
import type { Payments } from '../../payments/index.ts';
import { verifyStripeWebhook } from '../../payments/stripe-provider.ts';
import type { TestPaymentProvider } from '../../payments/test-provider.ts';
import { purchaseReceiptEmail } from '../email/templates.ts';
import type { Mailer } from '../email/mailer.ts';
import type { BackgroundTasks } from '../../lib/background-tasks.ts';
import type { Jobs } from '../../lib/job-queue.ts';
import { requireUser, type AuthEnv } from '../identity/guard.ts';
import type { TicketService } from '../tickets/tickets.ts';
import {
  createCheckout,
  startPaymentReconciler,
  type Checkout,
  type CheckoutOutcome,
} from './checkout.ts';
import { getOrderSummary, quoteCart, type OrderSummary, type PaymentRow } from './queries.ts';
import {
  createHolds,
  defaultHoldSettings,
  holdView,
  startHoldReleaser,
  type HoldSettings,
  type Holds,
} from './holds.ts';

export interface CheckoutRouteDeps {
  sql: Sql;
  logger: Logger;
  payments: Payments;
  mailer: Mailer;
  background: BackgroundTasks;
  /** Where the payment reconciliation and the seat hold release run (lib/job-queue.ts). */
  jobs: Jobs;
  /** The shop's public address, for links in the receipt. */
  publicUrl: string;
  /** Stops the reconciler and the seat-hold release job on shutdown. */
  lifecycle?: Lifecycle;
  /** Seat holds (issue 17): their lifetime, the share cap and the release job's period. */
  holds?: Partial<HoldSettings>;
  /** Signed e-tickets (issue 17): issued as an order is confirmed. */
  tickets?: Pick<TicketService, 'signForPayment'>;
}

/**
 * An idempotency key: what the client generated for one checkout (a UUID is ideal). Retries of
 * that checkout send the same key; a new purchase sends a new one.
 */
export const IdempotencyKeySchema = text()
  .trim()
  .min(8, 'Idempotency-Key must have 8 to 255 characters')
  .max(255, 'Idempotency-Key must have 8 to 255 characters')
  .regex(/^[A-Za-z0-9_.:-]+$/, 'Idempotency-Key may hold letters, digits and _ . : - only');

/** §7 `POST /stripe` {id, amount, receipt_email}, plus an optional idempotency key. */
const StripeCheckoutBodySchema = StripeChargeBodySchema.extend({
  idempotencyKey: IdempotencyKeySchema.optional(),
  holdId: IdSchema.optional(),
});

const AmountSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** `POST /api/checkout`: card (payment-method id) or wallet; `amount` is the total in cents. */
const CheckoutBodySchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('card'),
    paymentMethodId: text().trim().min(1).max(255),
    amount: AmountSchema,
    receiptEmail: z.email().max(254).optional(),
    idempotencyKey: IdempotencyKeySchema.optional(),
    /** Pay the caller's seat hold (POST /api/checkout/hold) instead of quoting the cart. */
    holdId: IdSchema.optional(),
  }),
  z.object({
    method: z.literal('wallet'),
    amount: AmountSchema,
    receiptEmail: z.email().max(254).optional(),
    idempotencyKey: IdempotencyKeySchema.optional(),
    /** Pay the caller's seat hold (POST /api/checkout/hold) instead of quoting the cart. */
    holdId: IdSchema.optional(),
  }),
]);

const PaymentIdParamSchema = z.object({ paymentId: IdSchema });
const HoldIdParamSchema = z.object({ holdId: IdSchema });
/** `POST /api/checkout/hold`: an optional key in the body (or the Idempotency-Key header). */
const HoldBodySchema = z.object({ idempotencyKey: IdempotencyKeySchema.optional() });
const TestCardBodySchema = z.object({ number: text().trim().min(1).max(40) });
const WalletOrderParamSchema = z.object({ orderId: text().regex(/^wo_test_[0-9a-f]{20}$/) });

/** Security: only a signed-in customer with a verified email buys (spec §4, §6). */
const buyer = () => requireUser({ roles: ['customer'], verified: true });

/** The request's key: the `Idempotency-Key` header (which must agree with the body's), else the body's. */
function requestKey(c: Context, bodyKey: string | undefined): string | undefined {
  const header = c.req.header('idempotency-key');
  if (header === undefined) return bodyKey;
  const parsed = IdempotencyKeySchema.safeParse(header);
  if (!parsed.success)
    throw new AppError(
      ErrorCode.BadRequest,
      parsed.error.issues[0]?.message ?? 'Invalid Idempotency-Key',
    );
  if (bodyKey !== undefined && bodyKey !== parsed.data) {
    throw new AppError(
      ErrorCode.BadRequest,
      'The Idempotency-Key header and the body idempotencyKey differ',
    );
  }
  return parsed.data;
}

/**
 * The key of this checkout: the `Idempotency-Key` header, else the body's `idempotencyKey`.
 * A client that sends neither (the spec's original client) gets one derived from its cart's
 * exact state, so a double-click on Pay still makes one order.
 */
async function checkoutKey(
  c: Context,
  sql: Sql,
  userId: string,
  bodyKey: string | undefined,
  extra: string,
): Promise<string> {
  const key = requestKey(c, bodyKey);
  if (key !== undefined) return key;
  const quote = await quoteCart(sql, userId);
  return `cart:${createHash('sha256').update(`${quote.cartVersion}|${extra}`).digest('hex')}`;
}

async function answer(c: Context, sql: Sql, outcome: CheckoutOutcome) {
  if (outcome.status === 'approval_required') {
    return c.json(
      {
        status: 'approval_required',
        paymentId: outcome.payment.id,
        approvalUrl: outcome.approvalUrl,
        // The provider's order id, for wallet buttons that open the approval themselves (PayPal).
        walletOrderId: outcome.payment.provider_order_id,
      },
      202,
    );
  }
  if (outcome.status === 'action_required') {
    // A card's 3-D Secure step: the PWA completes it with Stripe.js, then confirms the checkout.
    return c.json(
      {
        status: 'requires_action',
        paymentId: outcome.payment.id,
        clientSecret: outcome.clientSecret,
      },
      202,
    );
  }
  const order = outcome.order ?? (await getOrderSummary(sql, outcome.orderId));
  return c.json({
    status: 'succeeded',
    paymentId: outcome.payment.id,
    idpurchase: outcome.payment.provider_payment_id,
    amount: outcome.payment.amount_cents,
    order,
  });
}

function paymentView(payment: PaymentRow) {
  return {
    paymentId: payment.id,
    status: payment.status,
    method: payment.method,
    amount: payment.amount_cents,
    orderId: payment.status === 'captured' ? payment.order_id : null,
    idpurchase: payment.status === 'captured' ? payment.provider_payment_id : null,
    approvalUrl: payment.status === 'approval_pending' ? payment.approval_url : null,
    failure: payment.failure_code
      ? { code: payment.failure_code, message: payment.failure_message }
      : null,
  };
}

function receiptSender(deps: CheckoutRouteDeps) {
  return async (payment: PaymentRow, confirmed: OrderSummary | undefined) => {
    deps.background.run('purchase receipt', async () => {
      if (!payment.order_id) return;
      const order = confirmed ?? (await getOrderSummary(deps.sql, payment.order_id));
      const [user] = await deps.sql<{ email: string; name: string | null }[]>`
        SELECT email, name FROM users WHERE id = ${payment.user_id}`;
      if (!order || !user) return;
      await deps.mailer.send(
        purchaseReceiptEmail(payment.receipt_email ?? user.email, {
          name: user.name,
          orderId: order.id,
          paymentId: order.idpurchase,
          createdAt: new Date(order.creationdate),
          lines: order.stocks.map((line) => ({
            airlineName: line.airlineName,
            origin: line.moreinfo.origin,
            destination: line.moreinfo.destination,
            amount: line.amount,
            unitPriceCents: line.valueCents,
          })),
          subtotalCents: order.subtotalCents,
          feeCents: order.feeCents,
          totalCents: order.priceCents,
          ordersLink: `${deps.publicUrl.replace(/\/+$/, '')}/purchases`,
        }),
      );
    });
  };
}

function walletPage(orderId: string, amountCents: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Skyport test wallet</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
.badge{background:#fde68a;padding:.2rem .5rem;border-radius:.3rem;font-size:.8rem}
button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:.4rem;border:1px solid #888;cursor:pointer}
.approve{background:#2563eb;color:#fff;border-color:#2563eb}</style></head>
<body><p><span class="badge">TEST MODE</span></p>
<h1>Skyport test wallet</h1>
<p>Pay <strong>USD ${formatCents(amountCents)}</strong> to Skyport. No real money moves.</p>
<form method="post" action="${orderId}/approve" style="display:inline"><button class="approve" type="submit">Approve payment</button></form>
<form method="post" action="${orderId}/cancel" style="display:inline"><button type="submit">Cancel</button></form>
</body></html>`;
}

/** The checkout and the seat holds, with their background jobs (stopped on shutdown). */
function checkoutServices(deps: CheckoutRouteDeps): { checkout: Checkout; holds: Holds } {
  const { sql, logger, payments } = deps;
  const checkout = createCheckout({
    sql,
    logger,
    payments,
    onCaptured: receiptSender(deps),
    publicOrigin: deps.publicUrl,
    tickets: deps.tickets,
  });
  if (payments.settings.reconcileEveryMs) {
    startPaymentReconciler(deps.jobs, checkout, payments.settings.reconcileEveryMs);
  }
  const holds = createHolds({
    sql,
    logger,
    settings: { ...defaultHoldSettings, ...deps.holds },
  });
  if (holds.settings.releaseEveryMs) {
    startHoldReleaser(deps.jobs, holds, holds.settings.releaseEveryMs);
  }
  return { checkout, holds };
}

/**
 * Seat holds (issue 17): the cart's seats out of stock until the hold expires, at the server's
 * prices. Replaying the request (its Idempotency-Key) answers the same hold, never a longer one.
 */
function holdRoutes(app: Hono<AuthEnv>, holds: Holds): void {
  app.post('/checkout/hold', buyer(), validate('json', HoldBodySchema), async (c) => {
    const key = requestKey(c, c.req.valid('json').idempotencyKey);
    const { hold, created } = await holds.hold(c.var.authUser.id, key);
    return c.json(holdView(hold), created ? 201 : 200);
  });

  app.delete('/checkout/hold/:holdId', buyer(), validate('param', HoldIdParamSchema), async (c) => {
    const hold = await holds.cancel(c.var.authUser.id, c.req.valid('param').holdId);
    return c.json(holdView(hold));
  });
}

/**
 * What the checkout screen offers (which provider takes cards and wallets, and whether this is
 * test mode: the PWA marks it visibly, docs/architecture.md §6), and the test provider's card
 * "element": it turns a test card number into its payment-method id, as Stripe.js does for a real
 * card, so that the PWA keeps (and retries with) a token, never a card number. Only while the test
 * provider takes cards.
 */
function configRoutes(app: Hono<AuthEnv>, payments: Payments): void {
  app.get('/checkout/config', (c) => {
    const card = payments.forMethod('card')?.name ?? null;
    const wallet = payments.forMethod('wallet')?.name ?? null;
    return c.json({
      card,
      wallet,
      testMode: card === 'test' || wallet === 'test',
      stripePublishableKey:
        card === 'stripe' ? (payments.settings.stripePublishableKey ?? null) : null,
      paypalClientId: wallet === 'paypal' ? (payments.settings.paypalClientId ?? null) : null,
    });
  });

  const testCards =
    payments.forMethod('card')?.name === 'test' ? payments.forMethod('card') : undefined;
  if (testCards) {
    app.post('/payments/test-card', buyer(), validate('json', TestCardBodySchema), (c) =>
      c.json({ paymentMethodId: testCards.normalizeCardMethod(c.req.valid('json').number) }),
    );
  }
}

/** §7 `POST /stripe` (card) and `POST /checkout` (card or wallet): start or replay a checkout. */
function purchaseRoutes(app: Hono<AuthEnv>, sql: Sql, checkout: Checkout): void {
  app.post('/stripe', buyer(), validate('json', StripeCheckoutBodySchema), async (c) => {
    const user = c.var.authUser;
    const body = c.req.valid('json');
    const key = await checkoutKey(
      c,
      sql,
      user.id,
      body.idempotencyKey,
      `card|${body.amount}|${body.id}|${body.holdId ?? ''}`,
    );
    const outcome = await checkout.start({
      userId: user.id,
      idempotencyKey: key,
      amountCents: body.amount,
      method: { type: 'card', paymentMethodId: body.id },
      receiptEmail: body.receipt_email,
      holdId: body.holdId,
    });
    return answer(c, sql, outcome);
  });

  app.post('/checkout', buyer(), validate('json', CheckoutBodySchema), async (c) => {
    const user = c.var.authUser;
    const body = c.req.valid('json');
    const extra =
      (body.method === 'card'
        ? `card|${body.amount}|${body.paymentMethodId}`
        : `wallet|${body.amount}`) + (body.holdId ? `|${body.holdId}` : '');
    const key = await checkoutKey(c, sql, user.id, body.idempotencyKey, extra);
    const outcome = await checkout.start({
      userId: user.id,
      idempotencyKey: key,
      amountCents: body.amount,
      method:
        body.method === 'card'
          ? { type: 'card', paymentMethodId: body.paymentMethodId }
          : { type: 'wallet', origin: new URL(c.req.url).origin },
      receiptEmail: body.receiptEmail,
      holdId: body.holdId,
    });
    return answer(c, sql, outcome);
  });
}

/** A started checkout: the buyer's confirm after their step at the provider, and its status. */
function paymentRoutes(app: Hono<AuthEnv>, sql: Sql, checkout: Checkout): void {
  app.post(
    '/checkout/:paymentId/confirm',
    buyer(),
    validate('param', PaymentIdParamSchema),
    async (c) => {
      const outcome = await checkout.confirm(c.var.authUser.id, c.req.valid('param').paymentId);
      return answer(c, sql, outcome);
    },
  );

  app.get(
    '/checkout/:paymentId',
    requireUser({ roles: ['customer'] }),
    validate('param', PaymentIdParamSchema),
    async (c) => {
      const payment = await checkout.status(c.var.authUser.id, c.req.valid('param').paymentId);
      return c.json(paymentView(payment));
    },
  );
}

/**
 * The test provider's wallet approval step, served locally (docs/architecture.md §6). Like
 * PayPal's own page, it is reached with the unguessable order id the checkout handed to the buyer.
 */
function testWalletRoutes(app: Hono<AuthEnv>, payments: Payments): void {
  const testWallet =
    payments.forMethod('wallet')?.name === 'test'
      ? (payments.forMethod('wallet') as TestPaymentProvider)
      : undefined;
  if (!testWallet) return;
  app.get('/payments/test-wallet/:orderId', validate('param', WalletOrderParamSchema), (c) => {
    const order = testWallet.walletOrders.get(c.req.valid('param').orderId);
    if (!order || order.status !== 'created')
      throw new AppError(ErrorCode.NotFound, 'No such wallet order');
    return c.html(walletPage(order.id, order.amountCents));
  });
  app.post(
    '/payments/test-wallet/:orderId/:action{approve|cancel}',
    validate('param', WalletOrderParamSchema),
    (c) => {
      const { orderId } = c.req.valid('param');
      const target =
        c.req.param('action') === 'approve'
          ? testWallet.approveWalletOrder(orderId)
          : testWallet.cancelWalletOrder(orderId);
      if (!target) throw new AppError(ErrorCode.NotFound, 'No such wallet order');
      return c.redirect(target, 303);
    },
  );
}

/** A Stripe event about a payment intent: the checkout it belongs to is settled. */
async function applyStripeEvent(
  deps: CheckoutRouteDeps,
  checkout: Checkout,
  event: ReturnType<typeof verifyStripeWebhook>,
): Promise<void> {
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.canceled') return;
  const intentId = (event.data.object as { id?: unknown }).id;
  const [payment] =
    typeof intentId === 'string'
      ? await deps.sql<{ id: string; order_id: string | null; status: string }[]>`
        SELECT id, order_id, status FROM payments WHERE provider = 'stripe' AND provider_payment_id = ${intentId}`
      : [];
  if (!payment || payment.status !== 'authorized') return;
  if (event.type === 'payment_intent.succeeded' && !payment.order_id) {
    deps.logger.error(
      { paymentId: payment.id, intentId },
      'Stripe captured a payment that has no order',
    );
  } else {
    await checkout.settle(payment.id);
  }
}

/** Stripe's webhook: signature checked on the raw body, each event applied once. */
function stripeWebhookRoute(app: Hono<AuthEnv>, deps: CheckoutRouteDeps, checkout: Checkout): void {
  const { sql, payments } = deps;
  app.post('/stripe/webhook', async (c) => {
    const secret = payments.settings.stripeWebhookSecret;
    if (!secret) throw new AppError(ErrorCode.NotFound, 'Stripe webhooks are not configured');
    const raw = await c.req.text();
    let event: ReturnType<typeof verifyStripeWebhook>;
    try {
      event = verifyStripeWebhook(raw, c.req.header('stripe-signature') ?? '', secret);
    } catch {
      throw new AppError(ErrorCode.BadRequest, 'Invalid webhook signature');
    }
    const [fresh] = await sql`
      INSERT INTO payment_events (provider, event_id) VALUES ('stripe', ${event.id})
      ON CONFLICT DO NOTHING RETURNING event_id`;
    if (!fresh) return c.json({ received: true, duplicate: true });
    try {
      await applyStripeEvent(deps, checkout, event);
    } catch (error) {
      // Not applied: forget the event so that Stripe's redelivery is processed.
      await sql`DELETE FROM payment_events WHERE provider = 'stripe' AND event_id = ${event.id}`;
      throw error;
    }
    return c.json({ received: true });
  });
}

/**
 * Checkout and payment routes: §7 `POST /stripe` (card), `POST /checkout` (card or wallet),
 * the wallet confirmation, a checkout's status, the test wallet's approval page and Stripe's
 * webhook.
 */
export function checkoutRoutes(deps: CheckoutRouteDeps): {
  routes: Hono<AuthEnv>;
  checkout: Checkout;
  holds: Holds;
} {
  const { checkout, holds } = checkoutServices(deps);
  const app = new Hono<AuthEnv>();
  holdRoutes(app, holds);
  configRoutes(app, deps.payments);
  purchaseRoutes(app, deps.sql, checkout);
  paymentRoutes(app, deps.sql, checkout);
  testWalletRoutes(app, deps.payments);
  stripeWebhookRoute(app, deps, checkout);
  return { routes: app, checkout, holds };
}
