import { Subject, map } from 'rxjs';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import { getAssumedMasterState, getMetaWriteRow, type RxReplicationWriteToMasterRow } from 'rxdb';
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
import { SERVER_FILLED_FIELDS, type LocalCollectionName } from '../db/layout.ts';
import { SyncHttpError, syncRequest, type SyncTransport } from './http.ts';
import { PULL_BATCH, pullPath } from './pull-request.ts';
import type { SyncStatusStore } from './status.ts';
import type { JournalDoc } from '../db/change-journal.ts';
import {
  documentContent,
  type ChangeCollection,
  type ChangeTracker,
  type PushAnswer,
  type PushedRow,
} from './change-states.ts';
import { isPulledAndUnchanged, pullMarkOf } from './pulled-marker.ts';
import { createEchoOrder } from './echo-order.ts';

/**
 * Rows per push: the protocol's cap (RxDB's default batch), which the server's push body limit
 * is sized for with every field at its maximum length (shared/src/schemas/json-size.ts).
 */
const PUSH_BATCH = PUSH_MAX_ROWS;

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

/** A stream event's changes: documents, checkpoint, and each document's revision if sent. */
export interface StreamedChanges {
  documents: Doc[];
  checkpoint: ReplicationCheckpoint;
  revisions?: number[];
}

export interface CollectionReplication {
  collection: LocalCollectionName;
  state: RxReplicationState<SyncDoc<SyncCollectionName>, ReplicationCheckpoint>;
  /** Live changes and 'RESYNC' signals for this collection, fed by the engine's event stream. */
  stream: Subject<StreamedChanges | 'RESYNC'>;
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
   * from no checkpoint.
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
  collection: LocalCollectionName,
  context: ReplicationContext,
): CollectionReplication {
  const { transport, status } = context;
  const retry = context.retry ?? DEFAULT_RETRY;
  const stream = new Subject<StreamedChanges | 'RESYNC'>();
  /** Late echoes of this device's pushes, dropped (echo-order.ts). */
  const echoes = createEchoOrder();
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
    const report = Array.isArray(body) ? null : reportSchema.parse(body);
    const answer: PushAnswer = report
      ? (report as PushAnswer)
      : { documents: conflictsSchema.parse(body) as PushAnswer['documents'] };
    echoes.accepted(report?.revisions);
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

  /** The mark of this replication's pulled documents (pulled-marker.ts), once known. */
  let pullMark: Promise<string> | undefined;
  /**
   * The rows to send, without those that are the server's state as pulled: the document is still
   * as RxDB's downstream wrote it (its pull mark, pulled-marker.ts), but the record of that
   * server state was lost (a reload between the two writes), so RxDB offers it with an older
   * assumed state, or none. Sent, the server would answer a conflict for a document it has as it
   * is. Left out, RxDB takes the row as the server's state (it got no conflict for it) and
   * records it: the next change of the document goes with it as its assumed master state.
   */
  async function withoutPulledStates(rows: Row[]): Promise<Row[]> {
    const internal = state.internalReplicationState;
    if (!internal || rows.length === 0) return rows;
    pullMark ??= pullMarkOf(internal.input.hashFunction, internal.input.identifier);
    const mark = await pullMark;
    const stored = await internal.input.forkInstance.findDocumentsById(
      rows.map((row) => String(row.newDocumentState.id)),
      true,
    );
    const pulled = new Map(
      stored
        .filter((doc) => isPulledAndUnchanged(doc, mark))
        .map((doc) => [String(doc.id), documentContent(doc as unknown as JournalDoc)]),
    );
    if (pulled.size === 0) return rows;
    return rows.filter(
      (row) =>
        pulled.get(String(row.newDocumentState.id)) !==
        documentContent(row.newDocumentState as unknown as JournalDoc),
    );
  }

  /**
   * Records the server's state of pulled documents the device holds exactly so but has no record
   * of (pulled-marker.ts): RxDB's downstream passes over a stored document without a record,
   * taking it for a change made on the device, unless its pull mark says otherwise, and a
   * document pulled new never keeps the mark (RxDB's storage wrapper replaces the `_meta` of an
   * inserted document). Without the record, the next change of it would be sent as a new
   * document and answered as a conflict. What RxDB's downstream itself writes for a document
   * equal to the server's.
   */
  async function recordLostServerStates(docs: Doc[]): Promise<void> {
    const internal = state.internalReplicationState;
    if (!internal || !writable || docs.length === 0) return;
    const ids = docs.map((doc) => String(doc.id));
    const [stored, records] = await Promise.all([
      internal.input.forkInstance.findDocumentsById(ids, true),
      getAssumedMasterState(internal, ids),
    ]);
    const storedById = new Map(stored.map((doc) => [String(doc.id), doc]));
    const lost = docs.filter((doc) => {
      const local = storedById.get(String(doc.id));
      return (
        local !== undefined &&
        records[String(doc.id)] === undefined &&
        documentContent(local as unknown as JournalDoc) ===
          documentContent(doc as unknown as JournalDoc)
      );
    });
    if (lost.length === 0) return;
    // A record written meanwhile by the replication itself wins (a 409 here, ignored).
    await internal.input.metaInstance.bulkWrite(
      await Promise.all(lost.map((doc) => getMetaWriteRow(internal, doc))),
      'skyport-record-lost-server-state',
    );
  }

  /**
   * Pulled documents as RxDB must take them: without late echoes of this device's pushes
   * (echo-order.ts), and with a kept refusal on top (change-states.ts). `revisions` are the
   * documents' own, when the server sent them.
   */
  const fromServer = (docs: Doc[], revisions?: readonly number[]): Doc[] => {
    if (!writable) return docs;
    const newer = echoes.newer(docs as (Doc & { id: string })[], revisions);
    return changes
      ? (changes.pulled(
          collection as ChangeCollection,
          newer as unknown as JournalDoc[],
        ) as unknown as Doc[])
      : newer;
  };

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
      stream$: stream.pipe(
        map((item) =>
          item === 'RESYNC'
            ? item
            : {
                documents: fromServer(item.documents, item.revisions),
                checkpoint: item.checkpoint,
              },
        ),
      ),
      async handler(checkpoint, batchSize) {
        const prefetched = firstPull;
        firstPull = undefined;
        try {
          if (checkpoint && (await mustPullAgain())) checkpoint = undefined;
          let answer: unknown;
          if (!checkpoint && prefetched && batchSize === PULL_BATCH[collection])
            answer = await prefetched;
          answer ??= await syncRequest(transport, pullPath(collection, checkpoint, batchSize));
          const body = responseSchema.parse(answer);
          succeeded();
          status.reportPulled(collection);
          // A full batch keeps all of its documents: one fewer would tell RxDB that the pulls have
          // caught up. A late echo in it is followed by the newer state in a later batch.
          const documents = fromServer(
            body.documents as Doc[],
            body.documents.length < batchSize ? body.revisions : undefined,
          );
          // Best effort: a failed record leaves the document as RxDB had it, the pull goes on.
          await recordLostServerStates(documents).catch(() => undefined);
          return { documents, checkpoint: body.checkpoint ?? checkpoint };
        } catch (error) {
          failed(error);
          throw error;
        }
      },
    },
    push: writable
      ? {
          batchSize: PUSH_BATCH,
          async handler(offered) {
            let rows = offered as Row[];
            try {
              rows = await withoutPulledStates(rows);
              if (rows.length === 0) return [];
              const conflicts = await pushRows(rows);
              succeeded();
              return conflicts;
            } catch (error) {
              if (!(error instanceof SyncHttpError) || !error.permanent) {
                failed(error);
                throw error;
              }
              // Find the refused rows one by one; the others are written as usual.
              const results: Doc[] = [];
              for (const row of rows) {
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
