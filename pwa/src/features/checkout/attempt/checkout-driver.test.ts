import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../api/api-client.ts';
import type { CheckoutAnswer } from '../api/checkout-api.ts';
import type { Attempt, CheckoutState } from './attempt-machine.ts';
import { attemptStorageKey, createAttemptStore } from './attempt-store.ts';
import { createCheckoutDriver, type NewAttempt } from './checkout-driver.ts';
import { newCardAttempt } from './test-attempts.ts';
import { MemoryStorage } from '../../../test/memory-storage.ts';

type Reply = CheckoutAnswer | ApiError | Error;
const pending503 = (paymentId: string) =>
  new ApiError(503, 'payment_failed', 'The payment provider did not answer in time', {
    reason: 'payment_pending',
    retryable: true,
    paymentId,
  });
const offline = () => new ApiError(0, 'OFFLINE', 'You are offline');
const succeeded = (paymentId: string): CheckoutAnswer => ({
  status: 'succeeded',
  paymentId,
  amount: 30_030,
});

/** The server, as scripted replies; every request is recorded with what it carried. */
function fakeServer(replies: Reply[]) {
  const sent: {
    kind: 'start' | 'confirm';
    key?: string;
    paymentMethodId?: string | null;
    paymentId?: string;
  }[] = [];
  const answer = (): Promise<CheckoutAnswer> => {
    const reply = replies.shift();
    if (!reply) return new Promise(() => {}); // no answer at all (yet)
    return reply instanceof Error ? Promise.reject(reply) : Promise.resolve(reply);
  };
  return {
    sent,
    requests: {
      start(attempt: Attempt) {
        sent.push({ kind: 'start', key: attempt.key, paymentMethodId: attempt.paymentMethodId });
        return answer();
      },
      confirm(paymentId: string) {
        sent.push({ kind: 'confirm', paymentId });
        return answer();
      },
    },
  };
}

/** Timers the test fires by hand. */
function manualTimers() {
  const due: { run: () => void; ms: number }[] = [];
  return {
    due,
    timers: {
      set(run: () => void, ms: number) {
        const entry = { run, ms };
        due.push(entry);
        return entry;
      },
      clear(handle: unknown) {
        const at = due.indexOf(handle as (typeof due)[number]);
        if (at >= 0) due.splice(at, 1);
      },
    },
    fire() {
      const next = due.shift();
      if (!next) throw new Error('no timer is due');
      next.run();
      return next.ms;
    },
  };
}

function fakeNetwork(online = true) {
  const listeners = new Set<() => void>();
  return {
    network: {
      online: () => online,
      onOnline(listener: () => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    goOnline() {
      online = true;
      for (const listener of [...listeners]) listener();
    },
    listeners,
  };
}

const USER = 'user-1';
function setup(
  replies: Reply[],
  options: {
    storage?: MemoryStorage;
    online?: boolean;
    authenticate?: (secret: string) => Promise<void>;
  } = {},
) {
  const storage = options.storage ?? new MemoryStorage();
  const server = fakeServer(replies);
  const clock = manualTimers();
  const net = fakeNetwork(options.online ?? true);
  const authenticated: string[] = [];
  const driver = createCheckoutDriver({
    requests: server.requests,
    store: createAttemptStore(USER, storage),
    authenticate:
      options.authenticate ??
      (async (secret) => {
        authenticated.push(secret);
      }),
    timers: clock.timers,
    network: net.network,
  });
  const states: CheckoutState['name'][] = [];
  driver.subscribe(() => states.push(driver.getState().name));
  const stored = () => createAttemptStore(USER, storage).load();
  return { driver, storage, server, clock, net, states, stored, authenticated };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('one attempt key until a definite answer', () => {
  test('503 payment_pending, then success: the same key and payment method, confirming meanwhile, no new attempt', async () => {
    const { driver, server, clock, states, stored } = setup([
      pending503('pay-1'),
      succeeded('pay-1'),
    ]);
    expect(driver.start(newCardAttempt())).toBe(true);
    // Stored before the request left.
    expect(stored()).toMatchObject({ key: 'key-00000001', paymentMethodId: 'pm_card_visa' });
    await settle();
    expect(driver.getState()).toMatchObject({
      name: 'confirming',
      tries: 1,
      attempt: { paymentId: 'pay-1' },
    });
    expect(stored()).toMatchObject({ key: 'key-00000001', paymentId: 'pay-1' });

    // The page refuses a second attempt while the first has no answer.
    expect(driver.start(newCardAttempt('key-00000002'))).toBe(false);

    expect(clock.fire()).toBe(1000);
    await settle();
    expect(driver.getState()).toMatchObject({ name: 'succeeded', paymentId: 'pay-1' });
    expect(server.sent).toEqual([
      { kind: 'start', key: 'key-00000001', paymentMethodId: 'pm_card_visa' },
      { kind: 'start', key: 'key-00000001', paymentMethodId: 'pm_card_visa' },
    ]);
    expect(states).toEqual(['submitting', 'confirming', 'submitting', 'succeeded']);
    expect(stored()).toBeNull();
  });

  test('a reload while the answer is unknown resumes the same attempt, then forgets it on success', async () => {
    const storage = new MemoryStorage();
    const first = setup([pending503('pay-2')], { storage });
    first.driver.start(newCardAttempt());
    await settle();
    first.driver.dispose(); // the page goes away

    const second = setup([succeeded('pay-2')], { storage });
    expect(second.driver.getState().name).toBe('ready');
    expect(second.driver.resume()).toBe(true);
    expect(second.driver.getState()).toMatchObject({ name: 'submitting', tries: 1 });
    await settle();
    expect(second.server.sent).toEqual([
      { kind: 'start', key: 'key-00000001', paymentMethodId: 'pm_card_visa' },
    ]);
    expect(second.driver.getState().name).toBe('succeeded');
    expect(storage.getItem(attemptStorageKey(USER))).toBeNull();
    expect(second.driver.resume()).toBe(false);
  });

  test('a new attempt in another tab while one is unresolved resumes that one instead', async () => {
    const storage = new MemoryStorage();
    const tabA = setup([pending503('pay-3')], { storage });
    tabA.driver.start(newCardAttempt('key-aaaaaaaa'));
    await settle();
    const tabB = setup([succeeded('pay-3')], { storage });
    expect(tabB.driver.start(newCardAttempt('key-bbbbbbbb'))).toBe(false);
    await settle();
    expect(tabB.server.sent).toEqual([
      { kind: 'start', key: 'key-aaaaaaaa', paymentMethodId: 'pm_card_visa' },
    ]);
    expect(tabB.driver.getState().name).toBe('succeeded');
  });

  test('a definite refusal ends the attempt: its key is dropped and the next Pay starts anew', async () => {
    const declined = new ApiError(402, 'payment_failed', 'Your card was declined.', {
      reason: 'card_declined',
    });
    const { driver, server, stored } = setup([declined, succeeded('pay-4')]);
    driver.start(newCardAttempt('key-11111111'));
    await settle();
    expect(driver.getState()).toEqual({ name: 'ready', error: 'Your card was declined.' });
    expect(stored()).toBeNull();
    expect(driver.start(newCardAttempt('key-22222222'))).toBe(true);
    await settle();
    expect(server.sent.map((s) => s.key)).toEqual(['key-11111111', 'key-22222222']);
  });

  test('no connection: the retry waits for the connection rather than a timer', async () => {
    const { driver, server, clock, net } = setup([offline(), succeeded('pay-5')], {
      online: false,
    });
    driver.start(newCardAttempt());
    await settle();
    expect(driver.getState()).toMatchObject({ name: 'confirming', tries: 1 });
    expect(clock.due).toEqual([]);
    expect(net.listeners.size).toBe(1);
    net.goOnline();
    expect(net.listeners.size).toBe(0);
    await settle();
    expect(driver.getState().name).toBe('succeeded');
    expect(server.sent.map((s) => s.key)).toEqual(['key-00000001', 'key-00000001']);
  });

  test('the pause grows while answers stay unknown (502, 500, 503…), and "check now" skips it', async () => {
    const { driver, server, clock } = setup([
      new ApiError(502, 'HTTP_502', 'Bad gateway'),
      new ApiError(500, 'HTTP_500', 'Oops'),
      pending503('pay-6'),
      succeeded('pay-6'),
    ]);
    driver.start(newCardAttempt());
    await settle();
    expect(clock.fire()).toBe(1000);
    await settle();
    expect(clock.fire()).toBe(2000);
    await settle();
    expect(clock.due.map((t) => t.ms)).toEqual([4000]);
    driver.retryNow();
    expect(clock.due).toEqual([]);
    await settle();
    expect(driver.getState().name).toBe('succeeded');
    expect(new Set(server.sent.map((s) => s.key))).toEqual(new Set(['key-00000001']));
    expect(server.sent).toHaveLength(4);
  });

  test('an answer that arrives after the page closed changes nothing', async () => {
    let answer: (value: CheckoutAnswer) => void = () => {};
    const storage = new MemoryStorage();
    const store = createAttemptStore(USER, storage);
    const driver = createCheckoutDriver({
      requests: {
        start: () => new Promise((resolve) => (answer = resolve)),
        confirm: () => new Promise(() => {}),
      },
      store,
      authenticate: async () => {},
    });
    driver.start(newCardAttempt());
    driver.dispose();
    answer(succeeded('pay-late'));
    await settle();
    expect(driver.getState().name).toBe('submitting');
    // Unresolved as far as this browser knows: the next page resumes it.
    expect(store.load()).toMatchObject({ key: 'key-00000001' });
  });
});

describe("the buyer's step at the provider", () => {
  test('3-D Secure: the step runs with the client secret, then the checkout is confirmed by its id', async () => {
    const { driver, server, authenticated } = setup([
      { status: 'requires_action', paymentId: 'pay-3ds', clientSecret: 'pi_1_secret_x' },
      succeeded('pay-3ds'),
    ]);
    driver.start(newCardAttempt());
    await settle();
    await settle();
    expect(authenticated).toEqual(['pi_1_secret_x']);
    expect(server.sent).toEqual([
      { kind: 'start', key: 'key-00000001', paymentMethodId: 'pm_card_visa' },
      { kind: 'confirm', paymentId: 'pay-3ds' },
    ]);
    expect(driver.getState().name).toBe('succeeded');
  });

  test('3-D Secure that could not run (Stripe.js did not load): confirming, then the same checkout again', async () => {
    const { driver, server, clock } = setup(
      [
        { status: 'requires_action', paymentId: 'pay-3ds', clientSecret: 'pi_1_secret_x' },
        { status: 'requires_action', paymentId: 'pay-3ds', clientSecret: 'pi_1_secret_x' },
      ],
      { authenticate: () => Promise.reject(new Error('Stripe.js did not load')) },
    );
    driver.start(newCardAttempt());
    await settle();
    await settle();
    expect(driver.getState()).toMatchObject({ name: 'confirming', tries: 1 });
    clock.fire();
    await settle();
    expect(server.sent.map((s) => s.kind)).toEqual(['start', 'start']);
    expect(new Set(server.sent.map((s) => s.key))).toEqual(new Set(['key-00000001']));
  });

  test('wallet: approving hands out the order to approve; the return from the wallet confirms it after a reload', async () => {
    const storage = new MemoryStorage();
    const wallet: NewAttempt = { ...newCardAttempt(), method: 'wallet', paymentMethodId: null };
    const page = setup(
      [
        {
          status: 'approval_required',
          paymentId: 'pay-w',
          approvalUrl: '/api/payments/test-wallet/wo_1',
          walletOrderId: 'wo_1',
        },
      ],
      { storage },
    );
    page.driver.start(wallet);
    const approving = await page.driver.waitFor((s) => s.name === 'approving');
    expect(approving).toMatchObject({
      approvalUrl: '/api/payments/test-wallet/wo_1',
      walletOrderId: 'wo_1',
    });
    page.driver.dispose(); // off to the approval page

    const back = setup([succeeded('pay-w')], { storage });
    back.driver.returnFromWallet('pay-w', true, 'not completed', { ...wallet, key: 'key-unused0' });
    await settle();
    expect(back.server.sent).toEqual([{ kind: 'confirm', paymentId: 'pay-w' }]);
    expect(back.driver.getState().name).toBe('succeeded');
    expect(back.stored()).toBeNull();
  });

  test('wallet cancelled at the provider: the attempt ends, nothing is sent', async () => {
    const storage = new MemoryStorage();
    const wallet: NewAttempt = { ...newCardAttempt(), method: 'wallet', paymentMethodId: null };
    const page = setup(
      [{ status: 'approval_required', paymentId: 'pay-w', approvalUrl: '/a', walletOrderId: null }],
      { storage },
    );
    page.driver.start(wallet);
    await settle();
    page.driver.dispose();
    const back = setup([], { storage });
    back.driver.returnFromWallet('pay-w', false, 'The payment was not completed.', wallet);
    expect(back.driver.getState()).toEqual({
      name: 'ready',
      error: 'The payment was not completed.',
    });
    expect(back.server.sent).toEqual([]);
    expect(back.stored()).toBeNull();
  });
});
