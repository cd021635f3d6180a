import pLimit from 'p-limit';

/**
 * The work that must not wait behind background work: a checkout (app.ts marks it), never behind
 * a storm of sync pushes (issue 15: "checkout must never wait behind personal-data sync"). It is
 * counted while it runs; `backgroundSlots` start no background work meanwhile, so that the
 * checkout's round trips find PostgreSQL's cores and the event loop less crowded
 * (docs/decisions/022-checkout-before-sync.md).
 *
 * Checkouts on other instances count too, since their round trips share PostgreSQL's cores with
 * this instance's pushes: `elsewhere` records what urgent-signal.ts hears of them, each for at
 * most `URGENT_WAIT_MAX_MS` unless its end is heard first
 * (docs/decisions/024-urgent-work-cluster-wide.md).
 */
export class UrgentWork {
  #here = 0;
  /** Other instances running urgent work, each with the timer that forgets it. */
  readonly #elsewhere = new Map<string, NodeJS.Timeout>();
  readonly #listeners = new Set<(running: boolean) => void>();
  readonly #hereListeners = new Set<(running: boolean) => void>();
  /** Who waits in `quiet`, in order of arrival. */
  readonly #waiters = new Set<() => void>();
  #releasing = false;

  /** Whether urgent work is running now, here or on another instance. */
  get running(): boolean {
    return this.#here > 0 || this.#elsewhere.size > 0;
  }

  /** Whether urgent work of this instance is running now. */
  get runningHere(): boolean {
    return this.#here > 0;
  }

  /** Runs `work` counted as urgent until it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.#change(() => this.#here++);
    try {
      return await work();
    } finally {
      this.#change(() => this.#here--);
    }
  }

  /**
   * Another instance (`source`) says its urgent work started (`running`) or ended. A start is
   * believed for `forMs` at most: an end that never comes (the instance died, the notice was lost)
   * holds nothing up for longer than a waiter would wait anyway.
   */
  elsewhere(source: string, running: boolean, forMs = URGENT_WAIT_MAX_MS): void {
    this.#change(() => {
      clearTimeout(this.#elsewhere.get(source));
      this.#elsewhere.delete(source);
      if (running)
        this.#elsewhere.set(source, setTimeout(() => this.elsewhere(source, false), forMs).unref());
    });
  }

  /**
   * Resolves once no urgent work runs, or after `maxMs` whatever runs then. Those waiting when it
   * ends go in the order they came, `RELEASED_PER_TURN` per event-loop turn, and no more once
   * urgent work starts again: a checkout that arrives while a storm of waiting pushes goes is read
   * after a few of them, not after all (docs/decisions/024-urgent-work-cluster-wide.md). A caller
   * that comes while none runs goes at once, even while earlier waiters are still being released:
   * a push batch asking for its slot then must not queue behind the pushes still to be read.
   */
  quiet(maxMs: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        this.#waiters.delete(release);
        resolve();
      };
      const timer = setTimeout(release, maxMs);
      this.#waiters.add(release);
      this.#releaseSoon();
    });
  }

  /** Releases the next waiters of `quiet` in the next turn, and so on, while none runs. */
  #releaseSoon() {
    if (this.#releasing || this.running || this.#waiters.size === 0) return;
    this.#releasing = true;
    setImmediate(() => {
      this.#releasing = false;
      if (this.running) return;
      let left = RELEASED_PER_TURN;
      for (const release of this.#waiters) {
        if (left-- === 0) break;
        release();
      }
      this.#releaseSoon();
    });
  }

  /**
   * Calls `listener` when urgent work starts (true) or the last of it ends (false), here or
   * elsewhere.
   */
  onChange(listener: (running: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The same for this instance's urgent work alone (what urgent-signal.ts tells the others). */
  onChangeHere(listener: (running: boolean) => void): () => void {
    this.#hereListeners.add(listener);
    return () => this.#hereListeners.delete(listener);
  }

  /** Applies `update` and tells the listeners whose answer it changed. */
  #change(update: () => void) {
    const [before, beforeHere] = [this.running, this.runningHere];
    update();
    if (this.runningHere !== beforeHere)
      for (const listener of this.#hereListeners) listener(this.runningHere);
    if (this.running !== before) for (const listener of this.#listeners) listener(this.running);
    this.#releaseSoon();
  }
}

/** Where background work waits for its turn: runs `work` when a slot is free. */
export type Slots = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * How long background work that is due waits for urgent work to end before it starts anyway: a
 * steady stream of checkouts slows device syncs down but never stops them.
 */
export const URGENT_WAIT_MAX_MS = 500;

/**
 * How many waiters of `UrgentWork.quiet` go per event-loop turn once urgent work ends: a push's
 * reading, parsing and checking take a fraction of a millisecond, so a checkout arriving meanwhile
 * waits a few milliseconds at most, and a few hundred waiting pushes still go within milliseconds.
 */
export const RELEASED_PER_TURN = 32;

/**
 * A concurrency limit for background work that steps aside for urgent work: `full` at once, and
 * none starts while urgent work runs (each waits for its end, at most `maxWaitMs`). Work already
 * running goes on; what waits starts in order.
 */
export function backgroundSlots(
  full: number,
  urgent: UrgentWork,
  maxWaitMs = URGENT_WAIT_MAX_MS,
): Slots {
  const limit = pLimit(full);
  return (work) =>
    limit(async () => {
      await urgent.quiet(maxWaitMs);
      return work();
    });
}
