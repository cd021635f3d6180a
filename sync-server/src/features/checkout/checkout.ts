import { createHash } from 'node:crypto';
import { messages } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Payments } from '../../payments/index.ts';
import type { TicketService } from '../tickets/tickets.ts';
import type { NewTicket } from '../tickets/queries.ts';
import {
  isActionRequired,
  PaymentDeclinedError,
  withTimeout,
  type PaymentProvider,
  type WalletUrls,
} from '../../payments/provider.ts';
import {
  cancelOrder,
  findPayment,
  findPaymentByKey,
  findStalledPayments,
  insertPayment,
  type Quote,
  markCaptured,
  OrderRefusedError,
  quoteCart,
  releaseLease,
  takeLease,
  updatePayment,
  writeOrder,
  type OrderSummary,
  type PaymentRow,
} from './queries.ts';
import { findHold } from './hold-queries.ts';
import { startPeriodicJob } from '../../lib/periodic-job.ts';

/**
 * The checkout state machine (docs/architecture.md §6, migration 005). A payment row, keyed by the caller's
 * idempotency key, records how far one checkout got; `advance` moves it one provider call or one
 * transaction at a time, and whoever holds the row's lease (the request, a retry of it once the
 * lease lapsed, or the reconciler) continues from where it stands:
 *
 *   created → authorised → order transaction (stock, order, lines, sales, cart) → captured
 *
 * With a seat hold (holds.ts, issue 17) the quote is the hold's and the order transaction consumes
 * the hold instead of taking stock; a hold released meanwhile ends the checkout as `hold_expired`.
 *
 * A buyer's step at the provider parks the row in `approval_pending`: a wallet order to approve,
 * or a card's 3-D Secure authentication (the card's pending payment in `provider_order_id`).
 * `confirm` (or a retry with the same key, for cards) continues it once the buyer is done.
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
  /** The shop's public origin, for wallet return addresses of checkouts resumed off-request. */
  publicOrigin?: string;
}

export type CheckoutMethod =
  | { type: 'card'; paymentMethodId: string }
  /** `origin`: the shop's origin, where the provider sends the buyer back to `/payment`. */
  | { type: 'wallet'; origin: string };

/** Where the wallet provider sends the buyer after approving or cancelling (the PWA's /payment). */
export function walletUrlsFor(origin: string, paymentId: string): WalletUrls {
  const base = `${origin.replace(/\/+$/, '')}/payment?checkout=${encodeURIComponent(paymentId)}`;
  return { returnUrl: `${base}&wallet=approved`, cancelUrl: `${base}&wallet=cancelled` };
}

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

const FINAL: ReadonlySet<string> = new Set(['captured', 'released', 'failed']);
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

export function createCheckout(deps: CheckoutDeps) {
  const { sql, logger, payments } = deps;
  const leaseMs = deps.leaseMs ?? Math.max(60_000, payments.settings.timeoutMs * 4);
  const waitMs = deps.waitMs ?? 25_000;
  const timeoutMs = payments.settings.timeoutMs;

  function providerOf(payment: PaymentRow): PaymentProvider {
    const provider = payments.byName(payment.provider);
    if (!provider)
      throw new Error(
        `payment ${payment.id} belongs to provider ${payment.provider}, which is not configured`,
      );
    return provider;
  }

  /** A provider's decline ends the payment as failed, with its reason; any other error is thrown on. */
  function recordDecline(payment: PaymentRow, error: unknown): Promise<PaymentRow> {
    if (!(error instanceof PaymentDeclinedError)) throw error;
    return updatePayment(
      sql,
      payment.id,
      { status: 'failed', failure_code: error.code, failure_message: error.message },
      0,
    );
  }

  /**
   * Moves a checkout whose lease we hold as far as it goes. `forward` completes the purchase
   * (the buyer's request or its retry); `rollback` is the reconciler's: a checkout that stalled
   * before its order was written is undone, one that stalled after is captured.
   */
  async function advance(start: PaymentRow, mode: 'forward' | 'rollback'): Promise<PaymentRow> {
    let payment = start;
    // The order's signed tickets, when this call wrote the order (read in its round trip).
    let tickets: NewTicket[] | undefined;
    const provider = providerOf(payment);
    const key = payment.idempotency_key;
    const scopedKey = `${payment.user_id}:${key}`;
    for (;;) {
      if (FINAL.has(payment.status)) return payment;
      if (payment.status === 'approval_pending' && payment.method === 'card') {
        // The card's 3-D Secure step: where does the buyer's authentication stand?
        const intentId = payment.provider_order_id ?? '';
        if (mode === 'rollback') {
          // Abandoned: whatever the buyer did, nothing may stay held.
          await withTimeout(provider.release(intentId, scopedKey), timeoutMs, 'release');
          payment = await updatePayment(
            sql,
            payment.id,
            {
              status: 'failed',
              failure_code: 'expired',
              failure_message: 'The card authentication was not completed',
            },
            0,
          );
          continue;
        }
        if (!provider.resumeAuthorization) throw new Error(`${provider.name} has no buyer step`);
        try {
          const result = await withTimeout(
            provider.resumeAuthorization(intentId),
            timeoutMs,
            'resume authorisation',
          );
          if (isActionRequired(result)) {
            // Still the buyer's turn: let go of the row so that their next confirm can take it.
            await releaseLease(sql, payment.id);
            clientSecrets.set(payment.id, result.clientSecret);
            return payment;
          }
          // Held now: recorded before the order, so a crash here continues from `authorized`.
          payment = await updatePayment(
            sql,
            payment.id,
            { status: 'authorized', provider_payment_id: result.id },
            leaseMs,
          );
        } catch (error) {
          payment = await recordDecline(payment, error);
        }
        continue;
      }
      if (payment.status === 'approval_pending') {
        if (mode === 'rollback') {
          payment = await updatePayment(
            sql,
            payment.id,
            {
              status: 'failed',
              failure_code: 'expired',
              failure_message: 'The wallet approval expired',
            },
            0,
          );
          continue;
        }
        return payment;
      }
      if (payment.status === 'created') {
        if (payment.method === 'wallet') {
          if (mode === 'rollback') {
            payment = await updatePayment(
              sql,
              payment.id,
              { status: 'failed', failure_code: 'abandoned', failure_message: null },
              0,
            );
            continue;
          }
          if (!provider.createWalletOrder) throw new Error(`${provider.name} has no wallet`);
          const order = await withTimeout(
            provider.createWalletOrder(payment.amount_cents, scopedKey, walletUrlsOf(payment)),
            timeoutMs,
            'wallet order',
          );
          payment = await updatePayment(
            sql,
            payment.id,
            {
              status: 'approval_pending',
              provider_order_id: order.orderId,
              approval_url: order.approvalUrl,
            },
            0,
          );
          return payment;
        }
        let authorizationId: string;
        try {
          const authorization = await withTimeout(
            provider.authorize(payment.amount_cents, scopedKey, {
              type: 'card',
              id: payment.payment_method ?? '',
              receiptEmail: payment.receipt_email ?? undefined,
            }),
            timeoutMs,
            'authorise',
          );
          if (isActionRequired(authorization)) {
            // 3-D Secure: nothing is held until the buyer authenticates.
            payment = await updatePayment(
              sql,
              payment.id,
              { status: 'approval_pending', provider_order_id: authorization.id },
              0,
            );
            if (mode === 'rollback') continue;
            clientSecrets.set(payment.id, authorization.clientSecret);
            return payment;
          }
          authorizationId = authorization.id;
        } catch (error) {
          payment = await recordDecline(payment, error);
          continue;
        }
        if (mode === 'rollback') {
          payment = await updatePayment(
            sql,
            payment.id,
            {
              status: 'authorized',
              provider_payment_id: authorizationId,
              failure_code: 'abandoned',
            },
            leaseMs,
          );
          continue;
        }
        // The authorisation is recorded together with the order (one commit fewer). A crash
        // before that commit leaves the row `created`: the same idempotency key finds the hold again.
        ({ payment, tickets } = await takeStock(payment, authorizationId));
        continue;
      }
      // authorized
      const authorizationId = payment.provider_payment_id!;
      if (payment.order_id === null) {
        if (payment.failure_code !== null || mode === 'rollback') {
          await withTimeout(provider.release(authorizationId, scopedKey), timeoutMs, 'release');
          payment = await updatePayment(
            sql,
            payment.id,
            { status: 'released', failure_code: payment.failure_code ?? 'abandoned' },
            0,
          );
          continue;
        }
        ({ payment, tickets } = await takeStock(payment, authorizationId));
        continue;
      }
      // The order is written: only forward.
      try {
        await withTimeout(
          provider.capture(authorizationId, payment.amount_cents, scopedKey),
          timeoutMs,
          'capture',
        );
      } catch (error) {
        if (!(error instanceof PaymentDeclinedError)) throw error;
        logger.warn(
          { paymentId: payment.id, code: error.code },
          'capture refused; cancelling the order',
        );
        payment = await cancelOrder(sql, payment, 'capture_failed', error.message);
        await withTimeout(provider.release(authorizationId, scopedKey), timeoutMs, 'release').catch(
          () => {},
        );
        continue;
      }
      // An order written earlier (a retry, the reconciler) has its tickets signed now.
      tickets ??= await deps.tickets?.signForPayment(sql, payment.id);
      const confirmed = await markCaptured(sql, payment, tickets);
      payment = confirmed.payment;
      if (mode === 'forward' && confirmed.order) confirmedOrders.set(payment.id, confirmed.order);
      if (deps.onCaptured) {
        const captured = payment;
        deps
          .onCaptured(captured, confirmed.order)
          .catch((error: unknown) =>
            logger.error({ err: error, paymentId: captured.id }, 'receipt failed'),
          );
      }
    }
  }

  /**
   * The order transaction for an authorised payment, and the signed tickets of the order it wrote
   * (read in its round trip). Refused (no stock, price moved): the decision to roll back is
   * recorded first, so whoever continues after a crash only releases.
   */
  async function takeStock(
    payment: PaymentRow,
    authorizationId: string,
  ): Promise<{ payment: PaymentRow; tickets?: NewTicket[] | undefined }> {
    const { tickets } = deps;
    try {
      const written = await writeOrder(
        sql,
        payment,
        authorizationId,
        tickets && ((db) => tickets.signForPayment(db, payment.id)),
      );
      return { payment: written.payment, tickets: written.after };
    } catch (error) {
      if (!(error instanceof OrderRefusedError)) throw error;
      if (error.reason === 'payment_moved')
        return { payment: (await findPayment(sql, payment.id))! };
      const refused = await updatePayment(
        sql,
        payment.id,
        {
          status: 'authorized',
          provider_payment_id: authorizationId,
          failure_code: error.reason,
          failure_message: error.message,
        },
        leaseMs,
      );
      return { payment: refused };
    }
  }

  // The shop origin a wallet checkout started from, while its request runs.
  const walletOrigins = new Map<string, string>();
  // A card's 3-D Secure client secret, from the provider to this request's answer. Never stored:
  // a later request asks the provider again.
  const clientSecrets = new Map<string, string>();
  // The order a capture confirmed, read in the confirmation's round trip, for this request's
  // answer (a replay reads it again: routes.ts `answer`).
  const confirmedOrders = new Map<string, OrderSummary>();
  function walletUrlsOf(payment: PaymentRow): WalletUrls {
    return walletUrlsFor(walletOrigins.get(payment.id) ?? deps.publicOrigin ?? '', payment.id);
  }

  /** Advances under our lease; an unknown outcome leaves the row for a retry or the reconciler. */
  async function drive(payment: PaymentRow, mode: 'forward' | 'rollback'): Promise<PaymentRow> {
    try {
      return await advance(payment, mode);
    } catch (error) {
      logger.warn(
        { err: error, paymentId: payment.id, status: payment.status },
        'checkout interrupted',
      );
      await releaseLease(sql, payment.id).catch(() => {});
      if (error instanceof AppError) throw error;
      throw new PaymentPendingError(payment.id);
    }
  }

  function outcomeOf(payment: PaymentRow): CheckoutOutcome {
    const clientSecret = clientSecrets.get(payment.id);
    clientSecrets.delete(payment.id);
    const order = confirmedOrders.get(payment.id);
    confirmedOrders.delete(payment.id);
    if (payment.status === 'captured' && payment.order_id) {
      return { status: 'completed', payment, orderId: payment.order_id, order };
    }
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
  async function replay(payment: PaymentRow, hash: string | undefined): Promise<CheckoutOutcome> {
    if (hash !== undefined && payment.request_hash !== hash) {
      throw new AppError(
        ErrorCode.Conflict,
        'This Idempotency-Key was already used for a different checkout',
        {
          reason: 'idempotency_key_reused',
        },
      );
    }
    const deadline = Date.now() + waitMs;
    let pause = 10;
    let current = payment;
    for (;;) {
      // A wallet waits for the buyer's approval (confirm continues it); a card's 3-D Secure step
      // is looked up again at the provider, so a retry after the buyer authenticated completes.
      if (
        FINAL.has(current.status) ||
        (current.status === 'approval_pending' && current.method === 'wallet')
      )
        return outcomeOf(current);
      const leased = await takeLease(sql, current.id, leaseMs);
      if (leased) return outcomeOf(await drive(leased, 'forward'));
      if (Date.now() > deadline) throw new PaymentPendingError(current.id);
      await sleep(pause);
      pause = Math.min(pause * 2, 200);
      current = (await findPayment(sql, current.id))!;
    }
  }

  /**
   * The quote of a payment against a seat hold: the hold's lines and totals, if the hold is the
   * caller's and still holds its seats. (A replay of a started checkout never gets here.)
   */
  async function heldQuote(userId: string, holdId: string): Promise<Quote> {
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

  return {
    /**
     * Starts (or, for a known key, replays) a checkout of the caller's server-side cart, or of
     * the caller's seat hold (`holdId`).
     * @throws AppError 400 empty cart / method unavailable, 409 no stock / price changed /
     *         key reused, 402 declined, 503 outcome unknown (retry with the same key).
     */
    async start(input: CheckoutInput): Promise<CheckoutOutcome> {
      const provider = payments.forMethod(input.method.type);
      if (!provider) {
        throw new AppError(
          ErrorCode.BadRequest,
          `Payment by ${input.method.type} is not available`,
          { reason: 'method_unavailable' },
        );
      }
      const storedMethod =
        input.method.type === 'card'
          ? provider.normalizeCardMethod(input.method.paymentMethodId)
          : null;
      const hash = requestHash(input.amountCents, input.method.type, storedMethod, input.holdId);
      const [existing, cartQuote] = await Promise.all([
        findPaymentByKey(sql, input.userId, input.idempotencyKey),
        input.holdId === undefined ? quoteCart(sql, input.userId) : undefined,
      ]);
      if (existing) return replay(existing, hash);
      const quote = cartQuote ?? (await heldQuote(input.userId, input.holdId!));

      if (quote.lines.length === 0)
        throw new AppError(ErrorCode.BadRequest, 'Your cart is empty', { reason: 'empty_cart' });
      if (quote.unavailable.length > 0) {
        throw new AppError(ErrorCode.Conflict, messages.noStockAvailable, {
          reason: 'no_stock',
          flights: quote.unavailable,
        });
      }
      if (quote.totals.totalCents !== input.amountCents) {
        // The server's quote (the hold's, or the cart's now) is in the details: a client shows
        // the old and new totals and, once the buyer agrees, pays the new one (a re-quote).
        throw new AppError(ErrorCode.Conflict, PRICE_CHANGED, {
          reason: 'price_changed',
          ...quote.totals,
        });
      }
      const created = await insertPayment(sql, {
        userId: input.userId,
        provider: provider.name,
        idempotencyKey: input.idempotencyKey,
        method: input.method.type,
        paymentMethod: storedMethod,
        requestHash: hash,
        lines: quote.lines,
        totals: quote.totals,
        receiptEmail: input.receiptEmail ?? null,
        leaseMs,
        holdId: input.holdId,
      });
      if (!created)
        return replay((await findPaymentByKey(sql, input.userId, input.idempotencyKey))!, hash);
      if (input.method.type === 'wallet') walletOrigins.set(created.id, input.method.origin);
      try {
        return outcomeOf(await drive(created, 'forward'));
      } finally {
        walletOrigins.delete(created.id);
      }
    },

    /**
     * The buyer is back from their step at the provider: a wallet order approved (authorise it
     * and finish), or a card's 3-D Secure done (or a card checkout whose answer was lost):
     * continue it as a retry with its key would.
     */
    async confirm(userId: string, paymentId: string): Promise<CheckoutOutcome> {
      const payment = await findPayment(sql, paymentId);
      // Security: another customer's payment id is answered like an unknown one.
      if (!payment || payment.user_id !== userId) {
        throw new AppError(ErrorCode.NotFound, 'No such checkout');
      }
      if (payment.method === 'card' || payment.status !== 'approval_pending')
        return replay(payment, undefined);
      const leased = await takeLease(sql, payment.id, leaseMs);
      if (!leased) return replay(payment, undefined);
      const provider = providerOf(leased);
      try {
        const authorization = await withTimeout(
          provider.authorize(leased.amount_cents, `${leased.user_id}:${leased.idempotency_key}`, {
            type: 'wallet',
            orderId: leased.provider_order_id ?? '',
          }),
          timeoutMs,
          'authorise wallet',
        );
        if (isActionRequired(authorization)) throw new Error('a wallet has no buyer step here');
        const authorized = await updatePayment(
          sql,
          leased.id,
          { status: 'authorized', provider_payment_id: authorization.id },
          leaseMs,
        );
        return outcomeOf(await drive(authorized, 'forward'));
      } catch (error) {
        await releaseLease(sql, leased.id).catch(() => {});
        if (error instanceof PaymentDeclinedError) {
          if (error.code === 'wallet_not_approved') {
            throw new AppError(ErrorCode.PaymentFailed, error.message, {
              reason: error.code,
              retryable: true,
            });
          }
          throw failureOf(await recordDecline(leased, error));
        }
        if (error instanceof AppError) throw error;
        throw new PaymentPendingError(leased.id);
      }
    },

    /**
     * A provider told us (webhook) that a payment was captured or cancelled on its side: finish
     * that checkout now, as the reconciler would, unless a request is working on it.
     */
    async settle(paymentId: string): Promise<PaymentRow | undefined> {
      const leased = await takeLease(sql, paymentId, leaseMs);
      if (!leased) return undefined;
      try {
        return await advance(leased, 'rollback');
      } catch (error) {
        await releaseLease(sql, paymentId).catch(() => {});
        throw error;
      }
    },

    /** Where a checkout stands (for the buyer's own polling). */
    async status(userId: string, paymentId: string): Promise<PaymentRow> {
      const payment = await findPayment(sql, paymentId);
      if (!payment || payment.user_id !== userId)
        throw new AppError(ErrorCode.NotFound, 'No such checkout');
      return payment;
    },

    /**
     * The crash-recovery step: finishes checkouts that stalled (a crash or an unanswered provider
     * between authorise and capture). Before the order was written → the hold is released and
     * nothing was bought; after → the payment is captured (or, if the provider refuses, the order
     * is cancelled and its stock returned). Wallet approvals never completed expire.
     * Run at start-up and every minute; safe on several instances at once (leases).
     */
    async reconcile(
      options: {
        asOf?: Date;
        staleAfterMs?: number;
        walletExpiryMs?: number;
        limit?: number;
        userId?: string;
      } = {},
    ): Promise<{
      examined: number;
      captured: number;
      released: number;
      failed: number;
      errors: number;
    }> {
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
        const leased = await takeLease(sql, id, leaseMs, asOf);
        if (!leased) continue;
        try {
          const done = await advance(leased, 'rollback');
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
    },
  };
}

export type Checkout = ReturnType<typeof createCheckout>;

/**
 * Runs `checkout.reconcile()` now and then every `intervalMs` until the returned function is
 * called; that function resolves once a pass that is running has finished (graceful shutdown).
 */
export function startPaymentReconciler(
  checkout: Checkout,
  logger: Logger,
  intervalMs = 60_000,
): () => Promise<void> {
  return startPeriodicJob(
    async () => {
      await checkout.reconcile();
    },
    intervalMs,
    (error) => logger.error({ err: error }, 'payment reconciliation failed'),
  );
}
