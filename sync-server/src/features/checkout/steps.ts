import type { Sql } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Payments } from '../../payments/index.ts';
import {
  isActionRequired,
  PaymentDeclinedError,
  withTimeout,
  type PaymentProvider,
  type WalletUrls,
} from '../../payments/provider.ts';
import type { NewTicket } from '../tickets/queries.ts';
import type { TicketService } from '../tickets/tickets.ts';
import {
  cancelOrder,
  findPayment,
  markCaptured,
  OrderRefusedError,
  pauseForBuyer,
  updatePayment,
  writeOrder,
  type OrderSummary,
  type PaymentRow,
} from './queries.ts';

/**
 * The checkout as named steps (docs/decisions/008-checkout-state-machine.md, issue 38), in the
 * manner of Medusa's workflows: each step moves a checkout on (`invoke`) and knows how to undo
 * what it left held (`compensate`). Where a checkout stands is its `payments` row and nothing
 * else, so whoever holds the row's lease on any instance (the buyer's request, its retry, the
 * confirm route, a webhook, the reconciler) continues it from there.
 *
 * `TRANSITIONS` (at the bottom) says, top to bottom, which step moves a row on from where it
 * stands, and what undoes what is held there. `drive` runs them: forward, or back through the
 * compensations, most recent first, when the row records a refusal (`failure_code` on a checkout
 * not yet final) or the reconciler abandons a checkout whose order is not written. The order is
 * the pivot: once it is written the only way is forward (capture), unless the capture is refused.
 *
 * Each step records its outcome in the row (the status, and what the next step needs), with two
 * exceptions that save a commit on every card checkout: a card's authorisation is recorded by the
 * order step, in the order's own commit (a crash before it leaves `created`, and authorising again
 * with the same key finds the same hold), and a capture is recorded by the confirmation (a crash
 * before it leaves the order written, and capturing again is idempotent at the provider).
 */

/** What every step needs: the database, the providers and the settings. */
export interface CheckoutContext {
  sql: Sql;
  logger: Logger;
  payments: Payments;
  tickets?: Pick<TicketService, 'signForPayment'> | undefined;
  onCaptured?:
    ((payment: PaymentRow, order: OrderSummary | undefined) => Promise<void>) | undefined;
  /** How long a step's holder keeps the row. */
  leaseMs: number;
  /** How long a provider call may take before its outcome counts as unknown. */
  timeoutMs: number;
  /** The shop's public origin: a wallet's return address when the row has none. */
  publicOrigin?: string | undefined;
}

/**
 * One drive of one checkout by the holder of its lease. `payment` is the state; the rest is what
 * this drive carries from one step to the next, never needed by another drive.
 */
export interface Run {
  readonly ctx: CheckoutContext;
  readonly provider: PaymentProvider;
  /** `<user id>:<idempotency key>`: every provider call of the checkout carries it. */
  readonly key: string;
  /** `rollback`: the reconciler's or a webhook's; undo before the order is written, finish after. */
  readonly mode: 'forward' | 'rollback';
  /** The buyer is back from the wallet's approval page (the confirm route). */
  readonly buyerBack: boolean;
  payment: PaymentRow;
  /** A card's authorisation, recorded by the order step's commit. */
  authorizationId?: string | undefined;
  /** Captured at the provider, recorded by the confirmation. */
  captured?: boolean;
  /** The signed tickets of the order this drive wrote (read in the order's round trip). */
  tickets?: NewTicket[] | undefined;
  /** The order the confirmation read, for this request's answer. */
  order?: OrderSummary | undefined;
  /** The buyer's turn (a wallet approval, a 3-D Secure challenge): the drive stops here. */
  paused?: boolean;
}

interface Step {
  readonly name: string;
  /** Moves the checkout on, recording in `run.payment` where it stands (a refusal included). */
  invoke(run: Run): Promise<void>;
  /** Undoes what the step left held, recording the outcome in `run.payment`. */
  compensate(run: Run): Promise<void>;
}

export const FINAL: ReadonlySet<string> = new Set(['captured', 'released', 'failed']);

/** Where the wallet provider sends the buyer after approving or cancelling (the PWA's /payment). */
export function walletUrlsFor(origin: string, paymentId: string): WalletUrls {
  const base = `${origin.replace(/\/+$/, '')}/payment?checkout=${encodeURIComponent(paymentId)}`;
  return { returnUrl: `${base}&wallet=approved`, cancelUrl: `${base}&wallet=cancelled` };
}

function call<T>(run: Run, promise: Promise<T>, what: string): Promise<T> {
  return withTimeout(promise, run.ctx.timeoutMs, what);
}

/** Records changes on the row; `leased` keeps the lease (the drive goes on), else gives it back. */
async function record(
  run: Run,
  changes: Parameters<typeof updatePayment>[2],
  leased: boolean,
): Promise<void> {
  const { ctx, payment } = run;
  run.payment = await updatePayment(ctx.sql, payment.id, changes, leased ? ctx.leaseMs : 0);
}

/** A provider's decline ends a checkout that holds nothing as failed; any other error goes on. */
function declined(run: Run, error: unknown): Promise<void> {
  if (!(error instanceof PaymentDeclinedError)) throw error;
  const changes = { failure_code: error.code, failure_message: error.message };
  return record(run, { status: 'failed', client_secret: null, ...changes }, false);
}

/** A wallet: the order the buyer approves at the provider. Nothing is held until then. */
const walletOrder: Step = {
  name: 'create the wallet order',
  async invoke(run) {
    const { provider, payment, ctx } = run;
    if (!provider.createWalletOrder) throw new Error(`${provider.name} has no wallet`);
    const origin = payment.wallet_origin ?? ctx.publicOrigin ?? '';
    const order = await call(
      run,
      provider.createWalletOrder(payment.amount_cents, run.key, walletUrlsFor(origin, payment.id)),
      'wallet order',
    );
    const { orderId, approvalUrl } = order;
    const changes = { provider_order_id: orderId, approval_url: approvalUrl };
    await record(run, { status: 'approval_pending', ...changes }, false);
    run.paused = true;
  },
  async compensate(run) {
    await record(
      run,
      { status: 'failed', failure_code: 'abandoned', failure_message: null },
      false,
    );
  },
};

/** The wallet order approved by the buyer (the confirm route): its amount is authorised. */
const walletApproval: Step = {
  name: 'authorise the approved wallet order',
  async invoke(run) {
    if (!run.buyerBack) {
      run.paused = true;
      return;
    }
    const { provider, payment } = run;
    const method = { type: 'wallet' as const, orderId: payment.provider_order_id ?? '' };
    try {
      const authorization = await call(
        run,
        provider.authorize(payment.amount_cents, run.key, method),
        'authorise wallet',
      );
      if (isActionRequired(authorization)) throw new Error('a wallet has no buyer step here');
      await record(run, { status: 'authorized', provider_payment_id: authorization.id }, true);
    } catch (error) {
      if (error instanceof PaymentDeclinedError && error.code === 'wallet_not_approved') {
        // Not yet: the buyer may still approve; nothing is recorded.
        const details = { reason: error.code, retryable: true };
        throw new AppError(ErrorCode.PaymentFailed, error.message, details);
      }
      await declined(run, error);
    }
  },
  async compensate(run) {
    const message = 'The wallet approval expired';
    await record(
      run,
      { status: 'failed', failure_code: 'expired', failure_message: message },
      false,
    );
  },
};

/** Finds the card's hold again by the key (after a crash or a timeout) and gives it up. */
async function abandonUnrecorded(run: Run): Promise<void> {
  await authorise.invoke(run);
  const authorizationId = run.authorizationId;
  if (authorizationId === undefined) return; // declined, or waiting for 3-D Secure
  run.authorizationId = undefined;
  const changes = { provider_payment_id: authorizationId, failure_code: 'abandoned' };
  await record(run, { status: 'authorized', ...changes }, true);
}

/**
 * A card: the amount authorised (held, not captured). 3-D Secure: nothing is held until the buyer
 * authenticated; the step's client secret goes in the row and the buyer has the turn.
 */
const authorise: Step = {
  name: 'authorise',
  async invoke(run) {
    const { provider, payment } = run;
    const method = {
      type: 'card' as const,
      id: payment.payment_method ?? '',
      receiptEmail: payment.receipt_email ?? undefined,
    };
    try {
      const authorization = await call(
        run,
        provider.authorize(payment.amount_cents, run.key, method),
        'authorise',
      );
      if (!isActionRequired(authorization)) {
        run.authorizationId = authorization.id;
        return;
      }
      const { id, clientSecret } = authorization;
      const changes = { provider_order_id: id, client_secret: clientSecret };
      await record(run, { status: 'approval_pending', ...changes }, false);
      run.paused = run.mode === 'forward';
    } catch (error) {
      await declined(run, error);
    }
  },
  async compensate(run) {
    if (run.payment.status === 'created') return abandonUnrecorded(run);
    const { provider, payment } = run;
    const authorizationId = payment.provider_payment_id ?? run.authorizationId ?? '';
    await call(run, provider.release(authorizationId, run.key), 'release');
    // After a refused capture the order's cancellation already ended the checkout.
    if (payment.status !== 'authorized') return;
    const failureCode = payment.failure_code ?? 'abandoned';
    await record(run, { status: 'released', failure_code: failureCode }, false);
  },
};

/** A card's 3-D Secure step: has the buyer authenticated? */
const authenticate: Step = {
  name: 'complete the card authentication',
  async invoke(run) {
    const { provider, payment, ctx } = run;
    if (!provider.resumeAuthorization) throw new Error(`${provider.name} has no buyer step`);
    const intentId = payment.provider_order_id ?? '';
    try {
      const result = await call(
        run,
        provider.resumeAuthorization(intentId),
        'resume authorisation',
      );
      if (isActionRequired(result)) {
        // Still the buyer's turn: the lease goes back so that their next confirm can take it.
        run.payment = await pauseForBuyer(ctx.sql, payment.id, result.clientSecret);
        run.paused = true;
        return;
      }
      // Held now: recorded before the order, so a crash here continues from `authorized`.
      const changes = { provider_payment_id: result.id, client_secret: null };
      await record(run, { status: 'authorized', ...changes }, true);
    } catch (error) {
      await declined(run, error);
    }
  },
  async compensate(run) {
    // Abandoned: whatever the buyer did, nothing may stay held.
    const { provider, payment } = run;
    await call(run, provider.release(payment.provider_order_id ?? '', run.key), 'release');
    const message = 'The card authentication was not completed';
    const changes = { failure_code: 'expired', failure_message: message, client_secret: null };
    await record(run, { status: 'failed', ...changes }, false);
  },
};

/**
 * The order transaction (queries.ts `writeOrder`): the seats taken (or the seat hold consumed),
 * the order, its lines and sales written, the cart emptied, the authorisation recorded; the
 * order's tickets signed in its round trip. A refusal (no stock, a moved price, the hold gone)
 * rolled all of it back and is recorded, so that whoever continues only releases.
 */
const placeOrder: Step = {
  name: 'write the order',
  async invoke(run) {
    const { ctx, payment } = run;
    const authorizationId = run.authorizationId ?? payment.provider_payment_id!;
    const signer = ctx.tickets;
    try {
      const written = await writeOrder(
        ctx.sql,
        payment,
        authorizationId,
        signer && ((db) => signer.signForPayment(db, payment.id)),
      );
      run.payment = written.payment;
      run.tickets = written.after;
    } catch (error) {
      if (!(error instanceof OrderRefusedError)) throw error;
      if (error.reason === 'payment_moved') {
        run.payment = (await findPayment(ctx.sql, payment.id))!;
      } else {
        const refusal = { failure_code: error.reason, failure_message: error.message };
        const held = { status: 'authorized' as const, provider_payment_id: authorizationId };
        await record(run, { ...held, ...refusal }, true);
      }
    }
    run.authorizationId = undefined;
  },
  async compensate(run) {
    // The order cancelled: stock returned, sales tombstoned, the tickets back in the cart.
    const { ctx, payment } = run;
    const code = payment.failure_code ?? 'capture_failed';
    const message = payment.failure_message ?? 'The payment could not be captured';
    run.payment = await cancelOrder(ctx.sql, payment, code, message);
  },
};

/** The money taken, exactly the order's total. A refusal is recorded: the order is undone. */
const capture: Step = {
  name: 'capture',
  async invoke(run) {
    const { provider, payment, ctx } = run;
    const authorizationId = payment.provider_payment_id!;
    try {
      await call(run, provider.capture(authorizationId, payment.amount_cents, run.key), 'capture');
      run.captured = true;
    } catch (error) {
      if (!(error instanceof PaymentDeclinedError)) throw error;
      const paymentId = payment.id;
      ctx.logger.warn({ paymentId, code: error.code }, 'capture refused; cancelling the order');
      const refusal = { failure_code: 'capture_failed', failure_message: error.message };
      await record(run, refusal, true);
    }
  },
  async compensate() {
    // A capture is never undone: it is the last step that can fail.
  },
};

/** The payment captured and its order confirmed with its tickets; the receipt is sent. */
const confirm: Step = {
  name: 'confirm the order',
  async invoke(run) {
    const { ctx } = run;
    // An order written earlier (a retry, the reconciler) has its tickets signed now.
    const tickets = run.tickets ?? (await ctx.tickets?.signForPayment(ctx.sql, run.payment.id));
    const confirmed = await markCaptured(ctx.sql, run.payment, tickets);
    run.payment = confirmed.payment;
    run.order = confirmed.order;
    const captured = confirmed.payment;
    ctx
      .onCaptured?.(captured, confirmed.order)
      .catch((error: unknown) =>
        ctx.logger.error({ err: error, paymentId: captured.id }, 'receipt failed'),
      );
  },
  async compensate() {
    // Nothing after it can fail.
  },
};

interface Transition {
  /** Where the row stands. */
  readonly at: string;
  readonly when: (payment: PaymentRow, run: Run) => boolean;
  /** The step that moves it on. */
  readonly next: Step;
  /** Going back from here: the steps whose effects are held, most recent first. */
  readonly back: readonly Step[];
}

/** From where a row stands to its next step, top to bottom: the first that matches. */
const TRANSITIONS: readonly Transition[] = [
  {
    at: 'created, wallet',
    when: (p) => p.status === 'created' && p.method === 'wallet',
    next: walletOrder,
    back: [walletOrder],
  },
  {
    at: 'created, card',
    when: (p, run) => p.status === 'created' && run.authorizationId === undefined,
    next: authorise,
    back: [authorise],
  },
  {
    at: 'approval_pending, card (3-D Secure)',
    when: (p) => p.status === 'approval_pending' && p.method === 'card',
    next: authenticate,
    back: [authenticate],
  },
  {
    at: 'approval_pending, wallet',
    when: (p) => p.status === 'approval_pending',
    next: walletApproval,
    back: [walletApproval],
  },
  { at: 'authorised', when: (p) => p.order_id === null, next: placeOrder, back: [authorise] },
  {
    at: 'order written',
    when: (_, run) => !run.captured,
    next: capture,
    back: [placeOrder, authorise],
  },
  { at: 'captured at the provider', when: () => true, next: confirm, back: [] },
];

/**
 * Back, not forward: the row records a refusal, or the reconciler (or a webhook) abandons a
 * checkout whose order is not written. Past the order only a refused capture goes back.
 */
function goingBack(payment: PaymentRow, run: Run): boolean {
  return payment.failure_code !== null || (run.mode === 'rollback' && payment.order_id === null);
}

/** Runs compensations in turn; once the row is final, what is left only tidies up (best effort). */
async function compensate(run: Run, steps: readonly Step[]): Promise<void> {
  // Nothing to undo would leave the row as it is, and the drive going round for ever.
  if (steps.length === 0) throw new Error(`checkout ${run.payment.id}: nothing to undo here`);
  for (const step of steps) {
    if (!FINAL.has(run.payment.status)) {
      await step.compensate(run);
      continue;
    }
    await step.compensate(run).catch((error: unknown) => {
      const paymentId = run.payment.id;
      run.ctx.logger.warn({ err: error, paymentId, step: step.name }, 'compensation failed');
    });
  }
}

/**
 * Moves a checkout whose lease the caller holds as far as it goes: until it is final or the buyer
 * has the turn. An error (an unknown outcome) leaves the row where it is for a retry or the
 * reconciler; the caller gives the lease back.
 */
export async function drive(run: Run): Promise<PaymentRow> {
  while (!FINAL.has(run.payment.status) && !run.paused) {
    const payment = run.payment;
    const transition = TRANSITIONS.find((t) => t.when(payment, run))!;
    if (goingBack(payment, run)) await compensate(run, transition.back);
    else await transition.next.invoke(run);
  }
  return run.payment;
}

/** A drive of `payment` (whose lease the caller holds). */
export function runOf(
  ctx: CheckoutContext,
  payment: PaymentRow,
  mode: Run['mode'],
  buyerBack = false,
): Run {
  const provider = ctx.payments.byName(payment.provider);
  if (!provider) {
    throw new Error(
      `payment ${payment.id} belongs to provider ${payment.provider}, which is not configured`,
    );
  }
  const key = `${payment.user_id}:${payment.idempotency_key}`;
  return { ctx, provider, key, mode, buyerBack, payment };
}
