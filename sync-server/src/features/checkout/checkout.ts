import { createHash } from 'node:crypto';
import { messages } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Payments } from '../../payments/index.ts';
import type { TicketService } from '../tickets/tickets.ts';
import {
  findPayment,
  findPaymentByKey,
  findStalledPayments,
  insertPayment,
  type Quote,
  quoteCart,
  releaseLease,
  takeLease,
  type OrderSummary,
  type PaymentRow,
} from './queries.ts';
import { findHold } from './hold-queries.ts';
import { drive, FINAL, runOf, type CheckoutContext, type Run } from './steps.ts';
import type { Jobs } from '../../lib/job-queue.ts';

/**
 * The checkout state machine (docs/architecture.md §6, migration 005). A payment row, keyed by the
 * caller's idempotency key, records how far one checkout got; its steps (steps.ts) move it one
 * provider call or one transaction at a time, and whoever holds the row's lease (the request, a
 * retry of it once the lease lapsed, on any instance, or the reconciler) continues from where it
 * stands:
 *
 *   created → authorised → order transaction (stock, order, lines, sales, cart) → captured
 *
 * With a seat hold (holds.ts, issue 17) the quote is the hold's and the order transaction consumes
 * the hold instead of taking stock; a hold released meanwhile ends the checkout as `hold_expired`.
 *
 * A buyer's step at the provider parks the row in `approval_pending`: a wallet order to approve,
 * or a card's 3-D Secure authentication (the card's pending payment in `provider_order_id`, its
 * client secret in `client_secret`). `confirm` (or a retry with the same key, for cards)
 * continues it once the buyer is done.
 *
 * Failure rules: a decline before the order is written leaves nothing; no stock or a moved
 * price rolls the transaction back and releases the hold; an unknown outcome (timeout, provider
 * error, a crash) leaves the row where it is for a retry or the reconciler. After the order is
 * written the only way is forward (capture); a refused capture cancels the order and returns the
 * stock. So at rest every confirmed order has a captured payment of exactly its total, and every
 * captured payment has its order.
 */

export const PRICE_CHANGED = 'Price changed';

export interface CheckoutDeps {
  sql: Sql;
  logger: Logger;
  payments: Payments;
  /** Signs the tickets of an order as it is written, stored with its confirmation (issue 17). */
  tickets?: Pick<TicketService, 'signForPayment'>;
  /**
   * Called once per captured checkout (the purchase receipt) with the confirmed order as the
   * confirmation read it; failures are only logged.
   */
  onCaptured?: (payment: PaymentRow, order: OrderSummary | undefined) => Promise<void>;
  /** How long a request holds a checkout it works on. */
  leaseMs?: number;
  /** How long a duplicate request waits for the one holding the checkout. */
  waitMs?: number;
  /** The shop's public origin, for wallet return addresses of checkouts that recorded none. */
  publicOrigin?: string;
}

export type CheckoutMethod =
  | { type: 'card'; paymentMethodId: string }
  /** `origin`: the shop's origin, where the provider sends the buyer back to `/payment`. */
  | { type: 'wallet'; origin: string };

export interface CheckoutInput {
  userId: string;
  idempotencyKey: string;
  /** What the client believes the total is, in cents: refused if it differs from the server's. */
  amountCents: number;
  method: CheckoutMethod;
  receiptEmail?: string | undefined;
  /**
   * The caller's seat hold to pay (issue 17): the hold's quote is charged and its seats bought;
   * without it, the cart is quoted and stock taken in the order transaction (the spec's flow).
   */
  holdId?: string | undefined;
}

export type CheckoutOutcome =
  /** `order`: the confirmed order when this request confirmed it (else read it by `orderId`). */
  | { status: 'completed'; payment: PaymentRow; orderId: string; order?: OrderSummary }
  | { status: 'approval_required'; payment: PaymentRow; approvalUrl: string }
  /** A card's 3-D Secure step: the PWA completes it with `clientSecret`, then confirms. */
  | { status: 'action_required'; payment: PaymentRow; clientSecret: string };

/** 503: the provider's answer is unknown; the same idempotency key continues the checkout. */
export class PaymentPendingError extends AppError {
  override readonly status = 503;
  constructor(paymentId: string) {
    super(
      ErrorCode.PaymentFailed,
      'The payment provider did not answer in time; retry with the same Idempotency-Key',
      {
        reason: 'payment_pending',
        retryable: true,
        paymentId,
      },
    );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
function requestHash(
  amountCents: number,
  method: 'card' | 'wallet',
  paymentMethod: string | null,
  holdId: string | undefined,
): string {
  // Without a hold, the hash of checkouts started before holds existed.
  return createHash('sha256')
    .update(`${amountCents}|${method}|${paymentMethod ?? ''}${holdId ? `|hold:${holdId}` : ''}`)
    .digest('hex');
}

/** The answer to a payment against a hold that has no seats any more. */
function holdExpiredError(): AppError {
  return new AppError(ErrorCode.Conflict, messages.holdExpired, { reason: 'hold_expired' });
}

/** The error a failed checkout answers with, the same for the first request and every replay. */
function failureOf(payment: PaymentRow): AppError {
  const code = payment.failure_code ?? 'failed';
  if (code === 'no_stock')
    return new AppError(ErrorCode.Conflict, messages.noStockAvailable, { reason: code });
  if (code === 'price_changed') {
    return new AppError(ErrorCode.Conflict, PRICE_CHANGED, { reason: code });
  }
  if (code === 'hold_expired') return holdExpiredError();
  if (code === 'abandoned' || code === 'expired') {
    return new AppError(ErrorCode.Conflict, 'This checkout was not completed; start a new one', {
      reason: code,
    });
  }
  return new AppError(
    ErrorCode.PaymentFailed,
    payment.failure_message ?? 'The payment was declined',
    { reason: code },
  );
}

/** The checkout's settings and dependencies, shared by every drive. */
interface Shop extends CheckoutContext {
  /** How long a duplicate request waits for the one holding the checkout. */
  waitMs: number;
}

function shopOf(deps: CheckoutDeps): Shop {
  const { payments } = deps;
  return {
    sql: deps.sql,
    logger: deps.logger,
    payments,
    tickets: deps.tickets,
    onCaptured: deps.onCaptured,
    leaseMs: deps.leaseMs ?? Math.max(60_000, payments.settings.timeoutMs * 4),
    waitMs: deps.waitMs ?? 25_000,
    timeoutMs: payments.settings.timeoutMs,
    publicOrigin: deps.publicOrigin,
  };
}

/** Drives forward a checkout whose lease we hold; an unknown outcome leaves the row for a retry. */
async function driveLeased(shop: Shop, payment: PaymentRow, buyerBack = false): Promise<Run> {
  try {
    const run = runOf(shop, payment, 'forward', buyerBack);
    await drive(run);
    return run;
  } catch (error) {
    const context = { err: error, paymentId: payment.id, status: payment.status };
    shop.logger.warn(context, 'checkout interrupted');
    await releaseLease(shop.sql, payment.id).catch(() => {});
    if (error instanceof AppError) throw error;
    throw new PaymentPendingError(payment.id);
  }
}

/**
 * The answer for where a checkout stands. `order`: the order this request's drive confirmed (a
 * replay reads it again: routes.ts `answer`). The 3-D Secure client secret comes from the row, and
 * only ever to the payment's owner: the start and confirm of their own checkout call this.
 */
function outcomeOf(payment: PaymentRow, order?: OrderSummary): CheckoutOutcome {
  if (payment.status === 'captured' && payment.order_id) {
    return { status: 'completed', payment, orderId: payment.order_id, order };
  }
  const clientSecret = payment.client_secret;
  if (payment.status === 'approval_pending' && payment.method === 'card' && clientSecret) {
    return { status: 'action_required', payment, clientSecret };
  }
  if (payment.status === 'approval_pending' && payment.approval_url) {
    return { status: 'approval_required', payment, approvalUrl: payment.approval_url };
  }
  if (FINAL.has(payment.status)) throw failureOf(payment);
  throw new PaymentPendingError(payment.id);
}

/** A request whose key is already taken: wait for the holder, or continue when it is gone. */
async function replay(
  shop: Shop,
  payment: PaymentRow,
  hash: string | undefined,
): Promise<CheckoutOutcome> {
  if (hash !== undefined && payment.request_hash !== hash) {
    throw new AppError(
      ErrorCode.Conflict,
      'This Idempotency-Key was already used for a different checkout',
      { reason: 'idempotency_key_reused' },
    );
  }
  const deadline = Date.now() + shop.waitMs;
  let pause = 10;
  let current = payment;
  for (;;) {
    // A wallet waits for the buyer's approval (confirm continues it); a card's 3-D Secure step
    // is looked up again at the provider, so a retry after the buyer authenticated completes.
    const buyersTurn = current.status === 'approval_pending' && current.method === 'wallet';
    if (FINAL.has(current.status) || buyersTurn) return outcomeOf(current);
    const leased = await takeLease(shop.sql, current.id, shop.leaseMs);
    if (leased) {
      const run = await driveLeased(shop, leased);
      return outcomeOf(run.payment, run.order);
    }
    if (Date.now() > deadline) throw new PaymentPendingError(current.id);
    await sleep(pause);
    pause = Math.min(pause * 2, 200);
    current = (await findPayment(shop.sql, current.id))!;
  }
}

/**
 * The quote of a payment against a seat hold: the hold's lines and totals, if the hold is the
 * caller's and still holds its seats. (A replay of a started checkout never gets here.)
 */
async function heldQuote(sql: Sql, userId: string, holdId: string): Promise<Quote> {
  const hold = await findHold(sql, holdId);
  // Security: another customer's hold is answered like an unknown one.
  if (!hold || hold.user_id !== userId) {
    throw new AppError(ErrorCode.NotFound, messages.holdNotFound);
  }
  if (hold.status !== 'active' || hold.expires_in_ms <= 0) throw holdExpiredError();
  return {
    lines: hold.lines.map((line) => ({ ...line, unitPriceCents: Number(line.unitPriceCents) })),
    totals: {
      subtotalCents: hold.subtotal_cents,
      feeCents: hold.fee_cents,
      totalCents: hold.total_cents,
    },
    unavailable: [],
    cartVersion: '',
  };
}

/** A quote the checkout may charge: not empty, in stock, and the total the client agreed to. */
function judgeQuote(quote: Quote, amountCents: number): void {
  if (quote.lines.length === 0)
    throw new AppError(ErrorCode.BadRequest, 'Your cart is empty', { reason: 'empty_cart' });
  if (quote.unavailable.length > 0) {
    throw new AppError(ErrorCode.Conflict, messages.noStockAvailable, {
      reason: 'no_stock',
      flights: quote.unavailable,
    });
  }
  if (quote.totals.totalCents !== amountCents) {
    // The server's quote (the hold's, or the cart's now) is in the details: a client shows
    // the old and new totals and, once the buyer agrees, pays the new one (a re-quote).
    throw new AppError(ErrorCode.Conflict, PRICE_CHANGED, {
      reason: 'price_changed',
      ...quote.totals,
    });
  }
}

async function start(shop: Shop, input: CheckoutInput): Promise<CheckoutOutcome> {
  const { sql } = shop;
  const method = input.method;
  const provider = shop.payments.forMethod(method.type);
  if (!provider) {
    throw new AppError(ErrorCode.BadRequest, `Payment by ${method.type} is not available`, {
      reason: 'method_unavailable',
    });
  }
  const storedMethod =
    method.type === 'card' ? provider.normalizeCardMethod(method.paymentMethodId) : null;
  const hash = requestHash(input.amountCents, method.type, storedMethod, input.holdId);
  const [existing, cartQuote] = await Promise.all([
    findPaymentByKey(sql, input.userId, input.idempotencyKey),
    input.holdId === undefined ? quoteCart(sql, input.userId) : undefined,
  ]);
  if (existing) return replay(shop, existing, hash);
  const quote = cartQuote ?? (await heldQuote(sql, input.userId, input.holdId!));
  judgeQuote(quote, input.amountCents);
  const created = await insertPayment(sql, {
    userId: input.userId,
    provider: provider.name,
    idempotencyKey: input.idempotencyKey,
    method: method.type,
    paymentMethod: storedMethod,
    requestHash: hash,
    lines: quote.lines,
    totals: quote.totals,
    receiptEmail: input.receiptEmail ?? null,
    leaseMs: shop.leaseMs,
    holdId: input.holdId,
    walletOrigin: method.type === 'wallet' ? method.origin : undefined,
  });
  if (!created)
    return replay(shop, (await findPaymentByKey(sql, input.userId, input.idempotencyKey))!, hash);
  const run = await driveLeased(shop, created);
  return outcomeOf(run.payment, run.order);
}

async function confirm(shop: Shop, userId: string, paymentId: string): Promise<CheckoutOutcome> {
  const payment = await findPayment(shop.sql, paymentId);
  // Security: another customer's payment id is answered like an unknown one.
  if (!payment || payment.user_id !== userId) {
    throw new AppError(ErrorCode.NotFound, 'No such checkout');
  }
  if (payment.method === 'card' || payment.status !== 'approval_pending')
    return replay(shop, payment, undefined);
  const leased = await takeLease(shop.sql, payment.id, shop.leaseMs);
  if (!leased) return replay(shop, payment, undefined);
  const run = await driveLeased(shop, leased, true);
  return outcomeOf(run.payment, run.order);
}

async function settle(shop: Shop, paymentId: string): Promise<PaymentRow | undefined> {
  const leased = await takeLease(shop.sql, paymentId, shop.leaseMs);
  if (!leased) return undefined;
  try {
    return await drive(runOf(shop, leased, 'rollback'));
  } catch (error) {
    await releaseLease(shop.sql, paymentId).catch(() => {});
    throw error;
  }
}

async function status(shop: Shop, userId: string, paymentId: string): Promise<PaymentRow> {
  const payment = await findPayment(shop.sql, paymentId);
  if (!payment || payment.user_id !== userId)
    throw new AppError(ErrorCode.NotFound, 'No such checkout');
  return payment;
}

export interface ReconcileOptions {
  asOf?: Date;
  staleAfterMs?: number;
  walletExpiryMs?: number;
  limit?: number;
  userId?: string;
}

export interface ReconcileReport {
  examined: number;
  captured: number;
  released: number;
  failed: number;
  errors: number;
}

async function reconcile(shop: Shop, options: ReconcileOptions = {}): Promise<ReconcileReport> {
  const { sql, logger } = shop;
  const asOf = options.asOf ?? new Date();
  const stalled = await findStalledPayments(sql, {
    asOf,
    staleAfterMs: options.staleAfterMs ?? 2 * 60_000,
    walletExpiryMs: options.walletExpiryMs ?? 3 * 60 * 60_000,
    limit: options.limit ?? 200,
    userId: options.userId,
  });
  const report = { examined: stalled.length, captured: 0, released: 0, failed: 0, errors: 0 };
  for (const { id } of stalled) {
    const leased = await takeLease(sql, id, shop.leaseMs, asOf);
    if (!leased) continue;
    try {
      const done = await drive(runOf(shop, leased, 'rollback'));
      if (done.status === 'captured') report.captured += 1;
      else if (done.status === 'released') report.released += 1;
      else if (done.status === 'failed') report.failed += 1;
    } catch (error) {
      report.errors += 1;
      logger.warn(
        { err: error, paymentId: id },
        'reconcile could not finish a checkout; will retry',
      );
      await releaseLease(sql, id).catch(() => {});
    }
  }
  if (report.examined > 0) logger.info(report, 'payments reconciled');
  return report;
}

export function createCheckout(deps: CheckoutDeps) {
  const shop = shopOf(deps);
  return {
    /**
     * Starts (or, for a known key, replays) a checkout of the caller's server-side cart, or of
     * the caller's seat hold (`holdId`).
     * @throws AppError 400 empty cart / method unavailable, 409 no stock / price changed /
     *         key reused, 402 declined, 503 outcome unknown (retry with the same key).
     */
    start: (input: CheckoutInput): Promise<CheckoutOutcome> => start(shop, input),

    /**
     * The buyer is back from their step at the provider: a wallet order approved (authorise it
     * and finish), or a card's 3-D Secure done (or a card checkout whose answer was lost):
     * continue it as a retry with its key would. Any instance: the row holds what it needs.
     */
    confirm: (userId: string, paymentId: string): Promise<CheckoutOutcome> =>
      confirm(shop, userId, paymentId),

    /**
     * A provider told us (webhook) that a payment was captured or cancelled on its side: finish
     * that checkout now, as the reconciler would, unless a request is working on it.
     */
    settle: (paymentId: string): Promise<PaymentRow | undefined> => settle(shop, paymentId),

    /** Where a checkout stands (for the buyer's own polling). */
    status: (userId: string, paymentId: string): Promise<PaymentRow> =>
      status(shop, userId, paymentId),

    /**
     * The crash-recovery step: finishes checkouts that stalled (a crash or an unanswered provider
     * between authorise and capture). Before the order was written → the hold is released and
     * nothing was bought; after → the payment is captured (or, if the provider refuses, the order
     * is cancelled and its stock returned). Wallet approvals never completed expire.
     * Run at start-up and every minute; safe on several instances at once (leases).
     */
    reconcile: (options: ReconcileOptions = {}): Promise<ReconcileReport> =>
      reconcile(shop, options),
  };
}

export type Checkout = ReturnType<typeof createCheckout>;

/**
 * Schedules `checkout.reconcile()` on the job queue every `intervalMs` (one pass at a time
 * cluster-wide; a failed pass is retried, and the next tick tries again anyway).
 */
export function startPaymentReconciler(jobs: Jobs, checkout: Checkout, intervalMs = 60_000): void {
  jobs.define(
    'payment-reconciliation',
    async () => {
      await checkout.reconcile();
    },
    { retryLimit: 2, expireInSeconds: 5 * 60 },
  );
  jobs.every('payment-reconciliation', intervalMs);
}
