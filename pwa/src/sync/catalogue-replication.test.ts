import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import type { ReplicationCheckpoint } from '@skyport/shared';
import {
  openCatalogueReplica,
  type CatalogueReplica,
  type PulledFlight,
} from '../db/catalogue-replica.ts';
import { flightDoc } from '../db/test-docs.ts';
import {
  databaseLeadership,
  isAfter,
  startCatalogueReplication,
  type CatalogueReplication,
  type CatalogueReplicationContext,
} from './catalogue-replication.ts';
import { SyncHttpError, type SyncTransport } from './http.ts';
import { serverSentEvents } from './sse.ts';
import { createSyncStatusStore } from './status.ts';
import { startTestServer, type TestServer } from './test-server.ts';

/**
 * The catalogue's replication into its own replica (catalogue-replication.ts) against a real
 * server with 30 flights: the pulls, the live stream, a restart from the checkpoint, failures,
 * and one tab pulling for all.
 */

let server: TestServer;
const requested: string[] = [];
/** When set, the next pull waits for it before it is sent. */
let holdNextPull: Promise<void> | undefined;
/** How many of the next requests fail as offline. */
let failNext = 0;
/** What is waited for comes in milliseconds, or never: a bound that holds on a busy machine. */
const WAIT = { timeout: 10_000 };

const transport: () => SyncTransport = () => ({
  baseUrl: `${server.url}/api`,
  async fetch(input, init) {
    const url = new URL(String(input));
    if (url.pathname.endsWith('/pull')) {
      requested.push(url.search);
      const hold = holdNextPull;
      holdNextPull = undefined;
      if (hold) await hold;
    }
    if (failNext > 0) {
      failNext -= 1;
      throw new TypeError('fetch failed');
    }
    return fetch(input, init);
  },
});

const running: { replica: CatalogueReplica; replication: CatalogueReplication }[] = [];

beforeAll(async () => {
  server = await startTestServer({ flights: 30 });
});

afterEach(async () => {
  for (const { replica, replication } of running.splice(0)) {
    await replication.state.cancel();
    replica.close();
  }
  requested.length = 0;
  failNext = 0;
});

afterAll(async () => {
  await server?.stop();
});

async function openReplica(name = `catalogue-replication-${randomUUID()}`) {
  return openCatalogueReplica(name, { indexedDB, IDBKeyRange });
}

function replicate(
  replica: CatalogueReplica,
  context: Partial<CatalogueReplicationContext> = {},
): CatalogueReplication {
  const replication = startCatalogueReplication(replica, {
    transport: transport(),
    status: createSyncStatusStore(true),
    retry: { baseMs: 20, maxMs: 100 },
    ...context,
  });
  running.push({ replica, replication });
  return replication;
}

/** Feeds the server's live stream of the catalogue to a replication, as the sync engine does. */
function connectStream(replication: CatalogueReplication) {
  const subscription = serverSentEvents(transport(), '/sync/stream?collections=flights').subscribe(
    (event) => {
      if (event.event === 'resync') replication.stream.next('RESYNC');
      if (event.event === 'changes') replication.stream.next(JSON.parse(event.data) as never);
    },
  );
  return () => subscription.unsubscribe();
}

const priceOf = async (replica: CatalogueReplica, id: string) =>
  (await replica.get([id])).get(id)?.priceCents;

test('a new replica pulls every flight in batches, then follows the live stream', async () => {
  const replica = await openReplica();
  const replication = replicate(replica, { batchSize: 7 });
  await replication.state.awaitInitialReplication();
  expect(await replica.count()).toBe(30);
  // 30 flights, 7 a batch: five pulls, the last one short.
  expect(requested).toHaveLength(5);
  expect(await replica.checkpoint()).not.toBeNull();

  const disconnect = connectStream(replication);
  try {
    const [changed, deleted] = [server.flightIds[3]!, server.flightIds[4]!];
    await server.control('POST', `/__test/flights/${changed}`, { priceCents: 77_700 });
    await server.control('POST', `/__test/flights/${deleted}`, { deleted: true });
    await vi.waitFor(async () => expect(await priceOf(replica, changed)).toBe(77_700), WAIT);
    await vi.waitFor(async () => expect(await replica.count()).toBe(29), WAIT);
  } finally {
    disconnect();
    await server.control('POST', `/__test/flights/${server.flightIds[4]!}`, { deleted: false });
  }
});

test('a restart pulls on from the checkpoint; a replica without one is emptied first', async () => {
  const name = `catalogue-replication-${randomUUID()}`;
  const first = await openReplica(name);
  const replication = replicate(first);
  await replication.state.awaitInitialReplication();
  const reached = await first.checkpoint();

  const changed = server.flightIds[5]!;
  await server.control('POST', `/__test/flights/${changed}`, { priceCents: 12_345 });
  requested.length = 0;
  const again = await openReplica(name);
  const snapshot = vi.fn(async () => false);
  const skipSnapshot = vi.fn();
  await replicate(again, { loadSnapshot: snapshot, skipSnapshot }).state.awaitInitialReplication();
  expect(snapshot).not.toHaveBeenCalled();
  // A snapshot asked for in advance is dropped at once: the pulls go on from the checkpoint.
  expect(skipSnapshot).toHaveBeenCalledTimes(1);
  expect(new URLSearchParams(requested[0]).get('revision')).toBe(String(reached!.revision));
  expect(await priceOf(again, changed)).toBe(12_345);

  // A snapshot broken off: flights, no checkpoint. One the server no longer has must go.
  const broken = await openReplica();
  const invented = { ...flightDoc(), _deleted: false } as PulledFlight;
  await broken.apply([invented], undefined);
  await replicate(broken, { loadSnapshot: snapshot }).state.awaitInitialReplication();
  expect(snapshot).toHaveBeenCalledTimes(1);
  expect((await broken.get([invented.id])).size).toBe(0);
});

test('the snapshot, when there is one, comes first and the pulls go on from its checkpoint', async () => {
  const replica = await openReplica();
  const snapshotAt: ReplicationCheckpoint = { tx: 0, revision: 0, id: '' };
  const loadSnapshot = async () => {
    // A stand-in for the snapshot worker: one flight, and a checkpoint before every flight.
    await replica.apply([{ ...flightDoc({ id: 'from-snapshot' }), _deleted: false }], snapshotAt);
    return true;
  };
  await replicate(replica, { loadSnapshot }).state.awaitInitialReplication();
  expect(new URLSearchParams(requested[0]).get('revision')).toBe('0');
  expect(await replica.count()).toBe(31);
});

test('an event while caught up is written only if it is further than the checkpoint', async () => {
  const replica = await openReplica();
  const replication = replicate(replica);
  await replication.state.awaitInSync();
  const reached = (await replica.checkpoint())!;
  const id = server.flightIds[6]!;
  const stored = (await replica.get([id])).get(id)!;

  // An older state (as a late event would bring it): not written.
  replication.stream.next({
    documents: [{ ...stored, priceCents: 1, _deleted: false }] as never,
    checkpoint: { ...reached, revision: reached.revision - 1 },
  });
  await replication.state.awaitInSync();
  expect(await priceOf(replica, id)).toBe(stored.priceCents);

  const further = { ...reached, revision: reached.revision + 1 };
  replication.stream.next({
    documents: [{ ...stored, priceCents: 2, _deleted: false }] as never,
    checkpoint: further,
  });
  await replication.state.awaitInSync();
  expect(await priceOf(replica, id)).toBe(2);
  expect(await replica.checkpoint()).toEqual(further);
});

test('an event during pulls is not written: the pulls go on once more instead', async () => {
  const replica = await openReplica();
  const id = server.flightIds[7]!;
  let release!: () => void;
  holdNextPull = new Promise((resolve) => (release = resolve));
  const replication = replicate(replica);
  await vi.waitFor(() => expect(requested).toHaveLength(1), WAIT);
  // A state that the pull under way has not seen, with a checkpoint far ahead.
  replication.stream.next({
    documents: [{ ...flightDoc({ id }), priceCents: 3, _deleted: false }] as never,
    checkpoint: { tx: Number.MAX_SAFE_INTEGER, revision: 1, id },
  });
  release();
  await replication.state.awaitInSync();
  expect(requested).toHaveLength(2);
  expect(await priceOf(replica, id)).not.toBe(3);
  expect((await replica.checkpoint())!.tx).not.toBe(Number.MAX_SAFE_INTEGER);
});

test('a failed pull is reported and retried; RESYNC pulls what changed meanwhile', async () => {
  const replica = await openReplica();
  const status = createSyncStatusStore(true);
  failNext = 2;
  const replication = replicate(replica, { status });
  const errors: unknown[] = [];
  replication.state.error$.subscribe((error) => errors.push(error));
  await replication.state.awaitInitialReplication();
  expect(errors).toHaveLength(2);
  expect(errors[0]).toBeInstanceOf(SyncHttpError);
  expect(await replica.count()).toBe(30);
  expect(status.getSnapshot().phase).not.toBe('error');

  const id = server.flightIds[8]!;
  await server.control('POST', `/__test/flights/${id}`, { priceCents: 54_321 });
  replication.stream.next('RESYNC');
  await vi.waitFor(async () => expect(await priceOf(replica, id)).toBe(54_321), WAIT);
});

/**
 * Two tabs' databases on one lock, as RxDB's electors on the browser's Web Lock: the first to ask
 * leads until its database closes, then the next one waiting.
 */
function tabsOnOneLock() {
  let holder: object | null = null;
  const waiting: (() => void)[] = [];
  return () => {
    let elected: Promise<void> | undefined;
    const elector = {
      isLeader: false,
      awaitLeadership: () =>
        (elected ??= new Promise<void>((resolve) => {
          const grant = () => {
            holder = elector;
            elector.isLeader = true;
            resolve();
          };
          if (holder === null) grant();
          else waiting.push(grant);
        })),
      hasLeader: () => Promise.resolve(holder !== null),
    };
    const close = () => {
      if (holder !== elector) return;
      holder = null;
      waiting.shift()?.();
    };
    return { db: { multiInstance: true, leaderElector: () => elector }, close };
  };
}

test('the tab that leads the database pulls; another reads the replica and is caught up when the first is', async () => {
  const name = `catalogue-replication-${randomUUID()}`;
  const openTab = tabsOnOneLock();
  const [first, second] = [openTab(), openTab()];
  const leaderSkips = vi.fn();
  const leader = replicate(await openReplica(name), {
    leadership: databaseLeadership(first.db),
    skipSnapshot: leaderSkips,
  });
  const skipSnapshot = vi.fn();
  // The leader's own election is not another tab's: it keeps the snapshot it asked for.
  await vi.waitFor(() => expect(first.db.leaderElector().isLeader).toBe(true), WAIT);
  const follower = replicate(await openReplica(name), {
    leadership: databaseLeadership(second.db),
    skipSnapshot,
  });
  await follower.state.awaitInitialReplication();
  // It needs no snapshot of its own.
  expect(skipSnapshot).toHaveBeenCalled();
  expect(leaderSkips).not.toHaveBeenCalled();
  await leader.state.awaitInSync();
  expect(requested).toHaveLength(1);

  // The leader goes (its tab closes): the other takes over, from the checkpoint.
  const [gone] = running.splice(0, 1);
  await gone!.replication.state.cancel();
  gone!.replica.close();
  first.close();
  follower.stream.next('RESYNC');
  await vi.waitFor(() => expect(requested).toHaveLength(2), WAIT);
  expect(new URLSearchParams(requested[1]).get('revision')).not.toBeNull();
});

test('a tab elected at once follows no one; one whose replication stops before its turn never pulls', async () => {
  const openTab = tabsOnOneLock();
  const [first, second] = [openTab(), openTab()];
  const [follow, lead] = [vi.fn(), vi.fn(() => Promise.resolve())];
  await databaseLeadership(first.db)(new AbortController().signal, lead, follow);
  expect(follow).not.toHaveBeenCalled();
  expect(lead).toHaveBeenCalledTimes(1);

  const stop = new AbortController();
  const [followSecond, leadSecond] = [vi.fn(), vi.fn(() => Promise.resolve())];
  const running = databaseLeadership(second.db)(stop.signal, leadSecond, followSecond);
  await vi.waitFor(() => expect(followSecond).toHaveBeenCalledTimes(1), WAIT);
  stop.abort();
  await running;
  first.close();
  await Promise.resolve();
  expect(leadSecond).not.toHaveBeenCalled();
});

test('positions compare by transaction, then revision', () => {
  expect(isAfter({ tx: 2, revision: 1, id: 'a' }, { tx: 1, revision: 9, id: 'b' })).toBe(true);
  expect(isAfter({ tx: 1, revision: 9, id: 'a' }, { tx: 2, revision: 1, id: 'b' })).toBe(false);
  expect(isAfter({ revision: 5, id: 'a' }, { tx: 0, revision: 4, id: 'b' })).toBe(true);
  expect(isAfter({ tx: 1, revision: 4, id: 'a' }, { tx: 1, revision: 4, id: 'b' })).toBe(false);
  expect(isAfter({ tx: 1, revision: 4, id: 'a' }, null)).toBe(true);
});
