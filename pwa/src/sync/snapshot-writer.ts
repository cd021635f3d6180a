import type { CatalogueReplica, PulledFlight } from '../db/catalogue-replica.ts';
import type { SnapshotFromWorker, SnapshotTrailer } from './snapshot-protocol.ts';

/**
 * Writes the catalogue's snapshot (`GET /api/sync/flights/snapshot`, newline-delimited JSON, see
 * the server's sync/snapshot.ts) into the catalogue's replica (db/catalogue-replica.ts) as it
 * downloads, in bulks. It runs in the snapshot worker (sync/snapshot.worker.ts), off the page's
 * main thread.
 *
 * The snapshot is read (and parsed) as it downloads, while the page loads its data layer; it is
 * written once the page's replication leads and has emptied the replica (`target`). The bulks
 * are not announced one by one; the checkpoint is written last, with nothing else, and the
 * replica's readers are then told to read it again (`'reset'`), once. A replica with flights and
 * without a checkpoint is a snapshot broken off: the replication empties it before it loads
 * another (sync/catalogue-replication.ts).
 */

/** Bulks written at once: IndexedDB commits one while the next one's documents are copied in. */
const WRITES_IN_FLIGHT = 2;
/** Parsed documents waiting to be written, in bulks, before the download waits for the writes. */
const QUEUED_BULKS = 20;

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
  /** The replica to write into, once the page's replication asks for the snapshot. */
  target: Promise<CatalogueReplica>;
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

/** Takes up to `count` documents off the front of the queue. */
function take(queue: Map<string, PulledFlight>, count: number): PulledFlight[] {
  const taken: PulledFlight[] = [];
  for (const [id, doc] of queue) {
    if (taken.length >= count) break;
    taken.push(doc);
    queue.delete(id);
  }
  return taken;
}

/** Reads the snapshot and writes it; resolves with the worker's answer for the page. */
export async function writeSnapshot(options: SnapshotWriteOptions): Promise<SnapshotFromWorker> {
  const { bulkSize } = options;
  let writer: CatalogueReplica | undefined;
  try {
    // The download and the parsing do not wait for the target.
    const ready = options.target.then((replica) => {
      writer = replica;
    });
    ready.catch(() => undefined);
    const stream = await options.body;

    // By id: a document written while the snapshot was built can come twice, the later is newer.
    const queue = new Map<string, PulledFlight>();
    const writing = new Set<Promise<void>>();
    let failure: unknown;
    let header: { collection?: string } | undefined;
    /** Starts the writes that can start: full bulks, or what is left once the download ended. */
    const write = (ended: boolean) => {
      while (
        writer !== undefined &&
        failure === undefined &&
        writing.size < WRITES_IN_FLIGHT &&
        (queue.size >= bulkSize || (ended && queue.size > 0))
      ) {
        const started: Promise<void> = writer
          .apply(take(queue, bulkSize), undefined, { announce: false })
          .then(
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
    for await (const line of lines(stream)) {
      if (failure !== undefined) throw failure;
      if (!header) {
        header = JSON.parse(line) as { collection?: string };
        if (header.collection !== 'flights')
          throw new SnapshotError(`snapshot: not of the catalogue (${header.collection})`);
        continue;
      }
      // Each line is handled once the next has come: the last one is the trailer.
      if (previous !== undefined) {
        const doc = JSON.parse(previous) as PulledFlight;
        queue.set(doc.id, doc);
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
    // Last: a replica with this checkpoint holds the whole snapshot.
    await writer!.apply([], trailer.checkpoint, { announce: false });
    return { type: 'done', checkpoint: trailer.checkpoint, count };
  } catch (error) {
    return {
      type: 'failed',
      message: error instanceof Error ? error.message : String(error),
      status: error instanceof SnapshotError ? error.status : undefined,
    };
  } finally {
    // What was written shows (or, after a failure, goes with the pulls' emptying of the replica).
    (writer as CatalogueReplica | undefined)?.announceReset();
  }
}
