import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';
import type { SkyportDatabase } from '../db/database.ts';
import { flightDoc } from '../db/test-docs.ts';
import { createSyncEngine, type SyncEngine } from './engine.ts';
import type { SyncTransport } from './http.ts';
import { getLastCheckpointDoc, type RxStorageInstanceReplicationState } from 'rxdb';
import { rxSchemaOf } from '../db/schemas.ts';
import type {
  LocalCheckpoint,
  SnapshotFromWorker,
  SnapshotTarget,
  SnapshotToWorker,
} from './snapshot-protocol.ts';
import { SnapshotLoad } from './snapshot.ts';
import { asOpened, writeSnapshot } from './snapshot-writer.ts';
import { startTestServer, type TestServer } from './test-server.ts';
import { openTestDatabase } from '../test/test-device.ts';

/**
 * The catalogue's snapshot against a real server: written into the local database by the
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
const opened: { db: SkyportDatabase; engine?: SyncEngine }[] = [];
const dexie = { indexedDB, IDBKeyRange };

beforeAll(async () => {
  server = await startTestServer({ flights: 30 });
});

afterEach(async () => {
  for (const { db, engine } of opened.splice(0)) {
    await engine?.stop();
    await db.close();
  }
  requested.length = 0;
});

afterAll(async () => {
  await server?.stop();
});

async function openDatabase(name: string, multiInstance = false) {
  const db = await openTestDatabase({ name, multiInstance });
  opened.push({ db });
  return db;
}

/** The replica as the page knows it before RxDB has loaded (sync/snapshot.ts). */
function earlyTargetOf(db: SkyportDatabase): SnapshotTarget {
  return { databaseName: db.name, collectionName: 'flights', schema: rxSchemaOf('flights') };
}

function targetOf(db: SkyportDatabase): SnapshotTarget & { context: string } {
  return {
    databaseName: db.name,
    collectionName: 'flights',
    schema: db.collections.flights.schema.jsonSchema,
    context: 'snapshot-test',
  };
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

/** The server's flights as the pulls send them. */
async function pulledFlights() {
  const response = await fetch(`${server.url}/api/sync/flights/pull?limit=2000`, {
    headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
  });
  return ((await response.json()) as { documents: Record<string, unknown>[] }).documents;
}

async function storedFlights(db: SkyportDatabase) {
  const docs = await db.collections.flights.find({ sort: [{ id: 'asc' }] }).exec();
  return docs.map((doc) => doc.toJSON());
}

/** The sync engine of a new device whose catalogue's first pull is `load`. */
function engineWithSnapshot(db: SkyportDatabase, load: SnapshotLoad): SyncEngine {
  return createSyncEngine({
    db,
    transport: transport(),
    retry: { baseMs: 50, maxMs: 200 },
    initiallyOnline: true,
    firstPulls: { flights: Promise.resolve(load) },
  });
}

/** The worker's side of the protocol, in this thread (sync/snapshot.worker.ts does the same). */
function inThreadWorker(): Worker {
  let resolveBody!: (body: ReadableStream<Uint8Array>) => void;
  let confirm!: (target: SnapshotTarget & { context: string }) => void;
  const body = new Promise<ReadableStream<Uint8Array>>((resolve) => (resolveBody = resolve));
  const confirmed = new Promise<SnapshotTarget & { context: string }>(
    (resolve) => (confirm = resolve),
  );
  const worker = {
    onmessage: null as ((event: MessageEvent<SnapshotFromWorker>) => void) | null,
    onerror: null,
    postMessage(message: SnapshotToWorker) {
      const answer = (data: SnapshotFromWorker) => worker.onmessage?.({ data } as MessageEvent);
      if (message.type === 'start') {
        void writeSnapshot({
          bulkSize: message.bulkSize,
          body,
          confirmed,
          dexie,
          multiInstance: false,
          early: message.early && asOpened(message.early),
          onWaiting: () => answer({ type: 'waiting' }),
        }).then(answer);
      } else if (message.type === 'fetch')
        void fetch(message.url, { headers: message.headers }).then((r) => resolveBody(r.body!));
      else if (message.type === 'write') confirm({ ...message.target, context: message.context });
    },
    terminate() {},
  };
  return worker as unknown as Worker;
}

test('a new replica takes the snapshot, exactly the documents of the pulls', async () => {
  const db = await openDatabase(`snapshot-${randomUUID()}`);
  const answer = await writeSnapshot({
    bulkSize: 7,
    body: snapshotBody(),
    confirmed: Promise.resolve(targetOf(db)),
    dexie,
    multiInstance: false,
  });
  const pulled = await pulledFlights();
  expect(answer).toMatchObject({ type: 'done', count: pulled.length, last: pulled.at(-1) });
  const stored = await storedFlights(db);
  const byId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    String(a.id).localeCompare(String(b.id));
  // RxDB's documents leave their `_deleted` (false for every flight here) out of toJSON().
  expect(stored).toEqual([...pulled].sort(byId).map(({ _deleted, ...doc }) => doc));
});

test("the snapshot is the replication's first pull; the pulls go on from its checkpoint", async () => {
  const db = await openDatabase(`snapshot-${randomUUID()}`, true);
  const load = new SnapshotLoad(inThreadWorker(), 'flights', {
    url: `${server.url}/api/sync/flights/snapshot`,
    headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
  });
  const engine = engineWithSnapshot(db, load);
  opened[opened.length - 1]!.engine = engine;
  engine.start();
  const replication = engine.replication('flights')!;
  await replication.state.awaitInitialReplication();
  expect(await db.collections.flights.count().exec()).toBe(30);
  const flightPulls = () => requested.filter((path) => path.startsWith('/api/sync/flights/pull'));
  // No pull from nothing: one pull after the snapshot's checkpoint, which found nothing new.
  expect(flightPulls()).toHaveLength(1);
  expect(flightPulls()[0]).toMatch(/revision=/);

  // A change on the server comes with the next pull, after the kept checkpoint.
  const [changed] = server.flightIds;
  await server.control('POST', `/__test/flights/${changed}`, { priceCents: 424_242 });
  replication.state.reSync();
  await replication.state.awaitInSync();
  await expect
    .poll(async () => (await db.collections.flights.findOne(changed).exec())?.priceCents)
    .toBe(424_242);
  expect(
    flightPulls()
      .slice(1)
      .every((path) => path.includes('revision=')),
  ).toBe(true);

  // RxDB kept the checkpoint: a new replication of this database goes on from it.
  await engine.stop();
  requested.length = 0;
  const again = createSyncEngine({
    db,
    transport: transport(),
    retry: { baseMs: 50, maxMs: 200 },
    initiallyOnline: true,
  });
  opened[opened.length - 1]!.engine = again;
  again.start();
  await again.replication('flights')!.state.awaitInitialReplication();
  expect(flightPulls().length).toBeGreaterThan(0);
  expect(flightPulls().every((path) => path.includes('revision='))).toBe(true);
  expect(await db.collections.flights.count().exec()).toBe(30);
});

test('a replica that holds documents waits for the go-ahead; stored documents are replaced', async () => {
  const db = await openDatabase(`snapshot-${randomUUID()}`);
  const [first] = await pulledFlights();
  const stale = { ...flightDoc(), ...first, priceCents: 1 } as never;
  await db.collections.flights.insert(stale);
  let goAhead!: (target: SnapshotTarget & { context: string }) => void;
  const writing = writeSnapshot({
    bulkSize: 7,
    body: snapshotBody(),
    confirmed: new Promise((resolve) => (goAhead = resolve)),
    dexie,
    multiInstance: false,
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await db.collections.flights.count().exec()).toBe(1);
  goAhead(targetOf(db));
  expect(await writing).toMatchObject({ type: 'done', count: 30 });
  // The page's RxDB did not hear of the writes (one instance here): read the storage itself.
  const stored = await db.collections.flights.storageInstance.findDocumentsById(
    [String(first!.id)],
    false,
  );
  expect(stored[0]?.priceCents).toBe(first!.priceCents);
});

/** The server's flights as stored locally, read from the storage (the page's RxDB may not have heard). */
async function storedDocs(db: SkyportDatabase) {
  const ids = (await pulledFlights()).map((doc) => String(doc.id));
  return db.collections.flights.storageInstance.findDocumentsById(ids, true);
}

/** The newest document of the local table: the one RxDB's upstream would read last. */
async function newestStored(db: SkyportDatabase): Promise<LocalCheckpoint> {
  const newest = (await storedDocs(db)).reduce((a, b) => (b._meta.lwt > a._meta.lwt ? b : a));
  return { id: newest.id, lwt: newest._meta.lwt };
}

test('an empty replica takes the snapshot at once, without the go-ahead', async () => {
  const db = await openDatabase(`snapshot-${randomUUID()}`);
  const waiting: string[] = [];
  const answer = await writeSnapshot({
    bulkSize: 7,
    body: snapshotBody(),
    confirmed: new Promise(() => undefined),
    early: asOpened(earlyTargetOf(db)),
    onWaiting: () => waiting.push('waiting'),
    dexie,
    multiInstance: false,
  });
  expect(waiting).toEqual([]);
  expect(answer).toMatchObject({ type: 'done', count: 30, early: true });
  expect(await db.collections.flights.count().exec()).toBe(30);
  // Where the replication's upstream is told to start (replication.ts `skipUpstreamOf`).
  expect(answer.type === 'done' && answer.written).toEqual(await newestStored(db));
});

test('the worker opens the replica with the schema the page opens it with', async () => {
  const db = await openDatabase(`snapshot-${randomUUID()}`);
  expect(asOpened(earlyTargetOf(db)).schema).toEqual(db.collections.flights.schema.jsonSchema);
});

test('a replica that holds documents, or another writer, is not written at once', async () => {
  const db = await openDatabase(`snapshot-${randomUUID()}`);
  const [first] = await pulledFlights();
  await db.collections.flights.insert({ ...flightDoc(), ...first, priceCents: 1 } as never);
  for (const claim of [undefined, () => Promise.resolve(null)]) {
    const waiting: string[] = [];
    let goAhead!: (target: SnapshotTarget & { context: string }) => void;
    const writing = writeSnapshot({
      bulkSize: 7,
      body: snapshotBody(),
      confirmed: new Promise((resolve) => (goAhead = resolve)),
      early: asOpened(earlyTargetOf(db)),
      claim,
      onWaiting: () => waiting.push('waiting'),
      dexie,
      multiInstance: false,
    });
    await expect.poll(() => waiting).toEqual(['waiting']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The first time the replica held one flight; the second, the go-ahead's 30.
    expect(await storedDocs(db)).toHaveLength(claim ? 30 : 1);
    goAhead(targetOf(db));
    expect(await writing).toMatchObject({ type: 'done', count: 30, early: false });
  }
});

test('a go-ahead before the page said its database is open writes where the go-ahead says', async () => {
  const db = await openDatabase(`snapshot-${randomUUID()}`);
  const elsewhere = `snapshot-elsewhere-${randomUUID()}`;
  const answer = await writeSnapshot({
    bulkSize: 7,
    body: snapshotBody(),
    confirmed: Promise.resolve(targetOf(db)),
    early: asOpened({ ...earlyTargetOf(db), databaseName: elsewhere }),
    pageOpen: new Promise(() => undefined),
    dexie,
    multiInstance: false,
  });
  expect(answer).toMatchObject({ type: 'done', count: 30, early: false });
  expect(await storedDocs(db)).toHaveLength(30);
  // The early replica was not even opened.
  const names = (await indexedDB.databases()).map((database) => database.name ?? '');
  expect(names.some((name) => name.includes(elsewhere))).toBe(false);
});

test('a new device: the snapshot is written before the replication starts, which reads none of it back', async () => {
  const db = await openDatabase(`snapshot-${randomUUID()}`, true);
  const load = new SnapshotLoad(
    inThreadWorker(),
    'flights',
    {
      url: `${server.url}/api/sync/flights/snapshot`,
      headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
    },
    earlyTargetOf(db),
  );
  const engine = engineWithSnapshot(db, load);
  // What RxDB's upstream reads back of the local documents: its first pass asks for the changes
  // since its checkpoint, a query in the order of the writes (`_meta.lwt`).
  const storage = db.collections.flights.storageInstance;
  const query = storage.query.bind(storage);
  let readBack = 0;
  storage.query = async (prepared) => {
    const result = await query(prepared);
    if (JSON.stringify(prepared.query.sort).includes('_meta.lwt'))
      readBack += result.documents.length;
    return result;
  };
  opened[opened.length - 1]!.engine = engine;
  engine.start();
  const replication = engine.replication('flights')!;
  await replication.state.awaitInitialReplication();
  expect(await db.collections.flights.count().exec()).toBe(30);
  const flightPulls = requested.filter((path) => path.startsWith('/api/sync/flights/pull'));
  expect(flightPulls).toHaveLength(1);
  expect(flightPulls[0]).toMatch(/revision=/);
  // The upstream started after the snapshot's newest document: it read none back.
  expect(readBack).toBe(0);
  const checkpoints = {
    input: { metaInstance: replication.state.metaInstance },
    lastCheckpointDoc: {},
  } as unknown as RxStorageInstanceReplicationState<never>;
  expect(await getLastCheckpointDoc(checkpoints, 'up')).toEqual(await newestStored(db));
});

test('a snapshot is refused when cut short, or when it is of another collection', async () => {
  const db = await openDatabase(`snapshot-${randomUUID()}`);
  const text = await new Response(await snapshotBody()).text();
  const lines = text.trimEnd().split('\n');
  const write = (body: string) =>
    writeSnapshot({
      bulkSize: 7,
      body: Promise.resolve(bodyOf(body)),
      confirmed: Promise.resolve(targetOf(db)),
      dexie,
      multiInstance: false,
    });
  // Without its trailer, the last document line is taken for it: the count does not match.
  expect(await write(`${lines.slice(0, -1).join('\n')}\n`)).toMatchObject({ type: 'failed' });
  expect(await write(`${lines.slice(0, 5).join('\n')}\n`)).toMatchObject({ type: 'failed' });
  expect(await write('')).toMatchObject({ type: 'failed' });
  const [, ...rest] = lines;
  const otherHeader = `${JSON.stringify({ collection: 'reviews', protocol: 1 })}\n${rest.join('\n')}\n`;
  expect(await write(otherHeader)).toMatchObject({ type: 'failed' });
  expect(await write(text)).toMatchObject({ type: 'done', count: 30 });
});
