import type { RxCollection } from 'rxdb';
import type { LocalData } from '../../../data/local-data.ts';
import { useLocalData } from '../../../data/provider.tsx';
import {
  documentContent,
  type ConflictChange,
  type RefusedChange,
} from '../../../sync/change-states.ts';

/**
 * The actions of the pending changes page (docs/architecture.md §4.4, decision 017): discard a
 * refused change, say a conflict has been seen. What each change's state is comes from the sync
 * engine's tracker (data/change-states.ts `useChangeStates`).
 */

/** A journal document as a local write takes it: without RxDB's fields and the tombstone flag. */
function fieldsOf(doc: Record<string, unknown>): Record<string, unknown> {
  const { _deleted, _meta, _rev, _attachments, ...fields } = doc;
  void _deleted;
  void _meta;
  void _rev;
  void _attachments;
  return fields;
}

/**
 * Discards a refused change: the document goes back to the server's state (away, if the server
 * has none). A refused review draft is removed: the server keeps it only as refused. If the
 * device no longer holds the change as made (a pull brought a newer state, or it was edited
 * again), the document is left as it is and only the notice goes.
 */
export async function discardChange(data: LocalData, change: RefusedChange): Promise<void> {
  // One collection of four, each with its own document type: written here as plain records.
  const collection = data.db.collections[change.collection] as unknown as RxCollection<
    Record<string, unknown>
  >;
  const doc = await collection.findOne(change.id).exec();
  if (change.collection === 'reviewDrafts') {
    await doc?.remove();
  } else {
    const current = doc ? { ...doc.toJSON(), _deleted: false } : null;
    const asMade = change.attempted._deleted
      ? current === null
      : documentContent(current as never) === documentContent(change.attempted);
    if (asMade) {
      const server = change.server && !change.server._deleted ? change.server : null;
      if (server) await collection.upsert(fieldsOf(server));
      else await doc?.remove();
    }
  }
  data.engine.changes.forgetRefusal(change.collection, change.id);
}

/** The customer has read what a conflict kept. */
export function dismissConflict(data: LocalData, change: ConflictChange): void {
  data.engine.changes.dismissConflict(change.collection, change.id);
}

export function usePendingChangeActions() {
  const data = useLocalData();
  return {
    discard: (change: RefusedChange) => discardChange(data, change),
    dismiss: (change: ConflictChange) => dismissConflict(data, change),
  };
}
