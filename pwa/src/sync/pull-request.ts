import type { ReplicationCheckpoint, SyncCollectionName } from '@skyport/shared';
import { syncRequest, type SyncTransport } from './http.ts';
import { startSnapshotLoad } from './snapshot.ts';

/**
 * The pull requests of the replication (replication.ts), in a module of their own without RxDB:
 * the app asks for the catalogue's first pull before it loads the data layer's code.
 */

/** Documents per pull: the catalogue comes in large batches, personal data is small. */
export const PULL_BATCH: Readonly<Record<SyncCollectionName, number>> = {
  flights: 2000,
  airlines: 500,
  reviews: 1000,
  favourites: 200,
  cart: 200,
  preferences: 10,
  reviewDrafts: 200,
  orders: 200,
  sales: 1000,
};

/** The pull of `batchSize` documents after `checkpoint` (from the first, without one). */
export function pullPath(
  collection: SyncCollectionName,
  checkpoint: ReplicationCheckpoint | undefined,
  batchSize: number,
): string {
  const params = new URLSearchParams({ limit: String(batchSize) });
  if (checkpoint) {
    if (checkpoint.tx !== undefined) params.set('tx', String(checkpoint.tx));
    params.set('revision', String(checkpoint.revision));
    params.set('id', checkpoint.id);
  }
  return `/sync/${collection}/pull?${params}`;
}

/**
 * Asks for a collection's first pull (no checkpoint, the batch its replication uses) at once. On a
 * device that has never pulled the collection, the request runs while the data layer loads and
 * the local database opens, instead of after; hand the promise to the sync engine
 * (`firstPulls`). A failed request is reported there, where the replication's retries take over.
 *
 * For the catalogue that is its snapshot instead (sync/snapshot.ts): its worker starts
 * downloading now, and writes once the catalogue's replication leads. The promise then resolves
 * with that `SnapshotLoad`, which the engine recognises (sync/engine.ts).
 */
export function requestFirstPull(
  transport: SyncTransport,
  collection: SyncCollectionName,
): Promise<unknown> {
  const snapshot = startSnapshotLoad(transport, collection);
  if (snapshot) return Promise.resolve(snapshot);
  const answer = syncRequest(transport, pullPath(collection, undefined, PULL_BATCH[collection]));
  // Unused (the device had a checkpoint after all) or failed: nobody else waits for it.
  answer.catch(() => undefined);
  return answer;
}
