import type { PullQuery, PullResponse, SyncCollectionName, SyncDoc } from '@skyport/shared';
import type { Sql } from '../db/client.ts';
import { selectChanges } from './documents.ts';
import { resolvePartition, type Caller } from './partitions.ts';

/**
 * RxDB's pull: the documents of the caller's partition written after the checkpoint, oldest
 * position first, at most `limit`, and the checkpoint to continue from. A batch shorter than
 * `limit` tells the client it has caught up: rows held back by the replication watermark
 * (documents.ts) reach it through its live stream, whose feed reads again when they settle. With
 * nothing new, the request's checkpoint comes back unchanged (null when the client had none).
 */
export async function pullChanges<C extends SyncCollectionName>(
  sql: Sql,
  caller: Caller | null,
  collection: C,
  query: PullQuery,
): Promise<PullResponse<SyncDoc<C>>> {
  const partition = resolvePartition(caller, collection, query.partition);
  const given =
    query.revision === undefined
      ? null
      : { tx: query.tx ?? 0, revision: query.revision, id: query.id ?? '' };
  const batch = await selectChanges(sql, collection, partition, given, query.limit);
  return {
    documents: batch.documents,
    checkpoint: batch.last ?? given,
    ...(batch.revisions && { revisions: batch.revisions }),
  };
}
