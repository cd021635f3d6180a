import pLimit, { type LimitFunction } from 'p-limit';

/**
 * The work of this instance that must not wait behind background work: a checkout (app.ts marks
 * it), never behind a storm of sync pushes (issue 15: "checkout must never wait behind
 * personal-data sync"). It is counted while it runs; `backgroundSlots` admit fewer pushes at once
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

  /** Calls `listener` when urgent work starts (true) or the last of it ends (false). */
  onChange(listener: (running: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(running: boolean) {
    for (const listener of this.#listeners) listener(running);
  }
}

/**
 * A concurrency limit for background work: `full` at once, half of it (at least one) while urgent
 * work runs. Work already running goes on; only what starts meanwhile is held back, in order.
 */
export function backgroundSlots(full: number, urgent: UrgentWork): LimitFunction {
  const narrowed = Math.max(1, Math.floor(full / 2));
  const slots = pLimit(urgent.running ? narrowed : full);
  urgent.onChange((running) => {
    slots.concurrency = running ? narrowed : full;
  });
  return slots;
}
