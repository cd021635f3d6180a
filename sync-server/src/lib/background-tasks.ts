import type { Logger } from './logger.ts';

/**
 * Work that runs after an answer is decided, so that its duration tells a caller nothing
 * (e.g. whether an account exists and a mail went out). Failures are logged, never thrown.
 * Tests await `settled()` to see the effects.
 */
export class BackgroundTasks {
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly logger?: Logger) {}

  run(label: string, task: () => Promise<unknown>): void {
    const promise: Promise<void> = Promise.resolve()
      .then(task)
      .then(
        () => undefined,
        (error: unknown) => {
          this.logger?.error({ err: error, task: label }, 'background task failed');
        },
      )
      .finally(() => this.#pending.delete(promise));
    this.#pending.add(promise);
  }

  /** Resolves when every task started so far (and any they started) has finished. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}
