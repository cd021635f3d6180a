/** What one load run measured: throughput and latency of successful requests. */
export interface LoadResult {
  /** Completed requests (2xx, or resolved calls) during the measured window. */
  requests: number;
  /** Requests per second over the measured window. */
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Failed calls, connection errors, timeouts, or non-2xx answers. */
  errors: number;
  /** Measured window, in seconds. */
  seconds: number;
}

/** Nearest-rank percentile of ascending `sorted` values (0 for an empty list). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Median of a list of numbers (0 for an empty list). */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}
