import { percentile, type LoadResult } from './stats.ts';

export interface DirectLoadOptions {
  /** Calls in flight at once (like HTTP connections). */
  concurrency: number;
  /** Measured window in seconds, after `warmupSeconds` that are not counted. */
  seconds: number;
  warmupSeconds?: number;
}

/**
 * Drives an async call with `concurrency` loops, each starting its next call when the previous one
 * resolves (closed loop, as autocannon does with connections), and measures throughput and latency
 * in-process, with no HTTP in between. `call(i)` receives a running index to cycle inputs with.
 */
export async function runDirectLoad(
  call: (i: number) => Promise<unknown>,
  options: DirectLoadOptions,
): Promise<LoadResult> {
  let next = 0;
  let measuring = false;
  let stopping = false;
  let errors = 0;
  const latencies: number[] = [];

  const loop = async () => {
    while (!stopping) {
      const i = next++;
      const started = performance.now();
      try {
        await call(i);
        if (measuring) latencies.push(performance.now() - started);
      } catch {
        if (measuring) errors++;
      }
    }
  };

  const loops = Array.from({ length: options.concurrency }, loop);
  await sleep((options.warmupSeconds ?? 0) * 1000);
  measuring = true;
  const started = performance.now();
  await sleep(options.seconds * 1000);
  measuring = false;
  const seconds = (performance.now() - started) / 1000;
  stopping = true;
  await Promise.all(loops);

  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    seconds,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
