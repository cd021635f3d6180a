import { useEffect, useEffectEvent, useState, useSyncExternalStore } from 'react';
import type { CartLine, SeatHold } from '@skyport/shared';
import { ApiError, errorMessage, reportApiError } from '../../../api/api-client.ts';
import { createStore, type Store } from '../../../lib/store.ts';
import { uiLabels } from '../../../ui/labels.ts';
import { holdSeats, releaseHold, saveCart } from '../api/checkout-api.ts';
import { holdDeadline } from './hold-clock.ts';

/**
 * The payment page's seat hold (issue 17): when the buyer starts paying, the cart is saved and its
 * seats held on the server (`POST /api/checkout/hold`); the page counts down to the hold's end
 * (hold-clock.ts) and, at zero, offers to hold them again. A buyer who leaves the page without
 * paying gives the seats back at once (else the customer's own cart, which sees the stock others
 * see, would count them as gone until the hold expires). Kept outside React, like the purchase
 * attempt, and read with useSyncExternalStore.
 */

export type SeatHoldState =
  | { name: 'idle' }
  | { name: 'holding' }
  /** `deadline`: when the hold ends on this device's clock. */
  | { name: 'held'; hold: SeatHold; deadline: number }
  /** The server refused (no stock, share cap…) or could not be reached; `message` to show. */
  | { name: 'failed'; message: string };

export interface SeatHolder {
  state: Store<SeatHoldState>;
  /** Saves the cart and holds its seats (again, after expiry: a new hold). */
  take(lines: readonly CartLine[]): void;
  /** Gives the seats of the hold now held back (nothing when none is); the page forgets it. */
  release(): void;
}

/**
 * The release under way, on this page: a hold taken after it (the buyer came straight back)
 * waits for it, or the server could answer the new request with the hold being released.
 */
let releasing: Promise<unknown> = Promise.resolve();

export function createSeatHolder(
  requests: {
    saveCart(lines: readonly CartLine[]): Promise<void>;
    holdSeats(): Promise<SeatHold>;
    releaseHold(holdId: string): Promise<void>;
  } = { saveCart, holdSeats, releaseHold },
  now: () => number = Date.now,
): SeatHolder {
  const state = createStore<SeatHoldState>({ name: 'idle' });
  /** Bumped by every take: a late answer of an earlier one is ignored. */
  let generation = 0;
  return {
    state,
    take(lines) {
      const run = ++generation;
      const live = () => run === generation;
      // A hold still running stays on screen while the server answers (the same hold, for the
      // same cart).
      const current = state.get();
      if (current.name !== 'held' || current.deadline <= now()) state.set({ name: 'holding' });
      releasing
        .then(() => requests.saveCart(lines))
        .then(() => requests.holdSeats())
        .then(
          (hold) => {
            if (live()) state.set({ name: 'held', hold, deadline: holdDeadline(hold, now()) });
          },
          (error: unknown) => {
            if (!live()) return;
            if (error instanceof ApiError && error.status === 401) reportApiError(error);
            const message =
              error instanceof Error ? errorMessage(error, error.message) : uiLabels.paymentFailed;
            state.set({ name: 'failed', message });
          },
        );
    },
    release() {
      const current = state.get();
      generation += 1;
      state.set({ name: 'idle' });
      if (current.name !== 'held' || current.deadline <= now()) return;
      // Best effort: a release that fails leaves the hold to expire.
      releasing = requests.releaseHold(current.hold.holdId).catch(() => undefined);
    },
  };
}

/** A text that changes when the cart's flights or amounts do (not its prices). */
function cartKey(lines: readonly CartLine[]): string {
  return lines
    .map((line) => `${line.flightId}x${line.amount}`)
    .sort()
    .join(',');
}

/**
 * The seat hold of the cart `lines` while `enabled` (the buyer is on the payment page with no
 * purchase attempt under way): taken when enabled and again when the cart's lines change, given
 * back when the page goes away while still enabled (an attempt under way pays the hold: kept).
 */
export function useSeatHold(
  lines: readonly CartLine[],
  enabled: boolean,
): { state: SeatHoldState; holdAgain: () => void } {
  const [holder] = useState(() => createSeatHolder());
  const state = useSyncExternalStore(holder.state.subscribe, holder.state.get, holder.state.get);
  const take = useEffectEvent(() => holder.take(lines));
  const key = cartKey(lines);
  useEffect(() => {
    if (enabled && key !== '') take();
  }, [enabled, key]);
  const leave = useEffectEvent(() => {
    if (enabled) holder.release();
  });
  useEffect(() => () => leave(), []);
  return { state, holdAgain: () => holder.take(lines) };
}

const clock = {
  now: Date.now(),
  subscribe(listener: () => void) {
    // React reads the snapshot again after subscribing: a stale `now` is replaced at once.
    clock.now = Date.now();
    const timer = setInterval(() => {
      clock.now = Date.now();
      listener();
    }, 250);
    return () => clearInterval(timer);
  },
  get: () => clock.now,
};
const stopped = () => () => {};

/** This device's time, refreshed four times a second while `running`. */
export function useNow(running: boolean): number {
  return useSyncExternalStore(running ? clock.subscribe : stopped, clock.get, clock.get);
}
