import type { ReplicationCheckpoint } from '@skyport/shared';

/**
 * Messages between the page (sync/snapshot.ts) and the snapshot worker (sync/snapshot.worker.ts).
 */

/** Where the worker writes: the RxDB database's name, the collection and its schema. */
export interface SnapshotTarget {
  databaseName: string;
  collectionName: string;
  /** The collection's RxDB schema, as the page's collection holds it (`schema.jsonSchema`). */
  schema: unknown;
  /**
   * How many of the last changes the worker's notice to the page carries: more than the
   * collection's change buffer holds (sync/snapshot-writer.ts).
   */
  noticeEvents?: number;
}

export type SnapshotToWorker =
  /** At once: how many documents a write takes. */
  | { type: 'start'; bulkSize: number }
  /** At once: where the worker downloads the snapshot from. */
  | { type: 'fetch'; url: string; headers: Record<string, string> }
  /**
   * The replication has started and has no checkpoint (nothing was pulled yet): write, into this,
   * with `context` (the replication's own downstream writes' context).
   */
  | { type: 'write'; target: SnapshotTarget; context: string };

export type SnapshotFromWorker =
  | {
      type: 'done';
      /** Where the ordinary pulls go on from (null: the collection was empty). */
      checkpoint: ReplicationCheckpoint | null;
      count: number;
      /** The snapshot's last document (stored like the others). */
      last: (Record<string, unknown> & { id: string; _deleted: boolean }) | null;
    }
  | { type: 'failed'; message: string; status?: number };

/** The snapshot's last line. */
export interface SnapshotTrailer {
  checkpoint: ReplicationCheckpoint | null;
  count: number;
}
