import type { ReplicationCheckpoint } from '@skyport/shared';

/**
 * Messages between the page (sync/snapshot.ts) and the snapshot worker (sync/snapshot.worker.ts).
 */

export type SnapshotToWorker =
  /** At once: how many documents a write takes. */
  | { type: 'start'; bulkSize: number }
  /** At once: where the worker downloads the snapshot from. */
  | { type: 'fetch'; url: string; headers: Record<string, string> }
  /**
   * The page's replication leads and has emptied the replica (db/catalogue-replica.ts): write the
   * snapshot into the replica of this name.
   */
  | { type: 'write'; replica: string };

export type SnapshotFromWorker =
  | {
      type: 'done';
      /** Where the ordinary pulls go on from (null: the collection was empty). */
      checkpoint: ReplicationCheckpoint | null;
      count: number;
    }
  | { type: 'failed'; message: string; status?: number };

/** The snapshot's last line. */
export interface SnapshotTrailer {
  checkpoint: ReplicationCheckpoint | null;
  count: number;
}
