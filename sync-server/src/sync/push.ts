import {
  PUSH_MAX_ROWS,
  SYNC_COLLECTION_INFO,
  messages,
  pushBodySchema,
  type CartDoc,
  type PreferencesDoc,
  type PushRejection,
  type SyncCollectionName,
  type SyncDoc,
  type WithDeletedFlag,
  type WritableSyncCollectionName,
} from '@skyport/shared';
import pLimit, { type LimitFunction } from 'p-limit';
import type postgres from 'postgres';
import type { Sql } from '../db/client.ts';
import { lockPartition } from '../db/locks.ts';
import { FLIGHT_NOT_FOUND } from '../features/cart/queries.ts';
import { AppError, ErrorCode } from '../lib/errors.ts';
import { sameJson } from '../lib/same-json.ts';
import { selectDocuments, type Queryable } from './documents.ts';
import { resolvePartition, type Caller } from './partitions.ts';
import { reviewFromDraft } from './review-drafts.ts';

/** The collections clients may push to. */
export type WritableCollection = WritableSyncCollectionName;

type Replicated<C extends SyncCollectionName> = WithDeletedFlag<SyncDoc<C>>;

interface PushRow<C extends SyncCollectionName> {
  newDocumentState: Replicated<C>;
  assumedMasterState?: Replicated<C> | null | undefined;
}

/**
 * The partition `caller` may push to in `collection`.
 * @throws AppError 403 for a read-only collection or someone else's partition, 401 for a guest.
 */
export function pushPartition(caller: Caller | null, collection: SyncCollectionName): string {
  if (!SYNC_COLLECTION_INFO[collection].writable) {
    throw new AppError(ErrorCode.Forbidden, `${collection} is read-only: it cannot be pushed to`);
  }
  const partition = resolvePartition(caller, collection);
  if (partition === null) throw new AppError(ErrorCode.Forbidden, messages.notAllowed);
  return partition;
}

/** What a push did, row by row (the push report, `pushReportSchema` of shared). */
export interface PushOutcome {
  /** The server's current document of every row it did not write, or stored otherwise than sent. */
  documents: Replicated<SyncCollectionName>[];
  /** Rows not written because their assumed master state was outdated. */
  conflicts: string[];
  /** Rows refused, with the reason. */
  rejected: PushRejection[];
  /**
   * The revision each written (or already as sent) favourite, cart line or preference has now,
   * by id: the device drops a pulled state older than it (a late echo, docs/architecture.md §4.6).
   */
  revisions?: Record<string, number>;
}

export interface PushOptions {
  /**
   * The client asked for the report (`PUSH_REPORT_HEADER`): a cart line or favourite of a flight
   * no longer in the catalogue is then refused alone, with its reason, and the other rows are
   * written. Without it such a row refuses the whole push with 404, as clients before the report
   * expect (they narrow a refused push down to its rows).
   */
  report?: boolean;
}

/**
 * RxDB's push: writes the rows whose assumed master state is still the server's, and returns the
 * server's current document for every row it did not write: a conflict (someone changed the
 * document since the client read it) or a refused row, and a review draft it stored otherwise than
 * sent (accepted or rejected). The client replaces its copy with it. What the server adds to a
 * written favourite, cart line or preference comes with the change stream's echo (decision 027).
 * The outcome also names the conflicts and the refused rows with their reasons (the push report).
 *
 * All or nothing: the body is validated whole (shape with the shared schemas, size, ownership of
 * every row, flights that exist and are listed) before anything is written, and the writes run in
 * one transaction. A bad push is refused with 4xx and writes nothing. The shared push schema refuses
 * text PostgreSQL cannot store and any field a document does not have ("Unknown field"), except
 * RxDB's own meta fields, which it drops (shared's `pushDocSchema`).
 */
export async function pushChanges(
  sql: Sql,
  caller: Caller | null,
  collection: SyncCollectionName,
  body: unknown,
  options: PushOptions = {},
): Promise<PushOutcome> {
  const partition = pushPartition(caller, collection);
  const writable = collection as WritableCollection;

  // Security: count before parsing, so an oversized batch costs no per-row validation.
  const rowCount = (body as { rows?: unknown } | null)?.rows;
  if (Array.isArray(rowCount) && rowCount.length > PUSH_MAX_ROWS) {
    throw new AppError(ErrorCode.PayloadTooLarge, `A push carries at most ${PUSH_MAX_ROWS} rows`, {
      rows: rowCount.length,
    });
  }
  const parsed = pushBodySchema(writable).safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));
    const first = issues[0];
    throw new AppError(
      ErrorCode.BadRequest,
      first ? `${first.path}: ${first.message}` : 'Invalid push',
      issues,
    );
  }
  const rows = parsed.data.rows as PushRow<WritableCollection>[];
  checkRows(writable, partition, rows);

  if (writable === 'reviewDrafts') {
    const drafts = rows as PushRow<'reviewDrafts'>[];
    return pushSlotsOf(sql)(() => pushReviewDrafts(sql, partition, drafts));
  }
  return pushInOneStatement(sql, writable, partition, rows, options.report === true);
}

/** The collections whose push is one call of `sync_push` (017 migration). */
type OneStatementCollection = Exclude<WritableCollection, 'reviewDrafts'>;

/** What `sync_push` decided for one push: the rows it did not write, and why. */
interface SyncPushAnswer {
  refused: string[];
  conflicts: string[];
  /**
   * The revision each accepted row has after the push (024 migration; absent when the push was
   * refused whole).
   */
  revisions?: Record<string, number>;
}

/**
 * A push to favourites, cart or preferences: one statement, `SELECT sync_push(…)` (017, 020 and
 * 024 migrations: the partition lock, the flight check, conflict detection against the assumed
 * master states and the writes, in push order). A statement is a transaction of its own, so the
 * push is one round trip with nothing to begin or commit, and its row triggers notify the change
 * feeds at its commit like every other writer's. Its answer names the rows it did not write; only
 * their documents go back, read after the commit (decision 027): a written row is stored with the
 * customer's fields as sent, and what the server adds to it (a favourite's time, the flight
 * summary) reaches the device with the change stream's echo of the write, as it reaches the
 * customer's other devices.
 */
async function pushInOneStatement(
  sql: Sql,
  collection: OneStatementCollection,
  partition: string,
  rows: readonly PushRow<WritableCollection>[],
  perRow: boolean,
): Promise<PushOutcome> {
  const functionRows = rows.map((row) => functionRow(collection, row));
  const [answer] = await pushSlotsOf(sql)(
    () => sql<{ outcome: SyncPushAnswer }[]>`
      SELECT sync_push(${collection}, ${partition}, ${sql.json(functionRows as never)}, ${perRow})
        AS outcome`,
  );
  const { refused, conflicts, revisions } = answer!.outcome;
  // The function wrote nothing in that case; the push is refused whole, as `PUT /api/cart` would.
  if (refused.length > 0 && !perRow)
    throw new AppError(ErrorCode.NotFound, FLIGHT_NOT_FOUND, { flightIds: refused });

  const unwritten = [...refused, ...conflicts];
  // The server's state of each row not written, as it stands now: the one the decision was made
  // against, or a later one, which RxDB takes the same way (the newest master wins).
  const current =
    unwritten.length > 0
      ? await selectDocuments(sql, collection, partition, unwritten)
      : new Map<string, Replicated<SyncCollectionName>>();
  const refusedIds = new Set(refused);
  const outcome: PushOutcome = {
    documents: [],
    conflicts,
    rejected: [],
    revisions: revisions ?? {},
  };
  for (const row of rows) {
    const id = row.newDocumentState.id;
    // Not written; the client keeps its change and learns why, and what the server has.
    if (refusedIds.has(id)) outcome.rejected.push({ id, reason: FLIGHT_NOT_FOUND });
    const master = current.get(id);
    if (master) outcome.documents.push(master);
  }
  return outcome;
}

/**
 * A row as `sync_push` takes it: the customer's own fields, and the assumed master state as the
 * client sent it. Which of its fields decide a conflict is the database's (`sync_owned_key`).
 */
function functionRow(collection: OneStatementCollection, row: PushRow<WritableCollection>) {
  const doc = row.newDocumentState as Partial<CartDoc & PreferencesDoc> & { _deleted: boolean };
  return {
    id: row.newDocumentState.id,
    deleted: doc._deleted,
    ...(collection === 'cart' && { amount: doc.amount }),
    ...(collection === 'preferences' && { theme: doc.theme }),
    assumed: row.assumedMasterState ?? null,
  };
}

/**
 * A push of review drafts: a transaction of its own, since a draft's outcome is decided by the
 * review rules (review-drafts.ts), between reads and writes, before it is written.
 */
async function pushReviewDrafts(
  sql: Sql,
  partition: string,
  rows: readonly PushRow<'reviewDrafts'>[],
): Promise<PushOutcome> {
  const writable = 'reviewDrafts';
  const ids = rows.map((row) => row.newDocumentState.id);
  return sql.begin(async (tx) => {
    // The lock is taken first, before any read: every writer that decides from this customer's
    // documents takes it, so between our read of the current documents and our writes nobody
    // else changes them. Conflict detection and the write are one atomic step; other customers
    // never wait.
    await lockPartition(tx, partition);
    await checkDraftOwners(tx, partition, ids);
    const current = await selectDocuments(tx, writable, partition, ids);
    const conflicting = await draftConflicts(tx, rows, current);

    const outcome: PushOutcome = { documents: [], conflicts: [], rejected: [] };
    const written: PushRow<'reviewDrafts'>[] = [];
    for (const row of rows) {
      const id = row.newDocumentState.id;
      const master = current.get(id);
      if (master && conflicting.has(id)) {
        outcome.documents.push(master);
        outcome.conflicts.push(id);
        continue;
      }
      // A draft's writer reads before it writes, so its rows go one after the other.
      await writeReviewDraft(tx, partition, row.newDocumentState, master);
      written.push(row);
    }
    if (written.length === 0) return outcome;

    // What the server kept of each written row; any difference from what was sent goes back.
    const after = await selectDocuments(
      tx,
      writable,
      partition,
      written.map((row) => row.newDocumentState.id),
    );
    for (const row of written) {
      const stored = after.get(row.newDocumentState.id);
      if (stored && !sameJson(stored, row.newDocumentState)) outcome.documents.push(stored);
      // A review draft the review rules refused is stored `rejected` with its reason.
      if (
        row.newDocumentState.status === 'pending' &&
        stored?.status === 'rejected' &&
        !stored._deleted
      )
        outcome.rejected.push({ id: row.newDocumentState.id, reason: stored.reason ?? '' });
    }
    return outcome;
  });
}

/**
 * How many pushes of one database handle run at once: all of its pool but two connections (at
 * least one). The pool alone would not bound them: postgres.js queues statements behind busy
 * connections, so a storm of pushes (hundreds of devices syncing at once) would sit on every
 * connection, and a pull, a stream's read or a session lookup would wait behind them, or behind a
 * push waiting for a customer's partition lock. With this limit two connections stay free for
 * those (checkout has a pool of its own, app.ts `syncSql`); the pushes beyond it wait here, in
 * order, outside the database (docs/decisions/032-one-plain-write-path.md).
 */
const RESERVED_CONNECTIONS = 2;
const pushSlots = new WeakMap<Sql, LimitFunction>();
function pushSlotsOf(sql: Sql): LimitFunction {
  let slots = pushSlots.get(sql);
  if (!slots) {
    slots = pLimit(Math.max(1, Number(sql.options.max) - RESERVED_CONNECTIONS));
    pushSlots.set(sql, slots);
  }
  return slots;
}

/** Ownership and id rules of every row, checked before any database access. */
function checkRows(
  collection: WritableCollection,
  partition: string,
  rows: readonly PushRow<WritableCollection>[],
) {
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const doc = row.newDocumentState;
    // Security: every row must be the caller's own; one foreign row refuses the whole push.
    if (
      doc.userId !== partition ||
      (row.assumedMasterState && row.assumedMasterState.userId !== partition)
    ) {
      throw new AppError(ErrorCode.Forbidden, messages.notAllowed, {
        reason: 'not_owner',
        row: index,
      });
    }
    if (row.assumedMasterState && row.assumedMasterState.id !== doc.id) {
      throw new AppError(
        ErrorCode.BadRequest,
        `rows.${index}: assumedMasterState is another document`,
      );
    }
    const expectedId =
      collection === 'preferences' ? doc.userId : 'flightId' in doc ? doc.flightId : doc.id;
    if (collection !== 'reviewDrafts' && doc.id !== expectedId) {
      throw new AppError(
        ErrorCode.BadRequest,
        `rows.${index}: id must be ${collection === 'preferences' ? 'the user id' : 'the flight id'}`,
      );
    }
    if (seen.has(doc.id))
      throw new AppError(ErrorCode.BadRequest, `rows.${index}: document ${doc.id} appears twice`);
    seen.add(doc.id);
  });
}

/**
 * Security: a draft id is chosen by the client; it must never reach someone else's draft. One
 * foreign id refuses the whole push.
 */
async function checkDraftOwners(tx: Queryable, partition: string, ids: readonly string[]) {
  const foreign =
    await tx`SELECT 1 FROM review_drafts WHERE id = ANY(${ids as string[]}::uuid[]) AND user_id <> ${partition}`;
  if (foreign.length > 0)
    throw new AppError(ErrorCode.Forbidden, messages.notAllowed, { reason: 'not_owner' });
}

/**
 * The ids of the drafts that conflict with their current document, as the database's rule decides
 * (`sync_push_conflict`, the one `sync_push` applies). A draft the server does not have is never a
 * conflict, so a push of new drafts asks nothing.
 */
async function draftConflicts(
  tx: Queryable,
  rows: readonly PushRow<'reviewDrafts'>[],
  current: ReadonlyMap<string, Replicated<'reviewDrafts'>>,
): Promise<Set<string>> {
  const judged = rows.flatMap(({ newDocumentState: { id }, assumedMasterState }) => {
    const master = current.get(id);
    return master ? [{ id, assumed: assumedMasterState ?? null, master }] : [];
  });
  if (judged.length === 0) return new Set();
  const conflicts = await tx<{ id: string }[]>`
    SELECT d.id FROM jsonb_to_recordset(${tx.json(judged as never)}) AS d(id text, assumed jsonb, master jsonb)
    WHERE sync_push_conflict('reviewDrafts', d.assumed, d.master)`;
  return new Set(conflicts.map((row) => row.id));
}

/**
 * How a pushed review draft is stored: only the customer's own fields are taken; its outcome is
 * the review rules'.
 */
async function writeReviewDraft(
  tx: postgres.TransactionSql,
  userId: string,
  doc: Replicated<'reviewDrafts'>,
  master: Replicated<'reviewDrafts'> | undefined,
): Promise<void> {
  if (doc._deleted) {
    // Dropping a draft locally never touches a review it became.
    await tx`UPDATE review_drafts SET deleted = true, updated_at = now()
        WHERE id = ${doc.id} AND user_id = ${userId} AND NOT deleted`;
    return;
  }
  const live = master && !master._deleted ? master : undefined;
  if (live?.status === 'accepted') return; // final: the server's state goes back to the client
  if (doc.status !== 'pending') {
    // Security: the outcome of a draft is the server's to decide, never the client's.
    if (live?.status === doc.status) return;
    throw new AppError(
      ErrorCode.BadRequest,
      'A review draft is pushed as pending; its outcome is set by the server',
    );
  }
  const outcome = await reviewFromDraft(tx, userId, doc);
  const reason = outcome.status === 'rejected' ? outcome.reason : null;
  await tx`
      INSERT INTO review_drafts (id, user_id, order_id, flight_id, rating, name, comment, status, reason)
      VALUES (${doc.id}, ${userId}, ${doc.orderId}, ${doc.flightId}, ${doc.rating}, ${doc.name}, ${doc.comment},
              ${outcome.status}, ${reason})
      ON CONFLICT (id) DO UPDATE SET order_id = EXCLUDED.order_id, flight_id = EXCLUDED.flight_id,
        rating = EXCLUDED.rating, name = EXCLUDED.name, comment = EXCLUDED.comment, status = EXCLUDED.status,
        reason = EXCLUDED.reason, deleted = false, updated_at = now()
      WHERE review_drafts.user_id = EXCLUDED.user_id`;
}
