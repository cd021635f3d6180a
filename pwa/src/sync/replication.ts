import { Subject, filter, firstValueFrom, map } from 'rxjs';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import type { RxReplicationPullStreamItem, RxReplicationWriteToMasterRow } from 'rxdb';
import {
  PUSH_MAX_ROWS,
  PUSH_REPORT_HEADER,
  SYNC_COLLECTION_INFO,
  pullResponseSchema,
  pushReportSchema,
  pushResponseSchema,
  type ReplicationCheckpoint,
  type SyncCollectionName,
  type SyncDoc,
  type WithDeletedFlag,
} from '@skyport/shared';
import type { SkyportDatabase } from '../db/database.ts';
import { SERVER_FILLED_FIELDS } from '../db/layout.ts';
import { SyncHttpError, syncRequest, type SyncTransport } from './http.ts';
import { PULL_BATCH, pullPath } from './pull-request.ts';
import {
  SNAPSHOT_COLLECTIONS,
  SnapshotLoad,
  startSnapshotLoad,
  type LoadedSnapshot,
} from './snapshot.ts';
import type { SyncStatusStore } from './status.ts';
import type { JournalDoc } from '../db/change-journal.ts';
import type { ChangeCollection, ChangeTracker, PushAnswer, PushedRow } from './change-states.ts';

/**
 * Rows per push: the protocol's cap (RxDB's default batch), which the server's push body limit
 * is sized for with every field at its maximum length (shared/src/schemas/json-size.ts).
 */
const PUSH_BATCH = PUSH_MAX_ROWS;

/** How long a snapshot waits for the replication's upstream to have looked at the collection. */
const UPSTREAM_WAIT_MS = 5000;

export interface RetryPolicy {
  /** First wait after a failure. */
  baseMs: number;
  /** Longest wait between retries. */
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 1000, maxMs: 60_000 };

/**
 * The wait before the next attempt after `failures` failures in a row (1, 2, …): the base,
 * doubling, at most `maxMs`. The one backoff of the sync engine: pulls, pushes and the stream.
 */
export function backoffMs(retry: RetryPolicy, failures: number): number {
  return Math.min(retry.maxMs, retry.baseMs * 2 ** Math.min(Math.max(failures, 1) - 1, 20));
}

type Doc = WithDeletedFlag<SyncDoc<SyncCollectionName>>;
type Row = RxReplicationWriteToMasterRow<SyncDoc<SyncCollectionName>>;

export interface CollectionReplication {
  collection: SyncCollectionName;
  state: RxReplicationState<SyncDoc<SyncCollectionName>, ReplicationCheckpoint>;
  /** Live changes and 'RESYNC' signals for this collection, fed by the engine's event stream. */
  stream: Subject<RxReplicationPullStreamItem<SyncDoc<SyncCollectionName>, ReplicationCheckpoint>>;
}

export interface ReplicationContext {
  transport: SyncTransport;
  status: SyncStatusStore;
  retry?: RetryPolicy;
  /** Whose partition (user or airline id) this replication holds; part of its identity. */
  partition: string | null;
  /**
   * The answer to this collection's pull from no checkpoint, asked for before the local database
   * had opened (pull-request.ts `requestFirstPull`). The first pull uses it if it indeed starts
   * from no checkpoint. For the catalogue it resolves with its snapshot's `SnapshotLoad` instead.
   */
  firstPull?: Promise<unknown>;
  /**
   * Where each pushed change stands (change-states.ts). With it, a refused change stays on the
   * device as made, with its reason, until it is fixed or discarded; without it, it is rolled back.
   */
  changes?: ChangeTracker;
}

/**
 * Starts RxDB's replication of one collection with the server's `/sync/{collection}` endpoints:
 * checkpoint iteration on `pull`, `push` for the writable collections, and live changes plus
 * 'RESYNC' through `stream` (one shared connection, see engine.ts). Failed requests are retried
 * with exponential backoff (RxDB's retry time, doubled per failure up to `maxMs`, reset by the
 * next success; an 'online' event skips the wait). A push the server refuses for good (4xx) is
 * rolled back locally and reported, so one bad document never blocks the queue.
 */
export function startCollectionReplication(
  db: SkyportDatabase,
  collection: SyncCollectionName,
  context: ReplicationContext,
): CollectionReplication {
  const { transport, status } = context;
  const retry = context.retry ?? DEFAULT_RETRY;
  const stream = new Subject<
    RxReplicationPullStreamItem<SyncDoc<SyncCollectionName>, ReplicationCheckpoint>
  >();
  let failures = 0;
  let firstPull = context.firstPull;
  const responseSchema = pullResponseSchema(collection);
  const conflictsSchema = pushResponseSchema(collection);
  const reportSchema = pushReportSchema(collection);
  const changes = context.changes;
  const writable = SYNC_COLLECTION_INFO[collection].writable;

  const succeeded = () => {
    failures = 0;
    state.retryTime = retry.baseMs;
    status.reportSuccess(collection);
  };
  const failed = (error: unknown) => {
    failures += 1;
    state.retryTime = backoffMs(retry, failures);
    const known = error instanceof SyncHttpError ? error : undefined;
    status.reportError(collection, {
      message: error instanceof Error ? error.message : String(error),
      offline: known?.offline ?? false,
      updateRequired: known?.updateRequired ?? false,
    });
  };

  /**
   * Pushes rows and returns the documents RxDB must take as the server's. With a change tracker
   * the push asks for the report (which rows conflicted, which were refused and why) and records
   * it; an older server answers the bare array, which is taken as before.
   */
  async function pushRows(rows: Row[]): Promise<Doc[]> {
    const tracked = changes ? (rows as unknown as PushedRow[]) : undefined;
    const body = await syncRequest(transport, `/sync/${collection}/push`, {
      method: 'POST',
      body: {
        rows: tracked
          ? tracked.map((row) => changes!.rowToSend(collection as ChangeCollection, row))
          : rows,
      },
      ...(changes ? { headers: { [PUSH_REPORT_HEADER]: '1' } } : {}),
    });
    if (!changes || !tracked) return conflictsSchema.parse(body) as Doc[];
    const answer: PushAnswer = Array.isArray(body)
      ? { documents: conflictsSchema.parse(body) as PushAnswer['documents'] }
      : (reportSchema.parse(body) as PushAnswer);
    for (const { id, reason } of answer.rejected ?? [])
      status.reportRejected({ collection, id, message: reason });
    return changes.recordPush(collection as ChangeCollection, tracked, answer) as Doc[];
  }

  /**
   * A row of a push the server refused whole. Tracked: the change stays on the device as made,
   * refused with the server's message (nothing goes back to RxDB, so it is not sent again until
   * it changes). Untracked: the local document goes back to the server's state (or away, if the
   * server never had it).
   */
  function rollback(row: Row, error: SyncHttpError): Doc[] {
    const doc = row.newDocumentState as Doc;
    status.reportRejected({
      collection,
      id: String((doc as { id: string }).id),
      message: error.message,
    });
    if (changes) {
      changes.recordRefusal(
        collection as ChangeCollection,
        row as unknown as PushedRow,
        error.message,
      );
      return [];
    }
    return [(row.assumedMasterState as Doc | undefined) ?? { ...doc, _deleted: true }];
  }

  /** Pulled documents as RxDB must take them (a kept refusal stays on top: change-states.ts). */
  const fromServer = (docs: Doc[]): Doc[] =>
    changes && writable
      ? (changes.pulled(
          collection as ChangeCollection,
          docs as unknown as JournalDoc[],
        ) as unknown as Doc[])
      : docs;

  /** The snapshot this replication loaded (its pulls then go on from its checkpoint). */
  let snapshot: LoadedSnapshot | null | undefined;
  /**
   * Loads the collection's snapshot into the local database once (the one asked for in advance,
   * else a new one); null when there is none, or it failed: then the pulls start from nothing.
   * Called by the replication's first pull, so RxDB's replication state exists: the snapshot is
   * written once its upstream has looked at the (empty) collection, and with the context of its
   * downstream's writes, so that the upstream passes over the snapshot's documents as it passes
   * over pulled ones (RxDB runs an upstream even without a push handler, and would otherwise
   * compare every document, one by one, on the page).
   */
  async function loadSnapshot(prefetched: Promise<unknown> | undefined) {
    if (snapshot !== undefined || !SNAPSHOT_COLLECTIONS.has(collection)) return snapshot ?? null;
    const value = prefetched ? await prefetched.catch(() => undefined) : undefined;
    const load =
      value instanceof SnapshotLoad
        ? value
        : db.multiInstance
          ? startSnapshotLoad(transport, collection)
          : null;
    const internal = state.internalReplicationState;
    if (!load || !internal) {
      load?.dispose();
      snapshot = null;
      return snapshot;
    }
    await Promise.race([
      firstValueFrom(internal.firstSyncDone.up.pipe(filter((done) => done))),
      new Promise((resolve) => setTimeout(resolve, UPSTREAM_WAIT_MS)),
    ]);
    snapshot = await load.writeInto(db, await internal.downstreamBulkWriteFlag);
    return snapshot;
  }

  /**
   * Whether this start's first pull goes back to the start of the collection, because a stored
   * document lacks a field the server fills (db/layout.ts `SERVER_FILLED_FIELDS`): it was pulled
   * before the field existed, and its position is behind the checkpoint. Asked once per start, so
   * the pulls that follow go on from where that one got to.
   */
  const filledField = SERVER_FILLED_FIELDS[collection];
  let fillChecked = filledField === undefined;
  async function mustPullAgain(): Promise<boolean> {
    if (fillChecked) return false;
    fillChecked = true;
    const stale = await db.collections[collection]
      .findOne({ selector: { [filledField!]: { $exists: false } } })
      .exec();
    return stale !== null;
  }

  const state = replicateRxCollection<SyncDoc<SyncCollectionName>, ReplicationCheckpoint>({
    collection: db.collections[collection] as never,
    replicationIdentifier: `skyport-sync:${collection}:${context.partition ?? 'public'}`,
    live: true,
    retryTime: retry.baseMs,
    // The app decides when to run; a hidden tab keeps syncing so that the data is fresh on return.
    toggleOnDocumentVisible: false,
    pull: {
      batchSize: PULL_BATCH[collection],
      stream$: changes
        ? stream.pipe(
            map((item) =>
              item === 'RESYNC'
                ? item
                : { ...item, documents: fromServer(item.documents as Doc[]) },
            ),
          )
        : stream.asObservable(),
      async handler(checkpoint, batchSize) {
        const prefetched = firstPull;
        firstPull = undefined;
        try {
          if (checkpoint && (await mustPullAgain())) checkpoint = undefined;
          let answer: unknown;
          if (!checkpoint) {
            // A replica without a checkpoint (a new device): the snapshot first, when there is one.
            const loaded = await loadSnapshot(prefetched);
            if (loaded) {
              const body = responseSchema.parse(
                await syncRequest(
                  transport,
                  pullPath(collection, loaded.checkpoint ?? undefined, batchSize),
                ),
              );
              succeeded();
              status.reportPulled(collection);
              // Nothing new since the snapshot: its last document (stored, so RxDB writes
              // nothing) makes RxDB keep the snapshot's checkpoint.
              const documents =
                body.documents.length > 0 || !loaded.last ? body.documents : [loaded.last];
              return {
                documents: documents as Doc[],
                checkpoint: body.checkpoint ?? loaded.checkpoint ?? undefined,
              };
            }
            if (prefetched && batchSize === PULL_BATCH[collection]) {
              const value = await prefetched;
              if (!(value instanceof SnapshotLoad)) answer = value;
            }
          } else if (prefetched) {
            // Asked for in advance, but the device had a checkpoint after all.
            void prefetched.then((value) => value instanceof SnapshotLoad && value.dispose());
          }
          answer ??= await syncRequest(transport, pullPath(collection, checkpoint, batchSize));
          const body = responseSchema.parse(answer);
          succeeded();
          status.reportPulled(collection);
          return {
            documents: fromServer(body.documents as Doc[]),
            checkpoint: body.checkpoint ?? checkpoint,
          };
        } catch (error) {
          failed(error);
          throw error;
        }
      },
    },
    push: writable
      ? {
          batchSize: PUSH_BATCH,
          async handler(rows) {
            try {
              const conflicts = await pushRows(rows as Row[]);
              succeeded();
              return conflicts;
            } catch (error) {
              if (!(error instanceof SyncHttpError) || !error.permanent) {
                failed(error);
                throw error;
              }
              // Find the refused rows one by one; the others are written as usual.
              const results: Doc[] = [];
              for (const row of rows as Row[]) {
                try {
                  results.push(...(rows.length === 1 ? [] : await pushRows([row])));
                  if (rows.length === 1) results.push(...rollback(row, error));
                } catch (single) {
                  if (!(single instanceof SyncHttpError) || !single.permanent) {
                    failed(single);
                    throw single;
                  }
                  results.push(...rollback(row, single));
                }
              }
              succeeded();
              return results;
            }
          },
        }
      : undefined,
  });

  state.active$.subscribe((isActive) => status.setActive(collection, isActive));
  return { collection, state, stream };
}
