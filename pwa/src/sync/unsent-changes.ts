import {
  getAssumedMasterState,
  getChangedDocumentsSince,
  getHeightOfRevision,
  stackCheckpoints,
  writeDocToDocState,
} from 'rxdb';
import type { CollectionReplication } from './replication.ts';

const BATCH = 200;

/**
 * How many local changes of one replication the server has not acknowledged: the documents whose
 * local state differs from the state the replication last knew the server to have (RxDB's
 * "assumed master state", kept in its metadata), by the rule RxDB's own upstream uses to decide
 * what to push. A document created and deleted on this device without ever reaching the server
 * counts as nothing: losing it loses nothing.
 *
 * Null when the replication has not started in this tab (with several tabs open, the leader tab
 * runs it); 0 for a collection that is never pushed.
 */
export async function countUnsentChanges(
  replication: CollectionReplication,
): Promise<number | null> {
  const { state } = replication;
  if (!state.push) return 0;
  const internal = state.internalReplicationState;
  if (!internal) return null;
  const { forkInstance, identifier, conflictHandler } = internal.input;
  const primaryPath = internal.primaryPath as string;
  let count = 0;
  let checkpoint: unknown = undefined;
  for (;;) {
    const batch = await getChangedDocumentsSince(forkInstance, BATCH, checkpoint);
    if (batch.documents.length === 0) return count;
    const ids = batch.documents.map((doc) => String((doc as Record<string, unknown>)[primaryPath]));
    const assumed = await getAssumedMasterState(internal, ids);
    batch.documents.forEach((doc, index) => {
      const master = assumed[ids[index]!];
      if (!master) {
        if (!doc._deleted) count += 1;
        return;
      }
      // Written by the downstream (pulled): the server's state already.
      const masterRev = (master.docData as { _rev?: string })._rev;
      if (masterRev && getHeightOfRevision(doc._rev) === doc._meta[identifier]) return;
      const sent =
        master.metaDocument.isResolvedConflict !== doc._rev &&
        conflictHandler.isEqual(
          master.docData,
          writeDocToDocState(doc, false, false),
          'upstream-check-if-equal',
        );
      if (!sent) count += 1;
    });
    checkpoint = stackCheckpoints([checkpoint as never, batch.checkpoint]);
  }
}
