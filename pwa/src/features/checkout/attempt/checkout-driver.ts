import { createListeners } from '../../../lib/store.ts';
import type { CheckoutAnswer } from '../api/checkout-api.ts';
import {
  classifyFailure,
  initialState,
  pendingAttempt,
  retryDelayMs as defaultRetryDelayMs,
  transition,
  type Attempt,
  type CheckoutEvent,
  type CheckoutState,
} from './attempt-machine.ts';
import type { AttemptStore } from './attempt-store.ts';

/**
 * Runs the attempt state machine (attempt-machine.ts): sends the attempt's requests, waits and
 * retries with the same key while there is no definite answer (sooner when the connection comes
 * back), runs the card's 3-D Secure step, and writes the attempt to its store on every change,
 * before any request of it leaves, so that a reload finds it.
 */

export interface CheckoutRequests {
  /** `POST /api/checkout` with the attempt's key and body (the first time and every retry). */
  start(attempt: Attempt): Promise<CheckoutAnswer>;
  /** `POST /api/checkout/{paymentId}/confirm`: after the buyer's step at the provider. */
  confirm(paymentId: string): Promise<CheckoutAnswer>;
}

export interface CheckoutDriverDeps {
  requests: CheckoutRequests;
  store: AttemptStore;
  /**
   * Completes a card's 3-D Secure step (Stripe.js `handleNextAction`). Resolves when the buyer is
   * done, whether they passed or not (the server says which); rejects when it could not run.
   */
  authenticate(clientSecret: string): Promise<void>;
  retryDelayMs?: (tries: number) => number;
  network?: { online(): boolean; onOnline(listener: () => void): () => void };
  timers?: { set(run: () => void, ms: number): unknown; clear(handle: unknown): void };
}

/** A new attempt as the page starts it; the driver adds the server's id and the step. */
export type NewAttempt = Omit<Attempt, 'paymentId' | 'step'>;

export interface CheckoutDriver {
  getState(): CheckoutState;
  subscribe(listener: () => void): () => void;
  /**
   * Starts a new attempt. Refused (false) while one is pending, here or in another tab of this
   * browser (that one is resumed instead).
   */
  start(attempt: NewAttempt): boolean;
  /** Resumes the stored attempt, if there is one (the page opened or reloaded). */
  resume(): boolean;
  /** Back from the wallet's approval page (`/payment?checkout={paymentId}&wallet=…`). */
  returnFromWallet(
    paymentId: string,
    approved: boolean,
    cancelledMessage: string,
    fallback: NewAttempt,
  ): void;
  buyerDone(): void;
  buyerCancelled(message: string): void;
  /** Tries again now rather than after the pause. */
  retryNow(): void;
  /** The first state, now or later, that `accept` takes. */
  waitFor(accept: (state: CheckoutState) => boolean): Promise<CheckoutState>;
  dispose(): void;
}

const browserNetwork = {
  online: () => typeof navigator === 'undefined' || navigator.onLine !== false,
  onOnline(listener: () => void) {
    if (typeof window === 'undefined') return () => {};
    window.addEventListener('online', listener);
    return () => window.removeEventListener('online', listener);
  },
};

const browserTimers = {
  set: (run: () => void, ms: number): unknown => setTimeout(run, ms),
  clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createCheckoutDriver(deps: CheckoutDriverDeps): CheckoutDriver {
  const { requests, store } = deps;
  const delayFor = deps.retryDelayMs ?? defaultRetryDelayMs;
  const network = deps.network ?? browserNetwork;
  const timers = deps.timers ?? browserTimers;
  let state: CheckoutState = initialState;
  let disposed = false;
  /** Bumped on every state change: a late result of an earlier state is ignored. */
  let generation = 0;
  let pause: { timer: unknown; stopWaiting: () => void } | undefined;
  const changed = createListeners();
  const waiters = new Set<{
    accept: (state: CheckoutState) => boolean;
    resolve: (state: CheckoutState) => void;
    reject: (error: Error) => void;
  }>();

  function set(next: CheckoutState) {
    if (disposed || next === state) return;
    state = next;
    generation += 1;
    // Before anything of this state is sent: the key must outlive the page.
    store.save(pendingAttempt(state));
    stopPause();
    for (const waiter of [...waiters]) {
      if (waiter.accept(state)) {
        waiters.delete(waiter);
        waiter.resolve(state);
      }
    }
    changed.notify();
    enter(state, generation);
  }

  function dispatch(event: CheckoutEvent) {
    set(transition(state, event));
  }

  function stopPause() {
    if (!pause) return;
    timers.clear(pause.timer);
    pause.stopWaiting();
    pause = undefined;
  }

  /** What a state does when it is entered. */
  function enter(current: CheckoutState, run: number) {
    const live = () => !disposed && run === generation;
    if (current.name === 'submitting') {
      const { attempt } = current;
      const request =
        attempt.step === 'confirm' && attempt.paymentId
          ? requests.confirm(attempt.paymentId)
          : requests.start(attempt);
      request.then(
        (answer) => live() && dispatch({ type: 'answer', answer }),
        (error: unknown) =>
          live() && dispatch({ type: 'failure', failure: classifyFailure(error) }),
      );
    } else if (current.name === 'confirming') {
      const retry = () => live() && dispatch({ type: 'retry' });
      // Offline: wait for the connection; otherwise a pause that grows with each try.
      const stopWaiting = network.online() ? () => {} : network.onOnline(retry);
      const timer = network.online() ? timers.set(retry, delayFor(current.tries)) : undefined;
      pause = { timer, stopWaiting };
    } else if (current.name === 'authenticating') {
      deps.authenticate(current.clientSecret).then(
        () => live() && dispatch({ type: 'buyer_done' }),
        // Could not run (Stripe.js did not load…): ask the server again after a pause.
        () => live() && set({ name: 'confirming', attempt: current.attempt, tries: 1 }),
      );
    }
  }

  function resumeWith(attempt: Attempt) {
    dispatch({ type: 'resume', attempt });
  }

  return {
    getState: () => state,
    subscribe: changed.subscribe,
    start(attempt) {
      if (state.name !== 'ready') return false;
      const elsewhere = store.load();
      if (elsewhere) {
        resumeWith(elsewhere);
        return false;
      }
      dispatch({ type: 'start', attempt: { ...attempt, paymentId: null, step: 'start' } });
      return true;
    },
    resume() {
      if (state.name !== 'ready') return false;
      const stored = store.load();
      if (!stored) return false;
      resumeWith(stored);
      return true;
    },
    returnFromWallet(paymentId, approved, cancelledMessage, fallback) {
      if (state.name !== 'ready') return;
      const stored = store.load();
      const ours =
        stored === null ||
        stored.paymentId === paymentId ||
        (stored.method === 'wallet' && stored.paymentId === null);
      if (!ours) {
        // Another attempt is unresolved: it comes first. This wallet order, never confirmed,
        // holds nothing and expires on the server.
        resumeWith(stored);
        return;
      }
      if (approved) {
        const base: Attempt = stored ?? {
          ...fallback,
          method: 'wallet',
          paymentId: null,
          step: 'start',
        };
        resumeWith({ ...base, paymentId, step: 'confirm' });
        return;
      }
      store.save(null);
      set({ name: 'ready', error: cancelledMessage });
    },
    buyerDone: () => dispatch({ type: 'buyer_done' }),
    buyerCancelled: (message) => dispatch({ type: 'buyer_cancelled', message }),
    retryNow: () => dispatch({ type: 'retry' }),
    waitFor(accept) {
      if (accept(state)) return Promise.resolve(state);
      if (disposed) return Promise.reject(new Error('checkout closed'));
      return new Promise((resolve, reject) => waiters.add({ accept, resolve, reject }));
    },
    dispose() {
      // From now on `set` ignores every state: the listeners hear nothing more.
      disposed = true;
      stopPause();
      for (const waiter of waiters) waiter.reject(new Error('checkout closed'));
      waiters.clear();
    },
  };
}
