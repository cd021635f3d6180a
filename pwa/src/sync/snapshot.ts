import type { SyncCollectionName } from '@skyport/shared';
import { syncHeaders, type SyncTransport } from './http.ts';
import type { SnapshotFromWorker, SnapshotToWorker } from './snapshot-protocol.ts';

/**
 * A device's first copy of the catalogue, in one download written off the main thread
 * (docs/architecture.md §4.7): the server's snapshot of the collection (`GET
 * /api/sync/{collection}/snapshot`, compressed, cacheable) is written into the catalogue's replica
 * (db/catalogue-replica.ts) by a worker (sync/snapshot.worker.ts), and the replication pulls on
 * from the snapshot's checkpoint (sync/catalogue-replication.ts). No byte of it passes through
 * the page.
 *
 * The page starts the worker as soon as it asks for the catalogue (`requestFirstPull`, before the
 * data layer's code has loaded); the worker downloads and parses the snapshot while the page
 * opens its database, and writes it once the page's replication leads and has emptied the
 * replica (`writeInto`).
 *
 * Without workers (tests in Node), or when the snapshot fails (an older server, offline, storage
 * errors), the ordinary pulls do it all.
 */

/** The collections loaded from a snapshot on a new device: the catalogue. */
export const SNAPSHOT_COLLECTIONS: ReadonlySet<SyncCollectionName> = new Set(['flights']);

/** Documents per write (one IndexedDB transaction) of the worker. */
const SNAPSHOT_BULK = 2000;

/** A snapshot asked for in advance that nobody writes or drops is dropped after this. */
const UNUSED_MS = 60_000;

/** A snapshot being downloaded by its worker, to be written into the local database. */
export class SnapshotLoad {
  private readonly worker: Worker;
  /** The worker's answer: written, or failed. */
  private readonly answer: Promise<SnapshotFromWorker>;
  private settle!: (answer: SnapshotFromWorker) => void;
  private unused: ReturnType<typeof setTimeout>;
  private disposed = false;

  constructor(
    worker: Worker,
    readonly collection: SyncCollectionName,
    request: { url: string; headers: Record<string, string> },
  ) {
    this.worker = worker;
    this.answer = new Promise((resolve) => (this.settle = resolve));
    worker.onmessage = (event: MessageEvent<SnapshotFromWorker>) => this.settle(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.settle({ type: 'failed', message: event.message || 'the snapshot worker failed' });
    };
    this.post({ type: 'start', bulkSize: SNAPSHOT_BULK });
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
   * Has the snapshot written into the (emptied) replica named `replica`, with its checkpoint;
   * resolves with whether it was (else the ordinary pulls do everything).
   */
  async writeInto(replica: string): Promise<boolean> {
    clearTimeout(this.unused);
    if (this.disposed) return false;
    this.post({ type: 'write', replica });
    const answer = await this.answer;
    this.dispose();
    return answer.type === 'done';
  }

  /** Stops the worker (nothing more is written). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.unused);
    this.worker.terminate();
    this.settle({ type: 'failed', message: 'stopped' });
  }
}

/**
 * Starts downloading a collection's snapshot for a worker to write; null where there is none to
 * load (no workers, not a snapshot collection, offline).
 */
export function startSnapshotLoad(
  transport: SyncTransport,
  collection: SyncCollectionName,
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
  return new SnapshotLoad(worker, collection, {
    url: new URL(`${transport.baseUrl}/sync/${collection}/snapshot`, location.href).href,
    headers: syncHeaders(transport),
  });
}
