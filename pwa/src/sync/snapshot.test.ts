import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';
import { openCatalogueReplica, type CatalogueReplica } from '../db/catalogue-replica.ts';
import type { SkyportDatabase } from '../db/database.ts';
import { createSyncEngine, type SyncEngine } from './engine.ts';
import type { SyncTransport } from './http.ts';
import type { SnapshotFromWorker, SnapshotToWorker } from './snapshot-protocol.ts';
import { SnapshotLoad } from './snapshot.ts';
import { writeSnapshot } from './snapshot-writer.ts';
import { startTestServer, type TestServer } from './test-server.ts';
import { openTestCatalogue, openTestDatabase } from '../test/test-device.ts';

/**
 * The catalogue's snapshot against a real server: written into the catalogue's replica by the
 * snapshot writer (here in this thread, with fake-indexeddb, instead of in a worker), then the
 * replication pulls on from the snapshot's checkpoint.
 */

let server: TestServer;
const requested: string[] = [];
const transport = (): SyncTransport => ({
  baseUrl: `${server.url}/api`,
  fetch: (input, init) => {
    const url = new URL(String(input));
    requested.push(url.pathname + url.search);
    return fetch(input, init);
  },
});
const opened: { db?: SkyportDatabase; replica?: CatalogueReplica; engine?: SyncEngine }[] = [];

beforeAll(async () => {
  server = await startTestServer({ flights: 30 });
});

afterEach(async () => {
  for (const { db, replica, engine } of opened.splice(0)) {
    await engine?.stop();
    replica?.close();
    await db?.close();
  }
  requested.length = 0;
});

afterAll(async () => {
  await server?.stop();
});

async function openReplica(): Promise<CatalogueReplica> {
  const replica = await openCatalogueReplica(`snapshot-${randomUUID()}`, {
    indexedDB,
    IDBKeyRange,
  });
  opened.push({ replica });
  return replica;
}

async function snapshotBody(): Promise<ReadableStream<Uint8Array>> {
  const response = await fetch(`${server.url}/api/sync/flights/snapshot`, {
    headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
  });
  expect(response.status).toBe(200);
  return response.body!;
}

function bodyOf(text: string): ReadableStream<Uint8Array> {
  return new Response(text).body!;
}

/** The server's flights as the pulls send them, and the checkpoint they reach. */
async function pulled() {
  const response = await fetch(`${server.url}/api/sync/flights/pull?limit=2000`, {
    headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
  });
  return (await response.json()) as {
    documents: (Record<string, unknown> & { id: string })[];
    checkpoint: unknown;
  };
}

/** The worker's side of the protocol, in this thread (sync/snapshot.worker.ts does the same). */
function inThreadWorker(): Worker {
  let resolveBody!: (body: ReadableStream<Uint8Array>) => void;
  let resolveTarget!: (replica: CatalogueReplica) => void;
  const body = new Promise<ReadableStream<Uint8Array>>((resolve) => (resolveBody = resolve));
  const target = new Promise<CatalogueReplica>((resolve) => (resolveTarget = resolve));
  const worker = {
    onmessage: null as ((event: MessageEvent<SnapshotFromWorker>) => void) | null,
    onerror: null,
    postMessage(message: SnapshotToWorker) {
      const answer = (data: SnapshotFromWorker) => worker.onmessage?.({ data } as MessageEvent);
      if (message.type === 'start') {
        void writeSnapshot({ bulkSize: message.bulkSize, body, target }).then(answer);
      } else if (message.type === 'fetch')
        void fetch(message.url, { headers: message.headers }).then((r) => resolveBody(r.body!));
      else if (message.type === 'write')
        void openCatalogueReplica(message.replica, { indexedDB, IDBKeyRange }).then(resolveTarget);
    },
    terminate() {},
  };
  return worker as unknown as Worker;
}

test('a replica takes the snapshot: exactly the flights of the pulls, and their checkpoint last', async () => {
  const replica = await openReplica();
  const answer = await writeSnapshot({
    bulkSize: 7,
    body: snapshotBody(),
    target: Promise.resolve(replica),
  });
  const { documents, checkpoint } = await pulled();
  expect(answer).toEqual({ type: 'done', count: documents.length, checkpoint });
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  expect(await replica.page(undefined, 1000)).toEqual(
    [...documents].sort(byId).map(({ _deleted, ...flight }) => flight),
  );
  expect(await replica.checkpoint()).toEqual(checkpoint);
});

test("the snapshot is the catalogue's first load; the pulls go on from its checkpoint", async () => {
  const db = await openTestDatabase({ prefix: 'snapshot' });
  const catalogue = await openTestCatalogue(db);
  const load = new SnapshotLoad(inThreadWorker(), 'flights', {
    url: `${server.url}/api/sync/flights/snapshot`,
    headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
  });
  const start = (firstPulls = {}) => {
    const engine = createSyncEngine({
      db,
      catalogue,
      transport: transport(),
      retry: { baseMs: 50, maxMs: 200 },
      initiallyOnline: true,
      firstPulls,
    });
    opened.push({ engine });
    engine.start();
    return engine;
  };
  opened.push({ db, replica: catalogue });
  const engine = start({ flights: Promise.resolve(load) });
  const replication = engine.replication('flights')!;
  await replication.state.awaitInitialReplication();
  expect(await catalogue.count()).toBe(30);
  const flightPulls = () => requested.filter((path) => path.startsWith('/api/sync/flights/pull'));
  // No pull from nothing: pulls after the snapshot's checkpoint (the stream's `resync` may ask
  // for one more), which found nothing new.
  expect(flightPulls().length).toBeGreaterThan(0);
  expect(flightPulls().every((path) => path.includes('revision='))).toBe(true);

  // A change on the server comes with the next pull, after the kept checkpoint.
  const [changed] = server.flightIds as [string];
  await server.control('POST', `/__test/flights/${changed}`, { priceCents: 424_242 });
  replication.state.reSync();
  await replication.state.awaitInSync();
  await expect
    .poll(async () => (await catalogue.get([changed])).get(changed)?.priceCents, {
      timeout: 10_000,
    })
    .toBe(424_242);
  expect(flightPulls().every((path) => path.includes('revision='))).toBe(true);

  // The checkpoint stays: a new replication of this replica goes on from it, no snapshot.
  await engine.stop();
  requested.length = 0;
  const again = start();
  await again.awaitInSync();
  expect(flightPulls().length).toBeGreaterThan(0);
  expect(flightPulls().every((path) => path.includes('revision='))).toBe(true);
  expect(requested.some((path) => path.includes('/snapshot'))).toBe(false);
  expect(await catalogue.count()).toBe(30);
});

test('a snapshot is refused when cut short, or when it is of another collection; then the replica has no checkpoint', async () => {
  const text = await new Response(await snapshotBody()).text();
  const lines = text.trimEnd().split('\n');
  const write = async (body: string) => {
    const replica = await openReplica();
    const answer = await writeSnapshot({
      bulkSize: 7,
      body: Promise.resolve(bodyOf(body)),
      target: Promise.resolve(replica),
    });
    return { answer, checkpoint: await replica.checkpoint(), count: await replica.count() };
  };
  // Without its trailer, the last document line is taken for it: the count does not match.
  const cut = await write(`${lines.slice(0, -1).join('\n')}\n`);
  expect(cut.answer).toMatchObject({ type: 'failed' });
  // Bulks were written, but without the checkpoint: the replication empties such a replica.
  expect(cut.count).toBeGreaterThan(0);
  expect(cut.checkpoint).toBeNull();
  expect((await write(`${lines.slice(0, 5).join('\n')}\n`)).answer).toMatchObject({
    type: 'failed',
  });
  expect((await write('')).answer).toMatchObject({ type: 'failed' });
  const [, ...rest] = lines;
  const otherHeader = `${JSON.stringify({ collection: 'reviews', protocol: 1 })}\n${rest.join('\n')}\n`;
  expect((await write(otherHeader)).answer).toMatchObject({ type: 'failed' });
  const whole = await write(text);
  expect(whole.answer).toMatchObject({ type: 'done', count: 30 });
  expect(whole.checkpoint).not.toBeNull();
});
