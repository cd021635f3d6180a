import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Sql } from '../db/client.ts';
import { Lifecycle } from '../lib/lifecycle.ts';
import { createLogger } from '../lib/logger.ts';
import { createMetrics } from '../lib/metrics.ts';
import type { AccessWatch } from './access-watch.ts';
import type { ChangeFeed, ChangeListener } from './change-feed.ts';
import { StreamHub, SyncStream, type StreamOutput, type Wanted } from './stream.ts';
import { HEARTBEAT_FRAME, RESYNC_FRAME, type ChangeBatch } from './stream-frames.ts';
import { resolveStreamLimits, StreamSlots, type StreamLimits } from './stream-limits.ts';

/**
 * The stream's own logic without a database or sockets: a fake feed delivers batches to streams
 * whose outputs record what they were given.
 */

function setup(limits: Partial<StreamLimits> = {}) {
  const listeners = new Map<string, Set<ChangeListener>>();
  const feed: ChangeFeed = {
    async subscribe(collection, partition, listener) {
      const key = `${collection}:${partition ?? ''}`;
      const set = listeners.get(key) ?? new Set();
      listeners.set(key, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    async close() {},
  };
  const resolved = resolveStreamLimits(limits);
  const lifecycle = new Lifecycle();
  const metrics = createMetrics();
  const hub = new StreamHub({
    sql: undefined as unknown as Sql, // guests only: no session to check
    logger: createLogger('silent'),
    feed: () => feed,
    watch: () => undefined as unknown as AccessWatch,
    lifecycle,
    metrics,
    limits: resolved,
    slots: new StreamSlots(resolved),
    clientAddress: () => '127.0.0.1',
  });
  /** Delivers a batch to every listener of a partition, as the change feed's loop does. */
  const deliver = (collection: string, batch: ChangeBatch) => {
    for (const listener of listeners.get(`${collection}:`) ?? []) listener(batch);
  };
  const open = async (wanted: Wanted, named = false) => {
    const out = new RecordingOutput();
    const stream = new SyncStream(hub, {
      wanted,
      named,
      session: null,
      address: '127.0.0.1',
      requestId: undefined,
      release: () => {},
    });
    await stream.start(out);
    out.stream = stream;
    return out;
  };
  return { hub, lifecycle, metrics, deliver, open };
}

class RecordingOutput implements StreamOutput {
  writes: Uint8Array[] = [];
  /** What write() answers: false = the client is behind. */
  keepsUp = true;
  ended = false;
  destroyed = false;
  stream!: SyncStream;
  write(bytes: Uint8Array) {
    this.writes.push(bytes);
    return this.keepsUp;
  }
  end() {
    this.ended = true;
    this.stream.closed();
  }
  destroy() {
    this.destroyed = true;
    this.stream.closed();
  }
  get text() {
    return this.writes.map((bytes) => Buffer.from(bytes).toString()).join('');
  }
}

const batch = (id: string): ChangeBatch =>
  ({
    documents: [{ id, priceCents: 100 }],
    checkpoint: { revision: 1, id },
  }) as unknown as ChangeBatch;

const FLIGHTS: Wanted = [{ collection: 'flights', partition: null }];

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

test('a change is serialised once per form and every stream gets the same bytes', async () => {
  const { deliver, open } = setup();
  const plain = await Promise.all([open(FLIGHTS), open(FLIGHTS), open(FLIGHTS)]);
  const named = await Promise.all([open(FLIGHTS, true), open(FLIGHTS, true)]);
  const change = batch('f1');
  const stringify = vi.spyOn(JSON, 'stringify');
  deliver('flights', change);
  const encodings = stringify.mock.calls.filter(
    ([value]) => (value as ChangeBatch | undefined)?.documents === change.documents,
  );
  expect(encodings).toHaveLength(2); // one without the collection's name, one with it
  for (const out of [...plain, ...named]) expect(out.writes).toHaveLength(2); // resync, change
  for (const out of plain) expect(out.writes[1]).toBe(plain[0]!.writes[1]);
  for (const out of named) expect(out.writes[1]).toBe(named[0]!.writes[1]);
  expect(plain[0]!.text).toBe(
    `${RESYNC_FRAME.toString()}event: changes\ndata: ${JSON.stringify(change)}\n\n`,
  );
  expect(named[0]!.text).toContain('"collection":"flights"');
});

describe('a client that is behind', () => {
  test('gets what waited, in order, once it catches up', async () => {
    const { deliver, open } = setup();
    const out = await open(FLIGHTS);
    out.keepsUp = false;
    deliver('flights', batch('a'));
    deliver('flights', batch('b'));
    deliver('flights', batch('c'));
    expect(out.writes).toHaveLength(2); // resync, a; b and c wait
    out.keepsUp = true;
    out.stream.drained();
    const sent = [...out.text.matchAll(/"documents":\[\{"id":"(\w)"/g)].map((match) => match[1]);
    expect(sent).toEqual(['a', 'b', 'c']);
  });

  test('is ended with a reconnect hint past the queue bound, its queue dropped', async () => {
    const { deliver, open, metrics } = setup({ queueMaxEvents: 3 });
    const out = await open(FLIGHTS);
    out.keepsUp = false;
    for (const id of ['a', 'b', 'c', 'd', 'e']) deliver('flights', batch(id));
    expect(out.ended).toBe(true);
    expect(out.text).toMatch(/retry: \d+\n\n$/);
    expect(out.text).not.toContain('"id":"b"');
    expect(await metrics.registry.metrics()).toContain(
      'skyport_sync_streams_ended_total{reason="overflow"} 1',
    );
    expect(await metrics.registry.metrics()).toContain('skyport_sync_streams_open 0');
  });

  test('has its connection cut when it takes nothing within the write timeout', async () => {
    vi.useFakeTimers();
    const { deliver, open, metrics } = setup({ writeTimeoutMs: 1000 });
    const out = await open(FLIGHTS);
    out.keepsUp = false;
    deliver('flights', batch('a'));
    vi.advanceTimersByTime(999);
    expect(out.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(out.destroyed).toBe(true);
    expect(await metrics.registry.metrics()).toContain(
      'skyport_sync_streams_ended_total{reason="write-timeout"} 1',
    );
  });
});

test('a drain sends what waited, then the reconnect hint', async () => {
  const { deliver, open, lifecycle } = setup();
  const out = await open(FLIGHTS);
  out.keepsUp = false;
  deliver('flights', batch('a'));
  deliver('flights', batch('b'));
  lifecycle.beginDrain();
  expect(out.ended).toBe(false); // b still waits for the client
  out.keepsUp = true;
  out.stream.drained();
  expect(out.ended).toBe(true);
  expect(out.text).toMatch(/"id":"b".*\n\nretry: \d+\n\n$/s);
});

test('a drain waits for nothing once the stream is cut', async () => {
  vi.useFakeTimers();
  const { deliver, open, lifecycle } = setup({ writeTimeoutMs: 1000 });
  const out = await open(FLIGHTS);
  out.keepsUp = false;
  deliver('flights', batch('a'));
  deliver('flights', batch('b'));
  lifecycle.beginDrain();
  vi.advanceTimersByTime(1000);
  expect(out.destroyed).toBe(true);
  expect(out.ended).toBe(false);
});

test('one heartbeat tick serves every stream: an idle stream hears something every 10 to 20 s', async () => {
  vi.useFakeTimers();
  const { deliver, open } = setup();
  const idle = await open(FLIGHTS);
  const busy = await open(FLIGHTS);
  const heartbeats = (out: RecordingOutput) =>
    out.writes.filter((bytes) => bytes === HEARTBEAT_FRAME).length;
  vi.advanceTimersByTime(10_000);
  expect(heartbeats(idle)).toBe(0); // it wrote its resync during that tick
  vi.advanceTimersByTime(10_000);
  expect(heartbeats(idle)).toBe(1);
  // A stream that carried a change during a tick gets no heartbeat at its end.
  for (let tick = 0; tick < 3; tick++) {
    deliver('flights', batch(`c${tick}`));
    vi.advanceTimersByTime(10_000);
  }
  expect(heartbeats(busy)).toBe(1); // the one before the changes
  expect(heartbeats(idle)).toBe(1);
});
