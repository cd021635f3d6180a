import {
  getChangedDocumentsSince,
  getComposedPrimaryKeyOfDocumentData,
  getHeightOfRevision,
  overwritable,
  stackCheckpoints,
  writeDocToDocState,
  type RxStorageReplicationMeta,
} from 'rxdb';
import {
  EMPTY,
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
import type { SyncCollectionName, SyncDoc } from '@skyport/shared';
import type { JournalDoc } from '../db/change-journal.ts';
import type { CollectionReplication } from './replication.ts';

const BATCH = 200;

type ReplicationInput = NonNullable<
  CollectionReplication['state']['internalReplicationState']
>['input'];
type MetaInstance = ReplicationInput['metaInstance'];

/**
 * What a count reads, all of it in the browser's IndexedDB that every tab shares: the
 * collection's documents and the replication's records of what the server has (its meta
 * instance), with the replication's identifier and conflict handler.
 */
type CountSource = Pick<
  ReplicationInput,
  'forkInstance' | 'metaInstance' | 'identifier' | 'conflictHandler'
> & { primaryPath: string };

/**
 * The meta instances this tab opened to count for replications that another tab runs (it leads):
 * one per replication, closed when the replication ends.
 */
const followerMetas = new WeakMap<CollectionReplication, Promise<MetaInstance>>();

/**
 * The replication's records, opened as RxDB's replication opens them (plugins/replication
 * `_start`: same collection name and schema) when this tab does not run it.
 */
function followerMetaOf(replication: CollectionReplication): Promise<MetaInstance> {
  let meta = followerMetas.get(replication);
  if (!meta) {
    const { state } = replication;
    const database = state.collection.database;
    meta = state.metaInfoPromise.then((info) =>
      database.storage.createStorageInstance<
        RxStorageReplicationMeta<SyncDoc<SyncCollectionName>, unknown>
      >({
        databaseInstanceToken: database.token,
        databaseName: database.name,
        collectionName: info.collectionName,
        schema: info.schema,
        options: {},
        multiInstance: database.multiInstance,
        password: database.password,
        devMode: overwritable.isDevMode(),
      }),
    );
    followerMetas.set(replication, meta);
    const close = state.canceled$.pipe(filter(Boolean)).subscribe(() => {
      close.unsubscribe();
      void meta!.then((instance) => instance.close()).catch(() => undefined);
    });
  }
  return meta;
}

/**
 * Where to count: the replication's own state when this tab runs it; otherwise the same stores,
 * opened here. With several tabs open only the leader runs the replications, and the other tabs
 * count from what it writes (issue 16: a second tab showed no count).
 */
async function countSourceOf(replication: CollectionReplication): Promise<CountSource> {
  const { state } = replication;
  const internal = state.internalReplicationState;
  if (internal) {
    const { forkInstance, metaInstance, identifier, conflictHandler } = internal.input;
    return {
      forkInstance,
      metaInstance,
      identifier,
      conflictHandler,
      primaryPath: String(internal.primaryPath),
    };
  }
  return {
    forkInstance: state.collection.storageInstance,
    metaInstance: await followerMetaOf(replication),
    // RxDB's replication plugin names its protocol state so (plugins/replication `_start`).
    identifier: `rxdbreplication${state.replicationIdentifier}`,
    conflictHandler: state.collection.conflictHandler,
    primaryPath: String(state.collection.schema.primaryPath),
  };
}

/** The server's state the replication last knew for each of `ids` (RxDB's assumed master state). */
async function assumedMasterStates(metaInstance: MetaInstance, ids: string[]) {
  const metaDocs = await metaInstance.findDocumentsById(
    ids.map((itemId) =>
      getComposedPrimaryKeyOfDocumentData(metaInstance.schema, { itemId, isCheckpoint: '0' }),
    ),
    true,
  );
  return Object.fromEntries(
    metaDocs.map((metaDoc) => [
      metaDoc.itemId,
      { docData: metaDoc.docData, metaDocument: metaDoc },
    ]),
  );
}

/** Writes come in bursts (a cart merge, a pull): one count after each burst is enough. */
const RECOUNT_AFTER_MS = 200;

/** A local change the server has not acknowledged: the document and its last local write. */
export interface UnsentChange {
  id: string;
  /** RxDB's last write time of the local document (`_meta.lwt`), ms since the epoch. */
  since: number;
  doc: JournalDoc;
}

/** How many local changes of one replication the server has not acknowledged (see below). */
export async function countUnsentChanges(
  replication: CollectionReplication,
): Promise<number | null> {
  return (await listUnsentChanges(replication))?.length ?? null;
}

/**
 * The local changes of one replication the server has not acknowledged: the documents whose
 * local state differs from the state the replication last knew the server to have (RxDB's
 * "assumed master state", kept in its metadata), by the rule RxDB's own upstream uses to decide
 * what to push. A document created and deleted on this device without ever reaching the server
 * counts as nothing: losing it loses nothing.
 *
 * Read from the IndexedDB every tab shares: with several tabs open, the leader tab runs the
 * replication and the others count from what it records. Empty for a collection that is never
 * pushed.
 */
export async function listUnsentChanges(
  replication: CollectionReplication,
): Promise<UnsentChange[] | null> {
  const { state } = replication;
  if (!state.push) return [];
  const { forkInstance, metaInstance, identifier, conflictHandler, primaryPath } =
    await countSourceOf(replication);
  const unsent: UnsentChange[] = [];
  let checkpoint: unknown = undefined;
  for (;;) {
    const batch = await getChangedDocumentsSince(forkInstance, BATCH, checkpoint);
    if (batch.documents.length === 0) return unsent;
    const ids = batch.documents.map((doc) => String((doc as Record<string, unknown>)[primaryPath]));
    const assumed = await assumedMasterStates(metaInstance, ids);
    batch.documents.forEach((doc, index) => {
      const master = assumed[ids[index]!];
      const change = (): UnsentChange => ({
        id: ids[index]!,
        since: doc._meta.lwt,
        doc: writeDocToDocState(doc, false, false) as unknown as JournalDoc,
      });
      if (!master) {
        if (!doc._deleted) unsent.push(change());
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
      if (!sent) unsent.push(change());
    });
    checkpoint = stackCheckpoints([checkpoint as never, batch.checkpoint]);
  }
}

/**
 * Lists a pushed collection's unsent changes again after each local write (queued), each push
 * and each pull (sent, or made moot by the server's copy), and reports every new list until the
 * replication is cancelled. The sync status shows their total (status.ts `reportUnsent`), the
 * pending changes page the list (change-states.ts).
 */
export function watchUnsentChanges(
  replication: CollectionReplication,
  report: (changes: UnsentChange[] | null) => void,
): Subscription {
  const { state } = replication;
  // `active$` turns false once a push's result is stored in the replication's metadata, which the
  // count reads; `sent$` fires before that, so it alone could count a sent change as unsent. In a
  // tab that does not run the replication, those never fire: the records the leading tab writes
  // do, seen through this tab's own handle on them (their storage tells every tab).
  const followerMetaChanges = state.collection.database.multiInstance
    ? from(followerMetaOf(replication)).pipe(switchMap((meta) => meta.changeStream()))
    : EMPTY;
  return merge(state.collection.$, state.active$, state.sent$, followerMetaChanges)
    .pipe(
      auditTime(RECOUNT_AFTER_MS),
      switchMap(() => from(listUnsentChanges(replication)).pipe(catchError(() => of(null)))),
      takeUntil(state.canceled$.pipe(filter(Boolean))),
    )
    .subscribe(report);
}
