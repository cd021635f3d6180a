import { ApiError } from '../../../api/api-client.ts';
import type { CheckoutAnswer } from '../api/checkout-api.ts';

/**
 * One purchase attempt and its states (issue 14: checkout that cannot charge twice from the
 * client). An attempt owns one idempotency key, and for a card one payment method, from the
 * moment it is sent until the server gives a **definite** answer: success, or a refusal the server
 * marks final (declined, no stock, price changed…). Anything else (no connection, a lost answer,
 * a 5xx such as 503 `payment_pending`, a timeout) is *not* an answer: the attempt stays, is sent
 * again with the same key (the server never charges a key twice), and no new attempt may start.
 *
 *   ready ──start──▶ submitting ──answer: succeeded──▶ succeeded
 *     ▲                │  ▲   └──answer: requires_action──▶ authenticating ─┐ buyer done:
 *     │ final refusal  │  │   └──answer: approval_required─▶ approving ─────┤ confirm by id
 *     └────────────────┤  └─────retry (same key, backoff)── confirming       │
 *                      └──no definite answer────────────────▶ confirming     │
 *                         submitting ◀───────────────────────────────────────┘
 *
 * This module is pure (a reducer and the rules that classify an error); checkout-driver.ts runs
 * the requests and timers and keeps the attempt across reloads (attempt-store.ts).
 */

/** One purchase attempt: what is sent, again and again, until a definite answer. */
export interface Attempt {
  /** The attempt's Idempotency-Key. */
  key: string;
  /** The cart it pays (cartFingerprint): lines and total when it started. */
  cart: string;
  amountCents: number;
  method: 'card' | 'wallet';
  /** A card attempt's one payment method (a token such as `pm_…`, never a card number). */
  paymentMethodId: string | null;
  receiptEmail: string | null;
  /** The server's id of this checkout, once an answer (or a 503's details) named it. */
  paymentId: string | null;
  /** The seat hold it pays (issue 17): its quote is `amountCents`. Absent in older attempts. */
  holdId?: string | null;
  /**
   * `start`: send the checkout with its key (the first time and every retry);
   * `confirm`: the buyer finished their step at the provider, continue the checkout by its id.
   */
  step: 'start' | 'confirm';
}

export type CheckoutState =
  /** No attempt: Pay is allowed. `error`: why the last attempt ended, if it was refused. */
  | { name: 'ready'; error: string | null }
  /** A request of the attempt is on its way; `tries` earlier ones got no definite answer. */
  | { name: 'submitting'; attempt: Attempt; tries: number }
  /** No definite answer yet: the payment is being confirmed, with the same key, after a pause. */
  | { name: 'confirming'; attempt: Attempt; tries: number }
  /** A card's 3-D Secure step, in the page (Stripe.js). */
  | { name: 'authenticating'; attempt: Attempt; clientSecret: string }
  /** The buyer approves the wallet order at the provider (test wallet page, PayPal window). */
  | { name: 'approving'; attempt: Attempt; approvalUrl: string; walletOrderId: string | null }
  | { name: 'succeeded'; attempt: Attempt; paymentId: string };

/** What an error means for the attempt. */
export type Failure =
  /** A definite refusal: the attempt ends and its key is dropped. */
  | { kind: 'final'; message: string }
  /** No definite answer: the attempt stays and is sent again with its key. */
  | { kind: 'unknown'; paymentId: string | null }
  /** The wallet order is not approved yet: ask the server again where the approval stands. */
  | { kind: 'not_approved'; paymentId: string | null };

export type CheckoutEvent =
  /** The buyer pays: a new attempt (only from `ready`). */
  | { type: 'start'; attempt: Attempt }
  /** An attempt left without a definite answer (a reload, another tab): send it again. */
  | { type: 'resume'; attempt: Attempt }
  | { type: 'answer'; answer: CheckoutAnswer }
  | { type: 'failure'; failure: Failure }
  /** The pause of `confirming` is over (or the connection came back). */
  | { type: 'retry' }
  /** The buyer finished their step (3-D Secure done, wallet approved): confirm the checkout. */
  | { type: 'buyer_done' }
  /** The buyer cancelled the wallet approval: nothing was approved, so nothing can be charged. */
  | { type: 'buyer_cancelled'; message: string };

export const initialState: CheckoutState = { name: 'ready', error: null };

/** The states that hold an attempt without a definite answer: no new attempt may start. */
export function pendingAttempt(state: CheckoutState): Attempt | null {
  return state.name === 'ready' || state.name === 'succeeded' ? null : state.attempt;
}

function withPaymentId(attempt: Attempt, paymentId: string | null): Attempt {
  return paymentId && paymentId !== attempt.paymentId ? { ...attempt, paymentId } : attempt;
}

/** The next state; an event that does not apply to the current state changes nothing. */
export function transition(state: CheckoutState, event: CheckoutEvent): CheckoutState {
  switch (event.type) {
    case 'start':
      return state.name === 'ready'
        ? { name: 'submitting', attempt: { ...event.attempt, step: 'start' }, tries: 0 }
        : state;
    case 'resume':
      return state.name === 'ready'
        ? { name: 'submitting', attempt: event.attempt, tries: 1 }
        : state;
    case 'answer': {
      if (state.name !== 'submitting') return state;
      const { answer } = event;
      const attempt = withPaymentId(state.attempt, answer.paymentId);
      if (answer.status === 'succeeded')
        return { name: 'succeeded', attempt, paymentId: answer.paymentId };
      if (answer.status === 'requires_action') {
        // A retry of the start meets the same step again; after it, confirm by id.
        return {
          name: 'authenticating',
          attempt: { ...attempt, step: 'start' },
          clientSecret: answer.clientSecret,
        };
      }
      return {
        name: 'approving',
        attempt: { ...attempt, step: 'start' },
        approvalUrl: answer.approvalUrl,
        walletOrderId: answer.walletOrderId ?? null,
      };
    }
    case 'failure': {
      if (state.name !== 'submitting') return state;
      const { failure } = event;
      if (failure.kind === 'final') return { name: 'ready', error: failure.message };
      const attempt = withPaymentId(state.attempt, failure.paymentId);
      return {
        name: 'confirming',
        // Not approved yet: the start, replayed with the key, says where the approval stands.
        attempt: failure.kind === 'not_approved' ? { ...attempt, step: 'start' } : attempt,
        tries: state.tries + 1,
      };
    }
    case 'retry':
      return state.name === 'confirming'
        ? { name: 'submitting', attempt: state.attempt, tries: state.tries }
        : state;
    case 'buyer_done':
      if (state.name !== 'authenticating' && state.name !== 'approving') return state;
      if (!state.attempt.paymentId) return state;
      return { name: 'submitting', attempt: { ...state.attempt, step: 'confirm' }, tries: 0 };
    case 'buyer_cancelled':
      return state.name === 'approving' ? { name: 'ready', error: event.message } : state;
  }
}

function detailsOf(error: ApiError): {
  reason?: unknown;
  retryable?: unknown;
  paymentId?: unknown;
} {
  return error.details && typeof error.details === 'object'
    ? (error.details as { reason?: unknown; retryable?: unknown; paymentId?: unknown })
    : {};
}

/**
 * What a failed request means. Definite (final): the server refused with a 4xx it does not mark
 * retryable (declined 402, no stock or price changed 409, bad input 400, unknown checkout 404…).
 * Not definite: no connection, 5xx (503 `payment_pending` names the checkout), 408, 429, 401
 * (signed out: the attempt waits for the next sign-in), an answer that could not be read, and
 * anything the server marks `retryable`.
 */
export function classifyFailure(error: unknown): Failure {
  if (!(error instanceof ApiError)) return { kind: 'unknown', paymentId: null };
  const details = detailsOf(error);
  const paymentId = typeof details.paymentId === 'string' ? details.paymentId : null;
  if (details.reason === 'wallet_not_approved') return { kind: 'not_approved', paymentId };
  if (
    error.isOffline ||
    error.code === 'BAD_RESPONSE' ||
    error.status >= 500 ||
    error.status === 401 ||
    error.status === 408 ||
    error.status === 429 ||
    details.retryable === true
  ) {
    return { kind: 'unknown', paymentId };
  }
  return { kind: 'final', message: error.message };
}

/** Pause before the next try of an attempt without a definite answer: 1 s, 2 s, 4 s… up to 15 s. */
export function retryDelayMs(tries: number): number {
  return Math.min(15_000, 1000 * 2 ** Math.max(0, tries - 1));
}

/** The cart an attempt pays, as a stable text: each flight and amount, and the total. */
export function cartFingerprint(
  lines: readonly { flightId: string; amount: number }[],
  totalCents: number,
): string {
  const parts = lines
    .map((line) => `${line.flightId}x${line.amount}`)
    .sort()
    .join(',');
  return `${parts}|${totalCents}`;
}
