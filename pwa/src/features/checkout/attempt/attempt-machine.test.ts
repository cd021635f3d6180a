import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../api/api-client.ts';
import {
  cartFingerprint,
  classifyFailure,
  initialState,
  pendingAttempt,
  retryDelayMs,
  transition,
  type CheckoutEvent,
  type CheckoutState,
} from './attempt-machine.ts';
import { cardAttempt as attempt } from './test-attempts.ts';

function run(...events: CheckoutEvent[]): CheckoutState {
  return events.reduce(transition, initialState);
}

const start: CheckoutEvent = { type: 'start', attempt };
const unknown = (paymentId: string | null = null): CheckoutEvent => ({
  type: 'failure',
  failure: { kind: 'unknown', paymentId },
});
const succeeded: CheckoutEvent = {
  type: 'answer',
  answer: { status: 'succeeded', paymentId: 'pay-1', amount: 30_030 },
};

describe('the attempt state machine', () => {
  test('ready → submitting → succeeded: the attempt is pending until the answer', () => {
    const submitting = run(start);
    expect(submitting).toEqual({ name: 'submitting', attempt, tries: 0 });
    expect(pendingAttempt(submitting)).toEqual(attempt);
    const done = transition(submitting, succeeded);
    expect(done).toEqual({
      name: 'succeeded',
      attempt: { ...attempt, paymentId: 'pay-1' },
      paymentId: 'pay-1',
    });
    expect(pendingAttempt(done)).toBeNull();
  });

  test('no definite answer: confirming keeps the key and the payment method, then retries with them', () => {
    const confirming = run(start, unknown('pay-9'));
    expect(confirming).toEqual({
      name: 'confirming',
      attempt: { ...attempt, paymentId: 'pay-9' },
      tries: 1,
    });
    const again = transition(confirming, { type: 'retry' });
    expect(again).toEqual({
      name: 'submitting',
      attempt: { ...attempt, paymentId: 'pay-9' },
      tries: 1,
    });
    const twice = transition(again, unknown());
    expect(twice).toMatchObject({
      name: 'confirming',
      tries: 2,
      attempt: { key: attempt.key, paymentId: 'pay-9' },
    });
    expect(transition(transition(twice, { type: 'retry' }), succeeded).name).toBe('succeeded');
  });

  test('a definite refusal ends the attempt with its message', () => {
    const refused = run(start, {
      type: 'failure',
      failure: { kind: 'final', message: 'Your card was declined.' },
    });
    expect(refused).toEqual({ name: 'ready', error: 'Your card was declined.' });
    expect(pendingAttempt(refused)).toBeNull();
    // …and only then may a new attempt start.
    expect(transition(refused, start)).toEqual({ name: 'submitting', attempt, tries: 0 });
  });

  test('no new attempt while one is pending, in any pending state', () => {
    const other = { ...attempt, key: 'key-00000002' };
    const pending: CheckoutState[] = [
      run(start),
      run(start, unknown()),
      run(start, {
        type: 'answer',
        answer: { status: 'requires_action', paymentId: 'p', clientSecret: 's' },
      }),
      run(start, {
        type: 'answer',
        answer: {
          status: 'approval_required',
          paymentId: 'p',
          approvalUrl: '/a',
          walletOrderId: 'o',
        },
      }),
    ];
    for (const state of pending) {
      expect(transition(state, { type: 'start', attempt: other })).toBe(state);
      expect(transition(state, { type: 'resume', attempt: other })).toBe(state);
    }
  });

  test("3-D Secure: authenticating, then the buyer's step done confirms the checkout by its id", () => {
    const authenticating = run(start, {
      type: 'answer',
      answer: { status: 'requires_action', paymentId: 'pay-3', clientSecret: 'pi_1_secret_2' },
    });
    expect(authenticating).toEqual({
      name: 'authenticating',
      attempt: { ...attempt, paymentId: 'pay-3' },
      clientSecret: 'pi_1_secret_2',
    });
    // Only a wallet approval can be cancelled by the buyer: a card's step always asks the server.
    expect(transition(authenticating, { type: 'buyer_cancelled', message: 'x' })).toBe(
      authenticating,
    );
    const confirm = transition(authenticating, { type: 'buyer_done' });
    expect(confirm).toEqual({
      name: 'submitting',
      attempt: { ...attempt, paymentId: 'pay-3', step: 'confirm' },
      tries: 0,
    });
    // A lost answer of the confirm: confirm again, same checkout.
    const retried = transition(transition(confirm, unknown()), { type: 'retry' });
    expect(retried).toMatchObject({
      name: 'submitting',
      attempt: { step: 'confirm', paymentId: 'pay-3' },
    });
  });

  test('wallet: approving, then approved (confirm) or cancelled (ready, nothing charged)', () => {
    const wallet = { ...attempt, method: 'wallet' as const, paymentMethodId: null };
    const approving = run(
      { type: 'start', attempt: wallet },
      {
        type: 'answer',
        answer: {
          status: 'approval_required',
          paymentId: 'pay-w',
          approvalUrl: '/api/payments/test-wallet/wo',
          walletOrderId: 'wo',
        },
      },
    );
    expect(approving).toEqual({
      name: 'approving',
      attempt: { ...wallet, paymentId: 'pay-w' },
      approvalUrl: '/api/payments/test-wallet/wo',
      walletOrderId: 'wo',
    });
    expect(transition(approving, { type: 'buyer_done' })).toMatchObject({
      name: 'submitting',
      attempt: { step: 'confirm', paymentId: 'pay-w' },
    });
    expect(
      transition(approving, { type: 'buyer_cancelled', message: 'The payment was not completed.' }),
    ).toEqual({
      name: 'ready',
      error: 'The payment was not completed.',
    });
    // The server has no approval yet: ask again where it stands (the start, with its key).
    const confirming = transition(transition(approving, { type: 'buyer_done' }), {
      type: 'failure',
      failure: { kind: 'not_approved', paymentId: 'pay-w' },
    });
    expect(confirming).toMatchObject({
      name: 'confirming',
      attempt: { step: 'start', paymentId: 'pay-w' },
    });
  });

  test('a resumed attempt (reload) is sent again as it was', () => {
    const stored = { ...attempt, paymentId: 'pay-1' };
    expect(transition(initialState, { type: 'resume', attempt: stored })).toEqual({
      name: 'submitting',
      attempt: stored,
      tries: 1,
    });
  });

  test('events that do not apply change nothing', () => {
    const ready = initialState;
    for (const event of [
      succeeded,
      unknown(),
      { type: 'retry' },
      { type: 'buyer_done' },
    ] as CheckoutEvent[]) {
      expect(transition(ready, event)).toBe(ready);
    }
    const submitting = run(start);
    expect(transition(submitting, { type: 'retry' })).toBe(submitting);
  });
});

describe('what an error means for the attempt', () => {
  const api = (status: number, code: string, details?: unknown) =>
    new ApiError(status, code, `message ${status}`, details);

  test('not definite: no connection, 5xx, 503 payment_pending (with its checkout), 401, 408, 429, unreadable answers, retryable', () => {
    expect(classifyFailure(api(0, 'OFFLINE'))).toEqual({ kind: 'unknown', paymentId: null });
    expect(
      classifyFailure(
        api(503, 'payment_failed', {
          reason: 'payment_pending',
          retryable: true,
          paymentId: 'pay-5',
        }),
      ),
    ).toEqual({ kind: 'unknown', paymentId: 'pay-5' });
    for (const status of [500, 502, 504, 401, 408, 429]) {
      expect(classifyFailure(api(status, `HTTP_${status}`)).kind).toBe('unknown');
    }
    expect(classifyFailure(api(200, 'BAD_RESPONSE')).kind).toBe('unknown');
    expect(classifyFailure(api(402, 'payment_failed', { retryable: true })).kind).toBe('unknown');
    expect(classifyFailure(new TypeError('Failed to fetch')).kind).toBe('unknown');
  });

  test('definite: declined, no stock, price changed, bad input, unknown checkout, key reused', () => {
    const cases: [number, unknown][] = [
      [402, { reason: 'card_declined' }],
      [402, { reason: 'authentication_failed' }],
      [409, { reason: 'no_stock' }],
      [409, { reason: 'price_changed' }],
      [409, { reason: 'idempotency_key_reused' }],
      [400, { reason: 'empty_cart' }],
      [404, undefined],
    ];
    for (const [status, details] of cases) {
      expect(classifyFailure(api(status, 'x', details))).toEqual({
        kind: 'final',
        message: `message ${status}`,
      });
    }
  });

  test('a wallet order not approved yet', () => {
    expect(
      classifyFailure(
        api(402, 'payment_failed', { reason: 'wallet_not_approved', retryable: true }),
      ),
    ).toEqual({ kind: 'not_approved', paymentId: null });
  });
});

test('retries wait 1 s, 2 s, 4 s, 8 s, then 15 s', () => {
  expect([1, 2, 3, 4, 5, 6, 20].map(retryDelayMs)).toEqual([
    1000, 2000, 4000, 8000, 15_000, 15_000, 15_000,
  ]);
});

test("a cart's fingerprint names its lines and total, whatever their order", () => {
  const lines = [
    { flightId: 'b', amount: 1 },
    { flightId: 'a', amount: 2 },
  ];
  expect(cartFingerprint(lines, 500)).toBe('ax2,bx1|500');
  expect(cartFingerprint([...lines].reverse(), 500)).toBe(cartFingerprint(lines, 500));
  expect(cartFingerprint(lines, 501)).not.toBe(cartFingerprint(lines, 500));
});
