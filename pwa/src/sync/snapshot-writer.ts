import type { DBCore, DBCoreGetManyRequest, DBCoreTable, Dexie, Middleware, Table } from 'dexie';
import {
  createRxSchema,
  defaultHashSha256,
  getBroadcastChannelReference,
  removeBroadcastChannelReference,
  type BulkWriteRow,
  type RxDocumentData,
  type RxJsonSchema,
  type RxStorageInstance,
  type RxStorageChangeEvent,
  type RxStorageInstanceCreationParams,
} from 'rxdb';
import { createRevision, now, randomToken } from 'rxdb/plugins/utils';
import { getRxStorageDexie, RX_STORAGE_NAME_DEXIE } from 'rxdb/plugins/storage-dexie';
import type {
  LocalCheckpoint,
  SnapshotFromWorker,
  SnapshotTarget,
  SnapshotTrailer,
} from './snapshot-protocol.ts';

/**
 * Writes a collection's snapshot (`GET /api/sync/{collection}/snapshot`, newline-delimited JSON,
 * see the server's sync/snapshot.ts) into the local database as it downloads, through RxDB's own
 * Dexie storage, in bulks. It runs in the snapshot worker (sync/snapshot.worker.ts), off the
 * page's main thread.
 *
 * It writes as another tab would, and tells RxDB in the page of what it wrote as another tab's
 * storage would (RxDB's BroadcastChannel, its multi-instance message), but not every document:
 * a notice per write with every document cost the page as much reading as the writes cost the
 * worker (over 100 ms per message on a phone four times slower than a laptop). Each write's
 * notice carries its last document only, and the last one (`notify` at the end) the last
 * `noticeEvents` documents: more changes than RxDB's change buffer holds, so that every query of
 * the collection is run again rather than updated change by change (the page has no flight of
 * its own to update: the replica was empty).
 *
 * The snapshot is read (and parsed) as it downloads, while the page opens its database. Into an
 * empty replica (`early`) it is written as it comes once the page's database is open; the page
 * starts the collection's replication afterwards, its upstream after the newest document written
 * (decision 028). Into a replica that holds documents it is written once the page's replication
 * has started and found no checkpoint (`confirmed`, which names the collection, its schema and
 * the context of the replication's own downstream writes): the notices carry that context, so
 * RxDB's upstream, which runs even for a collection that is never pushed, takes their checkpoint
 * and passes over the documents instead of reading each one back.
 */

type Doc = Record<string, unknown> & { id: string; _deleted: boolean };

/** Bulks written at once: IndexedDB commits one while the next one's documents are copied in. */
const WRITES_IN_FLIGHT = 2;
/** Parsed documents waiting to be written, in bulks, before the download waits for the writes. */
const QUEUED_BULKS = 20;
/** Changes in the notice to the page by default (see above): past RxDB's change buffer (100). */
const NOTICE_EVENTS = 200;

export class SnapshotError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface SnapshotWriteOptions {
  /** Documents per write. */
  bulkSize: number;
  /** The answer's body. */
  body: Promise<ReadableStream<Uint8Array>>;
  /**
   * The page's collection (its RxDB schema, `collection.schema.jsonSchema`) and the context of
   * its replication's downstream writes, once that replication has started and found no
   * checkpoint.
   */
  confirmed: Promise<SnapshotTarget & { context: string }>;
  /** Dexie's settings (tests pass fake-indexeddb); the browser's IndexedDB by default. */
  dexie?: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange };
  /** Whether RxDB elsewhere (the page) hears of the writes (default true). */
  multiInstance?: boolean;
  /**
   * The replica, known before the page's replication starts: written as the snapshot downloads
   * when it is empty and `claim` grants it (else the writes wait for `confirmed`).
   */
  early?: SnapshotTarget;
  /**
   * Claims the right to write the replica at once: a release, or null when another writer (the
   * worker of another tab) has it. Without it the claim is granted.
   */
  claim?: () => Promise<(() => void) | null>;
  /** Called when the writes wait for the page's go-ahead after all (see `early`). */
  onWaiting?: () => void;
  /**
   * Early writes wait for this: the page's database is open (they would slow its opening). A
   * go-ahead that comes first (`confirmed`, which names the replica itself) ends the early path.
   */
  pageOpen?: Promise<void>;
}

/** The lines of a byte stream, as they complete. */
async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    rest += decoder.decode(value, { stream: true });
    let start = 0;
    let end: number;
    while ((end = rest.indexOf('\n', start)) >= 0) {
      if (end > start) yield rest.slice(start, end);
      start = end + 1;
    }
    rest = rest.slice(start);
  }
  rest += decoder.decode();
  if (rest.length > 0) yield rest;
}

/**
 * Every key of the table, read once before the first write and kept up to date with what the
 * worker writes: RxDB's storage reads each document it is about to write (its conflict check), and on a
 * new replica none is there. Ids this worker does not know of are answered "absent" without a
 * request. (Another writer's document of an id unknown here would be overwritten with the
 * snapshot's; the pulls after the snapshot's checkpoint bring its newer version back.)
 */
function knownKeysMiddleware(known: Set<string>, loaded: { done: boolean }): Middleware<DBCore> {
  const withKnownKeys = (table: DBCoreTable): DBCoreTable => ({
    ...table,
    async getMany(request: DBCoreGetManyRequest) {
      if (!loaded.done) return table.getMany(request);
      const present = request.keys.filter((key) => known.has(key as string));
      if (present.length === 0) return request.keys.map(() => undefined);
      const values = await table.getMany({ ...request, keys: present });
      const byKey = new Map(present.map((key, index) => [key, values[index]]));
      return request.keys.map((key) => byKey.get(key));
    },
  });
  return {
    stack: 'dbcore',
    name: 'skyport-snapshot-known-keys',
    create: (down) => ({
      ...down,
      table: (name) => (name === 'docs' ? withKnownKeys(down.table(name)) : down.table(name)),
    }),
  };
}

async function openTarget(target: SnapshotTarget, options: SnapshotWriteOptions) {
  const known = new Set<string>();
  const loaded = { done: false };
  const storage = getRxStorageDexie({
    ...options.dexie,
    onCreate: (db: Dexie) => {
      db.use(knownKeysMiddleware(known, loaded));
    },
  });
  const token = randomToken(10);
  const params: RxStorageInstanceCreationParams<Doc, unknown> = {
    databaseInstanceToken: token,
    databaseName: target.databaseName,
    collectionName: target.collectionName,
    schema: target.schema as RxJsonSchema<RxDocumentData<Doc>>,
    options: {},
    // The page is told by `notify` (see above).
    multiInstance: false,
    devMode: false,
  };
  const instance = (await storage.createStorageInstance(params as never)) as RxStorageInstance<
    Doc,
    unknown,
    unknown
  >;
  const owner = {};
  const channel =
    (options.multiInstance ?? true)
      ? getBroadcastChannelReference(RX_STORAGE_NAME_DEXIE, token, target.databaseName, owner)
      : undefined;
  // The last changes written (in order), for the last notice.
  let recent: RxStorageChangeEvent<Doc>[] = [];
  // Changes a notice already carried: the last notice must not carry them again, or the page's
  // RxDB, updating a query's result change by change (a count among them), counts them twice.
  const notified = new WeakSet<RxStorageChangeEvent<Doc>>();
  const keep = Math.max(1, target.noticeEvents ?? NOTICE_EVENTS);
  const notify = (events: RxStorageChangeEvent<Doc>[], context: string) => {
    const newest = events.at(-1)?.documentData;
    if (!channel || !newest) return;
    for (const event of events) notified.add(event);
    // What RxDB's multi-instance storage sends (rx-storage-multiinstance.ts).
    void channel.postMessage({
      storageName: RX_STORAGE_NAME_DEXIE,
      databaseName: target.databaseName,
      collectionName: target.collectionName,
      version: (target.schema as { version: number }).version,
      eventBulk: {
        id: randomToken(12),
        events,
        checkpoint: { id: newest.id, lwt: newest._meta.lwt },
        context,
      },
    });
  };
  const changes = instance.changeStream().subscribe((bulk) => {
    recent = recent.concat(bulk.events).slice(-keep);
    notify(bulk.events.slice(-1), bulk.context);
  });
  const { dexieTable } = await (
    instance as unknown as { internals: Promise<{ dexieTable: Table }> }
  ).internals;
  return {
    instance,
    token,
    known,
    /** The newest document written (its local checkpoint), see `writeBulk`. */
    newest: null as LocalCheckpoint | null,
    collectionName: target.collectionName,
    /** The writes' context: the go-ahead's, else this (no replication of the page runs yet). */
    context: 'skyport-snapshot',
    /** The last notice, once every write is done (see above). */
    notifyAll(context: string) {
      notify(
        recent.filter((event) => !notified.has(event)),
        context,
      );
      recent = [];
    },
    async close() {
      changes.unsubscribe();
      await instance.close();
      if (channel) await removeBroadcastChannelReference(token, owner);
    },
    /** Reads which documents the table holds (before the first write). */
    async readKeys() {
      const keys = (await dexieTable.toCollection().primaryKeys()) as string[];
      for (const key of keys) known.add(key);
      loaded.done = true;
    },
  };
}

type Target = Awaited<ReturnType<typeof openTarget>>;

/**
 * The replica as the page's RxDB opens it, from the collection's schema as the app defines it
 * (db/schemas.ts): with RxDB's own fields and indexes, which make its table in IndexedDB.
 */
export function asOpened(target: SnapshotTarget): SnapshotTarget {
  const schema = createRxSchema(target.schema as RxJsonSchema<unknown>, defaultHashSha256, false);
  return { ...target, schema: schema.jsonSchema };
}

/** Writes one bulk; a document already stored (an earlier, interrupted load) is replaced. */
async function writeBulk(into: Target, docs: Doc[]): Promise<void> {
  const { instance, token, known, context } = into;
  let pending: BulkWriteRow<Doc>[] = docs.map((doc) => ({
    document: { ...doc, _meta: { lwt: now() }, _rev: createRevision(token), _attachments: {} },
  }));
  // RxDB's `now()` only grows: the last document of the latest bulk made is the newest.
  const last = pending.at(-1)?.document;
  if (last && (into.newest === null || last._meta.lwt > into.newest.lwt))
    into.newest = { id: last.id, lwt: last._meta.lwt };
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 3) throw new SnapshotError('the local database kept refusing the snapshot');
    const result = await instance.bulkWrite(pending, context);
    const again: BulkWriteRow<Doc>[] = [];
    for (const error of result.error) {
      if (error.status !== 409 || !error.documentInDb)
        throw new SnapshotError(`the local database refused ${error.documentId}: ${error.status}`);
      const stored = error.documentInDb;
      again.push({
        previous: stored,
        document: { ...error.writeRow.document, _rev: createRevision(token, stored) },
      });
    }
    pending = again;
  }
  for (const doc of docs) known.add(doc.id);
}

/** Takes up to `count` documents off the front of the queue. */
function take(queue: Map<string, Doc>, count: number): Doc[] {
  const taken: Doc[] = [];
  for (const [id, doc] of queue) {
    if (taken.length >= count) break;
    taken.push(doc);
    queue.delete(id);
  }
  return taken;
}

/** Reads the snapshot and writes it; resolves with the worker's answer for the page. */
export async function writeSnapshot(options: SnapshotWriteOptions): Promise<SnapshotFromWorker> {
  const { bulkSize, confirmed } = options;
  let into: Target | undefined;
  let release: (() => void) | null = null;
  let early = false;
  try {
    // Writes start once the replica is known to be empty, or on the page's go-ahead (the download
    // and the parsing do not wait).
    let writer: Target | undefined;
    const ready = (async () => {
      const openFirst =
        options.early !== undefined &&
        (await Promise.race([
          (options.pageOpen ?? Promise.resolve()).then(() => true),
          confirmed.then(() => false),
        ]));
      if (options.early && openFirst) {
        release = options.claim ? await options.claim() : () => undefined;
        if (release) {
          into = await openTarget(options.early, options);
          await into.readKeys();
          if (into.known.size === 0) {
            early = true;
            writer = into;
            return;
          }
          // Not a new replica: what it holds may be newer than the snapshot, the page decides.
          const opened = into;
          into = undefined;
          await opened.close();
          release();
          release = null;
        }
        options.onWaiting?.();
      }
      const page = await confirmed;
      into = await openTarget(page, options);
      into.context = page.context;
      await into.readKeys();
      writer = into;
    })();
    ready.catch(() => undefined);
    const stream = await options.body;

    // By id: a document written while the snapshot was built can come twice, the later is newer.
    const queue = new Map<string, Doc>();
    const writing = new Set<Promise<void>>();
    let failure: unknown;
    let header: { collection?: string } | undefined;
    /** Starts the writes that can start: full bulks, or what is left once the download ended. */
    const write = (ended: boolean) => {
      if (writer && header && header.collection !== writer.collectionName)
        failure ??= new SnapshotError(`snapshot: not of ${writer.collectionName}`);
      while (
        writer !== undefined &&
        failure === undefined &&
        writing.size < WRITES_IN_FLIGHT &&
        (queue.size >= bulkSize || (ended && queue.size > 0))
      ) {
        const started: Promise<void> = writeBulk(writer, take(queue, bulkSize)).then(
          () => {
            writing.delete(started);
            write(ended);
          },
          (error: unknown) => {
            writing.delete(started);
            failure ??= error;
          },
        );
        writing.add(started);
      }
    };

    let previous: string | undefined;
    let count = 0;
    let last: Doc | null = null;
    for await (const line of lines(stream)) {
      if (failure !== undefined) throw failure;
      if (!header) {
        header = JSON.parse(line) as { collection?: string };
        continue;
      }
      // Each line is handled once the next has come: the last one is the trailer.
      if (previous !== undefined) {
        const doc = JSON.parse(previous) as Doc;
        queue.set(doc.id, doc);
        last = doc;
        count += 1;
        write(false);
        // The download waits while the writes are behind (the worker's memory stays bounded).
        while (queue.size >= bulkSize * QUEUED_BULKS) {
          if (writer === undefined) {
            await ready;
            write(false);
          } else if (writing.size > 0) await Promise.race(writing);
          else break;
        }
      }
      previous = line;
    }
    if (previous === undefined) throw new SnapshotError('snapshot: no trailer');
    const trailer = JSON.parse(previous) as SnapshotTrailer;
    if (trailer.count !== count || !('checkpoint' in trailer))
      throw new SnapshotError(`snapshot: ${count} documents of ${trailer.count}`);
    await ready;
    write(true);
    while (writing.size > 0 || queue.size > 0) {
      if (failure !== undefined) throw failure;
      if (writing.size > 0) await Promise.race(writing);
      write(true);
    }
    if (failure !== undefined) throw failure;
    writer!.notifyAll(writer!.context);
    await writer!.close();
    return {
      type: 'done',
      checkpoint: trailer.checkpoint,
      count,
      last,
      early,
      written: writer!.newest,
    };
  } catch (error) {
    // What was written stays (the pulls compare it), and the page's queries must see it.
    into?.notifyAll(into.context);
    await into?.close().catch(() => undefined);
    return {
      type: 'failed',
      message: error instanceof Error ? error.message : String(error),
      status: error instanceof SnapshotError ? error.status : undefined,
    };
  } finally {
    (release as (() => void) | null)?.();
  }
}
