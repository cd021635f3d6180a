import {
  getAssumedMasterState,
  getChangedDocumentsSince,
  getHeightOfRevision,
  stackCheckpoints,
  writeDocToDocState,
} from 'rxdb';
import {
  auditTime,
  catchError,
  filter,
  from,
  merge,
  of,
  switchMap,
  takeUntil,
  type Subscription,
} from 'rxjs';
import type { CollectionReplication } from './replication.ts';

const BATCH = 200;

/** Writes come in bursts (a cart merge, a pull): one count after each burst is enough. */
const RECOUNT_AFTER_MS = 200;

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

/**
 * Counts a pushed collection's unsent changes again after each local write (queued), each push
 * and each pull (sent, or made moot by the server's copy), and reports every new count until the
 * replication is cancelled. The sync status shows the total (status.ts `reportUnsent`).
 */
export function watchUnsentChanges(
  replication: CollectionReplication,
  report: (count: number | null) => void,
): Subscription {
  const { state } = replication;
  // `active$` turns false once a push's result is stored in the replication's metadata, which the
  // count reads; `sent$` fires before that, so it alone could count a sent change as unsent.
  return merge(state.collection.$, state.active$, state.sent$)
    .pipe(
      auditTime(RECOUNT_AFTER_MS),
      switchMap(() => from(countUnsentChanges(replication)).pipe(catchError(() => of(null)))),
      takeUntil(state.canceled$.pipe(filter(Boolean))),
    )
    .subscribe(report);
}
