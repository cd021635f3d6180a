// A lean HTTP/1.1 client for the load loops (node:http with keep-alive: far less CPU per request
// than fetch, which matters when the load generator shares two cores with the servers), and the
// closed-loop driver that times them.
import http from 'node:http';
import { percentile, round } from './stats.ts';

export interface HttpAnswer {
  status: number;
  body: string;
}

export interface HttpClient {
  request(
    method: string,
    path: string,
    headers?: Record<string, string>,
    body?: string,
  ): Promise<HttpAnswer>;
  close(): void;
}

/** One keep-alive agent for `baseUrl`; every loop in flight gets a connection of its own. */
export function httpClient(baseUrl: string, timeoutMs = 120_000): HttpClient {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  return {
    request(method, path, headers = {}, body) {
      return new Promise<HttpAnswer>((resolve, reject) => {
        const req = http.request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            method,
            path,
            headers:
              body === undefined
                ? headers
                : { ...headers, 'Content-Length': Buffer.byteLength(body) },
            timeout: timeoutMs,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                body: Buffer.concat(chunks).toString('utf8'),
              }),
            );
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

/** What one closed-loop run measured. Latencies in ms (0.1 ms resolution). */
export interface LoopResult {
  /** Calls completed successfully in the measured window. */
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  /** A few error messages, to see what failed. */
  errorSamples: string[];
  seconds: number;
}

export interface LoopOptions {
  /** Loops running at once; each starts its next call when the previous one ended. */
  loops: number;
  seconds: number;
  warmupSeconds?: number;
  /** Called when the measured window starts (after the warm-up). */
  onMeasuring?: () => void;
}

/**
 * Runs `call(loop, iteration)` in `loops` closed loops. A call times its own request and returns
 * the latency in ms (so untimed set-up, such as putting a cart line, stays out of it) or throws.
 * The calls that start inside the measured window count, each with its whole latency: the run
 * waits for the last of them (dropping the ones still running at the end would drop the slowest).
 */
export async function runLoops(
  call: (loop: number, iteration: number) => Promise<number>,
  options: LoopOptions,
): Promise<LoopResult> {
  let windowStart = Infinity;
  let windowEnd = Infinity;
  let stopping = false;
  let errors = 0;
  const errorSamples: string[] = [];
  const latencies: number[] = [];

  const loop = async (index: number) => {
    for (let iteration = 0; !stopping; iteration++) {
      const started = performance.now();
      const counted = () => started >= windowStart && started < windowEnd;
      try {
        const ms = await call(index, iteration);
        if (counted()) latencies.push(ms);
      } catch (error) {
        if (counted()) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push((error as Error).message.slice(0, 300));
        }
        // A failing call must not spin: the next one starts a little later.
        await sleep(10);
      }
    }
  };

  // Without a warm-up the first calls count too: the window opens before they start.
  const warmupMs = (options.warmupSeconds ?? 0) * 1000;
  if (warmupMs === 0) windowStart = performance.now();
  const loops = Array.from({ length: options.loops }, (_, i) => loop(i));
  if (warmupMs > 0) {
    await sleep(warmupMs);
    windowStart = performance.now();
  }
  options.onMeasuring?.();
  await sleep(options.seconds * 1000);
  windowEnd = performance.now();
  stopping = true;
  await Promise.all(loops);
  return summarize(latencies, errors, errorSamples, (windowEnd - windowStart) / 1000);
}

export function summarize(
  latencies: number[],
  errors: number,
  errorSamples: string[],
  seconds: number,
): LoopResult {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: round(latencies.length / seconds),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? 0),
    errors,
    errorSamples,
    seconds: round(seconds, 2),
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
