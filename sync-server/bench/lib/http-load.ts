import autocannon from 'autocannon';
import type { LoadResult } from './stats.ts';

export interface HttpLoadOptions {
  /** Base URL of the server, e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  /** Paths (with query strings) requested in turn, round-robin over all connections. */
  paths: readonly string[];
  connections: number;
  /** Measured window in seconds; a separate, unmeasured warm-up run precedes it. */
  seconds: number;
  warmupSeconds?: number;
}

/**
 * Drives GET requests with autocannon (closed loop: each connection sends its next request when the
 * answer arrives). Latency is autocannon's, in whole milliseconds, over 2xx answers only; anything
 * else counts as an error.
 */
export async function runHttpLoad(options: HttpLoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds) await drive({ ...options, seconds: options.warmupSeconds });
  const result = await drive(options);
  return {
    requests: result['2xx'],
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    seconds: result.duration,
  };
}

function drive(options: HttpLoadOptions): Promise<autocannon.Result> {
  let next = 0;
  const paths = options.paths;
  return autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] ?? '/' }),
      },
    ],
  });
}
