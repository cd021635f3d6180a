import type { ReplicationCheckpoint, SyncCollectionName } from '@skyport/shared';
import type { SkyportDatabase } from '../db/database.ts';
import { DEFAULT_DATABASE_NAME } from '../db/database-name.ts';
import { rxSchemaOf } from '../db/schemas.ts';
import { syncHeaders, type SyncTransport } from './http.ts';
import type {
  LocalCheckpoint,
  SnapshotFromWorker,
  SnapshotTarget,
  SnapshotToWorker,
} from './snapshot-protocol.ts';

/**
 * A device's first copy of the catalogue, in one download written off the main thread
 * (docs/architecture.md §4): the server's snapshot of the collection (`GET
 * /api/sync/{collection}/snapshot`, compressed, cacheable) is written into the local database by
 * a worker (sync/snapshot.worker.ts) through RxDB's own storage, and the replication pulls on
 * from the snapshot's checkpoint (replication.ts). Through the replication on the page, 100,000
 * flights took one pull per 2,000 flights, each waiting for the one before, and tens of seconds
 * of main thread; the page now only reads a few notices of the worker's writes.
 *
 * The page starts the worker as soon as it asks for the catalogue (`requestFirstPull`, before the
 * data layer's code has loaded); the worker downloads the snapshot and writes it as it comes,
 * into the replica's table in IndexedDB, while the page opens its database. The page starts the
 * collection's replication once it is written, from the snapshot's checkpoints
 * (`writtenAtOnce`, replication.ts). A replica that is not empty (an earlier load broke off, say)
 * may hold newer documents than the snapshot: then the worker writes only on the go-ahead of the
 * replication that found no checkpoint (`writeInto`, see sync/snapshot-writer.ts). No byte of it
 * passes through the page.
 *
 * Without workers (tests in Node), without a multi-instance database (the page's RxDB would not
 * hear of the worker's writes), or when the snapshot fails (an older server, offline, storage
 * errors), the ordinary pulls do it all, as before.
 */

/** The collections loaded from a snapshot on a new device: the catalogue. */
export const SNAPSHOT_COLLECTIONS: ReadonlySet<SyncCollectionName> = new Set(['flights']);

/** Documents per write (one IndexedDB transaction) of the worker. */
const SNAPSHOT_BULK = 2000;

/** A snapshot asked for in advance that nobody writes (another tab leads) is dropped after this. */
const UNUSED_MS = 60_000;

/** What a loaded snapshot leaves for the replication. */
export interface LoadedSnapshot {
  /** Where the ordinary pulls go on from (null: the collection was empty). */
  checkpoint: ReplicationCheckpoint | null;
  count: number;
  /** The snapshot's last document, already stored. */
  last: (Record<string, unknown> & { id: string; _deleted: boolean }) | null;
  /** Where the newest document written is in the local table (null: none written). */
  written: LocalCheckpoint | null;
}

/** A snapshot being downloaded by its worker, to be written into the local database. */
export class SnapshotLoad {
  private readonly worker: Worker;
  /** The worker's first answer: written, failed, or waiting for the go-ahead. */
  private readonly first: Promise<SnapshotFromWorker>;
  /** The worker's last answer: written or failed. */
  private readonly answer: Promise<SnapshotFromWorker>;
  private settleFirst!: (answer: SnapshotFromWorker) => void;
  private settle!: (answer: SnapshotFromWorker) => void;
  private unused: ReturnType<typeof setTimeout>;
  private disposed = false;
  /** Where the worker may write at once (none: only on the go-ahead). */
  private readonly early: SnapshotTarget | undefined;

  constructor(
    worker: Worker,
    readonly collection: SyncCollectionName,
    request: { url: string; headers: Record<string, string> },
    early?: SnapshotTarget,
  ) {
    this.worker = worker;
    this.early = early;
    this.first = new Promise((resolve) => (this.settleFirst = resolve));
    this.answer = new Promise((resolve) => (this.settle = resolve));
    worker.onmessage = (event: MessageEvent<SnapshotFromWorker>) => {
      this.settleFirst(event.data);
      if (event.data.type !== 'waiting') this.settle(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const failed: SnapshotFromWorker = {
        type: 'failed',
        message: event.message || 'the snapshot worker failed',
      };
      this.settleFirst(failed);
      this.settle(failed);
    };
    this.post({ type: 'start', bulkSize: SNAPSHOT_BULK, early });
    // The worker downloads it. A body the page fetched and handed over (a transferred stream)
    // came through the page's main thread chunk by chunk (5.4 MB once decompressed at 10,000
    // flights), and with DevTools attached (the bench's browser) the page also kept and decoded
    // all of it when it ended: a task of 90-280 ms at 10,000 flights and a 4× CPU slowdown.
    this.post({ type: 'fetch', ...request });
    this.unused = setTimeout(() => this.dispose(), UNUSED_MS);
  }

  private post(message: SnapshotToWorker) {
    this.worker.postMessage(message);
  }

  /**
   * Tells the worker that the page's database `databaseName` is open, and resolves with the
   * snapshot as the worker wrote it into its empty replica; null when it did not (another
   * database, or the replica was not empty: `writeInto` then; or it failed: the ordinary pulls do
   * everything).
   */
  async writtenAtOnce(databaseName: string): Promise<LoadedSnapshot | null> {
    if (this.early?.databaseName !== databaseName) return null;
    clearTimeout(this.unused);
    if (!this.disposed) this.post({ type: 'open' });
    const answer = await this.first;
    if (answer.type === 'waiting') {
      // Nobody may give the go-ahead (another tab leads): dropped after a while, as before.
      if (!this.disposed) this.unused = setTimeout(() => this.dispose(), UNUSED_MS);
      return null;
    }
    this.dispose();
    if (answer.type !== 'done' || !answer.early) return null;
    return toLoaded(answer);
  }

  /**
   * Has the snapshot written into the database's collection, by the replication that found no
   * checkpoint, with its downstream writes' context (`context`); resolves with what the
   * replication goes on from, or null when the snapshot could not be used (the ordinary pulls
   * then do everything; what was written already is theirs to compare).
   */
  async writeInto(db: SkyportDatabase, context: string): Promise<LoadedSnapshot | null> {
    clearTimeout(this.unused);
    if (this.disposed || !db.multiInstance) {
      this.dispose();
      return null;
    }
    const collection = db.collections[this.collection];
    this.post({
      type: 'write',
      target: {
        databaseName: db.name,
        collectionName: collection.name,
        schema: collection.schema.jsonSchema,
        // Past RxDB's change buffer, so that the page's queries are run again (see the writer).
        noticeEvents:
          ((collection as unknown as { _changeEventBuffer?: { limit?: number } })._changeEventBuffer
            ?.limit ?? 100) * 2,
      },
      context,
    });
    const answer = await this.answer;
    this.dispose();
    return answer.type === 'done' ? toLoaded(answer) : null;
  }

  /** Stops the worker (nothing more is written). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.unused);
    this.worker.terminate();
    const stopped = { type: 'failed', message: 'stopped' } as const;
    this.settleFirst(stopped);
    this.settle(stopped);
  }
}

function toLoaded(answer: Extract<SnapshotFromWorker, { type: 'done' }>): LoadedSnapshot {
  const { checkpoint, count, last, written } = answer;
  return { checkpoint, count, last, written };
}

/**
 * Starts downloading a collection's snapshot for a worker to write; null where there is none to
 * load (no workers, not a snapshot collection, offline).
 */
export function startSnapshotLoad(
  transport: SyncTransport,
  collection: SyncCollectionName,
  /** The replica's database, written at once when empty (null: only on the go-ahead). */
  databaseName: string | null = DEFAULT_DATABASE_NAME,
): SnapshotLoad | null {
  if (!SNAPSHOT_COLLECTIONS.has(collection)) return null;
  if (typeof Worker === 'undefined' || typeof location === 'undefined') return null;
  // Offline the download could only fail; the replication waits for the connection as usual.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return null;
  // The transport's fetch stands in for the browser's only in tests; a worker has its own.
  if (transport.fetch) return null;
  let worker: Worker;
  try {
    worker = new Worker(new URL('./snapshot.worker.ts', import.meta.url), {
      type: 'module',
      name: `skyport-${collection}-snapshot`,
    });
  } catch {
    return null;
  }
  return new SnapshotLoad(
    worker,
    collection,
    {
      url: new URL(`${transport.baseUrl}/sync/${collection}/snapshot`, location.href).href,
      headers: syncHeaders(transport),
    },
    // The worker fills in RxDB's own fields (it has RxDB; the page has not loaded it yet).
    databaseName === null
      ? undefined
      : { databaseName, collectionName: collection, schema: rxSchemaOf(collection) },
  );
}
