import type { Logger } from './logger.ts';

/** Something that must stop before the database pool closes (a feed, a job, a mail queue). */
interface Stopper {
  name: string;
  stop: () => Promise<void> | void;
}

/**
 * The state of one server instance: starting (migrations), serving, or draining after SIGTERM.
 *
 * Readiness follows it (a draining instance takes no new traffic from the load balancer), streams
 * end when `draining` is aborted (with a reconnect hint, so clients move to another instance),
 * and `shutdown()` stops the registered parts, newest first, each bounded by the same deadline.
 */
export class Lifecycle {
  #state: 'starting' | 'serving' | 'draining' = 'starting';
  readonly #drain = new AbortController();
  readonly #stoppers: Stopper[] = [];

  get state() {
    return this.#state;
  }

  /** Aborted when the instance starts draining. */
  get draining(): AbortSignal {
    return this.#drain.signal;
  }

  /** Migrations are done and the app is mounted. */
  markServing(): void {
    if (this.#state === 'starting') this.#state = 'serving';
  }

  /** Registers a part to stop on shutdown (after requests and streams have drained). */
  onShutdown(name: string, stop: Stopper['stop']): void {
    this.#stoppers.push({ name, stop });
  }

  /** Readiness turns false and every open stream is asked to end. */
  beginDrain(): void {
    this.#state = 'draining';
    this.#drain.abort();
  }

  /**
   * Stops the registered parts in reverse order of registration. Each gets what is left of
   * `deadline` (a timestamp); a part that does not finish in time is logged and left behind.
   */
  async stopParts(deadline: number, logger: Logger): Promise<void> {
    this.beginDrain();
    for (const { name, stop } of [...this.#stoppers].reverse()) {
      const left = Math.max(0, deadline - Date.now());
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        Promise.resolve()
          .then(stop)
          .then(
            () => true,
            (error: unknown) => {
              logger.error({ err: error, part: name }, 'shutdown: part failed to stop');
              return true;
            },
          ),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), left))),
      ]);
      clearTimeout(timer);
      if (!finished) logger.warn({ part: name }, 'shutdown: part did not stop in time');
    }
  }
}
