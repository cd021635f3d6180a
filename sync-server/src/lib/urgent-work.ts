import pLimit from 'p-limit';

/**
 * The work of this instance that must not wait behind background work: a checkout (app.ts marks
 * it), never behind a storm of sync pushes (issue 15: "checkout must never wait behind
 * personal-data sync"). It is counted while it runs; `backgroundSlots` start no background work
 * meanwhile, so that the checkout's round trips find PostgreSQL's cores and the event loop less
 * crowded (docs/decisions/022-checkout-before-sync.md).
 */
export class UrgentWork {
  #running = 0;
  readonly #listeners = new Set<(running: boolean) => void>();

  /** Whether urgent work is running now. */
  get running(): boolean {
    return this.#running > 0;
  }

  /** Runs `work` counted as urgent until it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running++ === 0) this.#notify(true);
    try {
      return await work();
    } finally {
      if (--this.#running === 0) this.#notify(false);
    }
  }

  /** Resolves once no urgent work runs, or after `maxMs` whatever runs then. */
  quiet(maxMs: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stopListening();
        resolve();
      };
      const timer = setTimeout(done, maxMs);
      const stopListening = this.onChange((running) => {
        if (!running) done();
      });
    });
  }

  /** Calls `listener` when urgent work starts (true) or the last of it ends (false). */
  onChange(listener: (running: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(running: boolean) {
    for (const listener of this.#listeners) listener(running);
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
