import type { Config } from '../config.ts';
import { AppError, ErrorCode } from '../lib/errors.ts';

/**
 * What one instance spends on its sync streams (Server-Sent Events), so that clients that open
 * many streams, or do not read them, cannot exhaust its memory or sockets.
 */
export interface StreamLimits {
  /** Open streams per client address (the identity middleware's client address). */
  perAddress: number;
  /** Open streams on this instance, all addresses together. */
  total: number;
  /**
   * Bytes of events a stream may have waiting for a slow reader; past it the stream stops, is
   * ended with a reconnect hint, and the client's pull on reconnecting catches up.
   */
  queueMaxBytes: number;
  /** Events a stream may have waiting (with the bytes above, whichever comes first). */
  queueMaxEvents: number;
  /** A write the client does not take within this many ms ends the connection. */
  writeTimeoutMs: number;
}

export const DEFAULT_STREAM_LIMITS: Readonly<StreamLimits> = {
  perAddress: 100,
  total: 10_000,
  queueMaxBytes: 1024 * 1024,
  queueMaxEvents: 1000,
  writeTimeoutMs: 10_000,
};

export function resolveStreamLimits(input: Partial<StreamLimits> = {}): StreamLimits {
  return { ...DEFAULT_STREAM_LIMITS, ...input };
}

/** The stream limits from the environment (main.ts passes them to createApp as `streams`). */
export function streamLimitsFromConfig(config: Config): Partial<StreamLimits> {
  return {
    perAddress: config.STREAMS_PER_ADDRESS,
    total: config.STREAMS_MAX,
    queueMaxBytes: config.STREAM_QUEUE_BYTES,
    writeTimeoutMs: config.STREAM_TIMEOUT_MS,
  };
}

/** Counts the open streams of an instance, in total and per client address. */
export class StreamSlots {
  #total = 0;
  readonly #byAddress = new Map<string, number>();

  constructor(private readonly limits: Pick<StreamLimits, 'perAddress' | 'total'>) {}

  get open(): number {
    return this.#total;
  }

  /**
   * Takes a slot for a new stream from `address`; returns the function that gives it back (once).
   * @throws AppError 429 past either limit.
   */
  acquire(address: string): () => void {
    if (this.#total >= this.limits.total) {
      throw new AppError(
        ErrorCode.TooManyRequests,
        'This server has too many live connections open; retry in a moment',
        { reason: 'streams_total', limit: this.limits.total },
      );
    }
    const mine = this.#byAddress.get(address) ?? 0;
    if (mine >= this.limits.perAddress) {
      throw new AppError(
        ErrorCode.TooManyRequests,
        `Too many live connections from your address (at most ${this.limits.perAddress}); close some and retry`,
        { reason: 'streams_per_address', limit: this.limits.perAddress },
      );
    }
    this.#total += 1;
    this.#byAddress.set(address, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total -= 1;
      const left = (this.#byAddress.get(address) ?? 1) - 1;
      if (left > 0) this.#byAddress.set(address, left);
      else this.#byAddress.delete(address);
    };
  }
}
