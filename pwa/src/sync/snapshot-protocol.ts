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
  /**
   * At once: how many documents a write takes, and where the replica is (`early`): the worker
   * writes there as it downloads when the replica is empty, without waiting for the replication.
   */
  | { type: 'start'; bulkSize: number; early?: SnapshotTarget }
  /** At once: where the worker downloads the snapshot from. */
  | { type: 'fetch'; url: string; headers: Record<string, string> }
  /** The page's database is open: early writes may start (they would slow its opening). */
  | { type: 'open' }
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
      /**
       * Written as it downloaded, into an empty replica, before the page's replication started
       * (else after the page's go-ahead).
       */
      early: boolean;
      /** The local checkpoint of the newest document written (RxDB's Dexie storage's). */
      written: LocalCheckpoint | null;
    }
  /**
   * The replica was not empty, or another tab's worker writes it: the worker waits for the page's
   * go-ahead (`write`).
   */
  | { type: 'waiting' }
  | { type: 'failed'; message: string; status?: number };

/** A checkpoint of RxDB's Dexie storage (its `getChangedDocumentsSince`): a document's place. */
export interface LocalCheckpoint {
  id: string;
  lwt: number;
}

/** The snapshot's last line. */
export interface SnapshotTrailer {
  checkpoint: ReplicationCheckpoint | null;
  count: number;
}
