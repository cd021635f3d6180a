import {
  PUSH_MAX_ROWS,
  SYNC_COLLECTION_INFO,
  messages,
  pushBodySchema,
  type CartDoc,
  type FavouriteDoc,
  type PreferencesDoc,
  type PushRejection,
  type ReviewDraftDoc,
  type SyncCollectionName,
  type SyncDoc,
  type WithDeletedFlag,
  type WritableSyncCollectionName,
} from '@skyport/shared';
import pLimit, { type LimitFunction } from 'p-limit';
import type postgres from 'postgres';
import type { Sql } from '../db/client.ts';
import { lockPartition } from '../db/locks.ts';
import { inPipelinedTransaction } from '../db/pipelined-transaction.ts';
import { FLIGHT_NOT_FOUND } from '../features/cart/queries.ts';
import { AppError, ErrorCode } from '../lib/errors.ts';
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
  /** The server's current document of every row it did not write exactly as sent. */
  documents: Replicated<SyncCollectionName>[];
  /** Rows not written because their assumed master state was outdated. */
  conflicts: string[];
  /** Rows refused, with the reason. */
  rejected: PushRejection[];
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
 * server's current document for every row it did not write exactly as sent: a conflict (someone
 * changed the document since the client read it), or a row the server completed (the flight
 * summary refreshed, a review draft accepted or rejected). The client replaces its copy with it.
 * The outcome also names the conflicts and the refused rows with their reasons (the push report).
 *
 * All or nothing: the body is validated whole (shape with the shared schemas, size, ownership of
 * every row, flights that exist and are listed) before anything is written, and the writes run in
 * one transaction. A bad push is refused with 4xx and writes nothing. The shared push schema refuses
 * text PostgreSQL cannot store and any field a document does not have ("Unknown field"), except
 * RxDB's own meta fields, which it drops (`RXDB_META_FIELDS`).
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

  const ids = rows.map((row) => row.newDocumentState.id);
  return pushSlotsOf(sql)(() =>
    inPipelinedTransaction(sql, async (tx, commit) => {
      // The lock is taken first, before any read: every writer that decides from this customer's
      // documents takes it, so between our read of the current documents and our writes nobody
      // else changes them. Conflict detection and the write are one atomic step; other customers
      // never wait. The three statements go out together with BEGIN (postgres.js pipelines the
      // queries of a reserved connection) and run in order: one round trip instead of four.
      const [, refused, current] = await Promise.all([
        lockPartition(tx, partition),
        checkReferences(tx, writable, partition, rows, options.report === true),
        selectDocuments(tx, writable, partition, ids),
      ]);

      const outcome: PushOutcome = { documents: [], conflicts: [], rejected: [] };
      const documents = outcome.documents as Replicated<WritableCollection>[];
      const written: PushRow<WritableCollection>[] = [];
      const writes: Promise<void>[] = [];
      for (const row of rows) {
        const id = row.newDocumentState.id;
        const master = current.get(id);
        const reason = refused.get(id);
        if (reason !== undefined) {
          // Not written; the client keeps its change and learns why, and what the server has.
          outcome.rejected.push({ id, reason });
          if (master) documents.push(master);
          continue;
        }
        if (isConflict(writable, row.assumedMasterState ?? null, master ?? null) && master) {
          documents.push(master);
          outcome.conflicts.push(id);
          continue;
        }
        const write = WRITERS[writable](
          tx,
          partition,
          row.newDocumentState as never,
          master as never,
        );
        // One-statement writers go out together with the read below (one round trip); a review
        // draft's writer reads before it writes, so its rows go one after the other.
        if (PIPELINED_WRITERS.has(writable)) writes.push(write);
        else await write;
        written.push(row);
      }
      if (written.length === 0) return outcome;

      // What the server kept of each written row; any difference from what was sent goes back.
      // Statements of a transaction run in the order they are sent: this read sees the writes,
      // and COMMIT goes out with them (one round trip).
      const [after] = await Promise.all([
        selectDocuments(
          tx,
          writable,
          partition,
          written.map((row) => row.newDocumentState.id),
        ),
        ...writes,
        commit(),
      ]);
      for (const row of written) {
        const stored = after.get(row.newDocumentState.id);
        if (stored && canonical(stored) !== canonical(row.newDocumentState)) documents.push(stored);
        const draft = stored as Partial<ReviewDraftDoc> | undefined;
        const sent = row.newDocumentState as Partial<ReviewDraftDoc>;
        // A review draft the review rules refused is stored `rejected` with its reason.
        if (sent.status === 'pending' && draft?.status === 'rejected' && !stored?._deleted)
          outcome.rejected.push({ id: row.newDocumentState.id, reason: draft.reason ?? '' });
      }
      return outcome;
    }),
  );
}

/**
 * How many push transactions of one instance run at once: all of its pool but two connections
 * (at least one). A push holds its connection for a few round trips; without a bound, a storm of
 * pushes (hundreds of devices syncing at once) takes every connection and a checkout queues
 * behind all of them. The rest wait here, in order, and the reserved connections stay free for
 * checkout, pulls and pages.
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
 * Rows that name flights or drafts must name the caller's own drafts, and flights that exist and,
 * for a favourite or cart line that is kept, are still in the catalogue: a deleted or unknown
 * flight is refused as `PUT /api/cart` refuses it ("Flight not found"): the whole push with 404,
 * or, when the client asked for the report (`perRow`), those rows alone (returned: row id →
 * reason). Removing a favourite or cart line of a deleted flight is allowed: that is how a
 * customer drops it. A deletion that commits between this check and the write is still seen: the
 * written line's document reads its flight when pulled and says `flightDeleted` (documents.ts),
 * and checkout refuses the flight.
 */
async function checkReferences(
  tx: Queryable,
  collection: WritableCollection,
  partition: string,
  rows: readonly PushRow<WritableCollection>[],
  perRow: boolean,
): Promise<Map<string, string>> {
  const refusedRows = new Map<string, string>();
  if (collection === 'favourites' || collection === 'cart') {
    const docs = rows.map((row) => row.newDocumentState as WithDeletedFlag<FavouriteDoc | CartDoc>);
    const flightIds = docs.map((doc) => doc.flightId);
    const found = await tx<
      { id: string; deleted: boolean }[]
    >`SELECT id, deleted FROM flights WHERE id = ANY(${flightIds}::uuid[])`;
    const deleted = new Map(found.map((row) => [row.id, row.deleted]));
    const refused = docs
      .filter((doc) => !deleted.has(doc.flightId) || (deleted.get(doc.flightId) && !doc._deleted))
      .map((doc) => doc.flightId);
    if (refused.length > 0 && !perRow)
      throw new AppError(ErrorCode.NotFound, FLIGHT_NOT_FOUND, { flightIds: refused });
    // A favourite's and a cart line's id is its flight id (checkRows).
    for (const flightId of refused) refusedRows.set(flightId, FLIGHT_NOT_FOUND);
  }
  if (collection === 'reviewDrafts') {
    const ids = rows.map((row) => row.newDocumentState.id);
    const foreign =
      await tx`SELECT 1 FROM review_drafts WHERE id = ANY(${ids}::uuid[]) AND user_id <> ${partition}`;
    // Security: a draft id is chosen by the client; it must never reach someone else's draft.
    if (foreign.length > 0)
      throw new AppError(ErrorCode.Forbidden, messages.notAllowed, { reason: 'not_owner' });
  }
  return refusedRows;
}

/**
 * The fields of a document the customer decides (the rest is the server's: flight snapshots,
 * timestamps, a draft's outcome reason). Two states with the same key are the same for conflict
 * detection; a tombstone counts as no document.
 */
const OWNED_FIELDS: Readonly<Record<WritableCollection, readonly string[]>> = {
  favourites: [],
  cart: ['amount'],
  preferences: ['theme'],
  reviewDrafts: ['orderId', 'flightId', 'rating', 'name', 'comment', 'status'],
};

function ownedKey(
  collection: WritableCollection,
  doc: Replicated<WritableCollection> | null,
): string {
  if (doc === null || doc._deleted) return 'absent';
  const record = doc as unknown as Record<string, unknown>;
  return JSON.stringify(OWNED_FIELDS[collection].map((field) => record[field] ?? null));
}

/**
 * Whether a row conflicts: the client derived it from a state that is no longer the server's.
 * A document the server never had (or only as a tombstone the client did not see) is no
 * conflict, so a fresh client re-adding a favourite is simply written.
 */
function isConflict(
  collection: WritableCollection,
  assumed: Replicated<WritableCollection> | null,
  master: Replicated<WritableCollection> | null,
): boolean {
  if (master === null) return false;
  if (assumed === null && master._deleted) return false;
  return ownedKey(collection, assumed) !== ownedKey(collection, master);
}

/** JSON with sorted keys, for comparing a stored document with the one pushed. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

type Writer<C extends WritableCollection> = (
  tx: postgres.TransactionSql | postgres.ReservedSql,
  userId: string,
  doc: Replicated<C>,
  master: Replicated<C> | undefined,
) => Promise<void>;

/** Collections whose writer is one statement that reads nothing first (see `pushChanges`). */
const PIPELINED_WRITERS: ReadonlySet<WritableCollection> = new Set([
  'favourites',
  'cart',
  'preferences',
]);

/** How each collection stores a pushed document. Only the customer's own fields are taken. */
const WRITERS: { [C in WritableCollection]: Writer<C> } = {
  async favourites(tx, userId, doc: WithDeletedFlag<FavouriteDoc>) {
    if (doc._deleted) {
      await tx`UPDATE favourites SET deleted = true
        WHERE user_id = ${userId} AND flight_id = ${doc.flightId} AND NOT deleted`;
      return;
    }
    await tx`
      INSERT INTO favourites (user_id, flight_id) VALUES (${userId}, ${doc.flightId})
      ON CONFLICT (user_id, flight_id) DO UPDATE SET deleted = false, created_at = now()
      WHERE favourites.deleted`;
  },

  async cart(tx, userId, doc: WithDeletedFlag<CartDoc>) {
    if (doc._deleted) {
      await tx`UPDATE cart_lines SET deleted = true, updated_at = now()
        WHERE user_id = ${userId} AND flight_id = ${doc.flightId} AND NOT deleted`;
      return;
    }
    // The amount is the customer's; stock is checked at checkout, which refuses what is short.
    await tx`
      INSERT INTO cart_lines (user_id, flight_id, amount) VALUES (${userId}, ${doc.flightId}, ${doc.amount})
      ON CONFLICT (user_id, flight_id) DO UPDATE SET amount = EXCLUDED.amount, deleted = false, updated_at = now()
      WHERE cart_lines.deleted OR cart_lines.amount <> EXCLUDED.amount`;
  },

  async preferences(tx, userId, doc: WithDeletedFlag<PreferencesDoc>) {
    await tx`
      INSERT INTO preferences (user_id, theme, deleted) VALUES (${userId}, ${doc.theme}, ${doc._deleted})
      ON CONFLICT (user_id) DO UPDATE SET theme = EXCLUDED.theme, deleted = EXCLUDED.deleted, updated_at = now()
      WHERE preferences.theme <> EXCLUDED.theme OR preferences.deleted <> EXCLUDED.deleted`;
  },

  async reviewDrafts(tx, userId, doc: WithDeletedFlag<ReviewDraftDoc>, master) {
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
  },
};
