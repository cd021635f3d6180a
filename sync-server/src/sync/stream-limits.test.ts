import { beforeAll, describe, expect, test } from 'vitest';
import { createMetrics, type Metrics } from '../lib/metrics.ts';
import { createTestHarness, type TestInstance } from '../test/harness.ts';
import { openStalledReader } from './stalled-reader.ts';
import type { StreamLimits } from './stream-limits.ts';
import { insertAirline, insertFlights, syncHeaders } from './test-fixtures.ts';

/**
 * Issue 14: the public streams are bounded per connection and per instance. Real HTTP servers
 * (the bounds are about sockets), each with its own limits and metrics, on one database.
 */

const { sql, startInstance: startServer } = await createTestHarness();

type Instance = TestInstance & { metrics: Metrics };

/** An instance (a pool of 3) with stream limits and metrics of its own. */
async function startInstance(streams: Partial<StreamLimits>): Promise<Instance> {
  const metrics = createMetrics();
  return { ...(await startServer({ poolMax: 3, metrics, streams })), metrics };
}

async function openStreams(instance: Instance): Promise<number> {
  return (await instance.metrics.openStreams.get()).values[0]?.value ?? 0;
}

/**
 * Whether `check` holds within `timeoutMs`. The bounds below are far above what an idle machine
 * needs: a passing check returns at once, and a busy machine only makes the test slower.
 */
async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

let flightIds: string[];

beforeAll(async () => {
  const airlineId = await insertAirline(sql, 'Limits Air');
  flightIds = await insertFlights(sql, airlineId, 300);
});

/** About 10 MB of flight changes: more than a stalled socket's kernel buffers take. */
async function bulkUpdates(rounds = 20) {
  for (let round = 0; round < rounds; round++) {
    for (let from = 0; from < flightIds.length; from += 100) {
      await sql`
        UPDATE flights SET price_cents = price_cents + 1, updated_at = now(),
          description = 'Edit ' || ${round} || ': ' || repeat('Updated baggage and meal details. ', 45)
        WHERE id = ANY(${flightIds.slice(from, from + 100)}::uuid[])`;
    }
  }
}

function open(instance: Instance, address: string) {
  const controller = new AbortController();
  const response = fetch(`${instance.origin}/api/sync/flights/stream`, {
    headers: syncHeaders({ 'X-Forwarded-For': address }),
    signal: controller.signal,
  });
  return {
    response,
    async close() {
      controller.abort();
      await response.then((res) => res.body?.cancel()).catch(() => {});
    },
  };
}

describe('open streams are limited per client address and per instance', () => {
  test('429 past the limits, with a clear message; a closed stream gives its slot back', async () => {
    const instance = await startInstance({ perAddress: 2, total: 3 });
    const first = open(instance, '203.0.113.1');
    const second = open(instance, '203.0.113.1');
    expect((await first.response).status).toBe(200);
    expect((await second.response).status).toBe(200);

    const third = await open(instance, '203.0.113.1').response;
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({
      code: 'too_many_requests',
      message: 'Too many live connections from your address (at most 2); close some and retry',
      details: { reason: 'streams_per_address', limit: 2 },
    });

    // Another address still gets one, until the instance's total is reached.
    const other = open(instance, '203.0.113.2');
    expect((await other.response).status).toBe(200);
    const overTotal = await open(instance, '203.0.113.3').response;
    expect(overTotal.status).toBe(429);
    expect(await overTotal.json()).toMatchObject({
      code: 'too_many_requests',
      details: { reason: 'streams_total', limit: 3 },
    });

    // Closing a stream frees its slot.
    await first.close();
    expect(await eventually(async () => (await openStreams(instance)) === 2, 15_000)).toBe(true);
    const again = open(instance, '203.0.113.1');
    expect((await again.response).status).toBe(200);
    for (const stream of [second, other, again]) await stream.close();
    expect(await eventually(async () => (await openStreams(instance)) === 0, 15_000)).toBe(true);
  });
});

describe('a client that does not read is not buffered without bound', () => {
  test('past the queue bound the stream ends with a reconnect hint, and the socket is let go', async () => {
    // The write timeout is far off: this is about the queue bound, however long the updates take.
    const instance = await startInstance({ queueMaxBytes: 64 * 1024, writeTimeoutMs: 120_000 });
    const origin = new URL(instance.origin);
    const reader = await openStalledReader(origin);
    expect(await openStreams(instance)).toBe(1);
    await bulkUpdates();
    // The reader reads again: what the kernel held, then the hint and the end of the stream.
    const outcome = await reader.resumeAndWait(20_000);
    expect(outcome).toMatchObject({ ended: true, hinted: true, cut: false });
    expect(await eventually(async () => (await openStreams(instance)) === 0, 15_000)).toBe(true);
    reader.socket.destroy();
  });

  test('a write the client does not take within the write timeout cuts the connection', async () => {
    const instance = await startInstance({
      queueMaxBytes: 256 * 1024 * 1024,
      writeTimeoutMs: 1000,
    });
    const reader = await openStalledReader(new URL(instance.origin));
    const started = Date.now();
    await bulkUpdates();
    // Still stalled: the server gives up on it about a second after its writes stopped going out.
    expect(await eventually(async () => (await openStreams(instance)) === 0, 30_000)).toBe(true);
    const cutAfterMs = Date.now() - started;
    const outcome = await reader.resumeAndWait(20_000);
    expect(outcome).toMatchObject({ ended: true, cut: true });
    console.log('stalled socket cut after (ms, from the first update)', cutAfterMs);
    reader.socket.destroy();
  });
});
