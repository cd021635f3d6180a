import type { PushRejection, WritableSyncCollectionName } from '@skyport/shared';
import type {
  AcceptedChange,
  ChangeJournal,
  ConflictChange,
  JournalDoc,
  KeptRefusal,
  RefusedChange,
} from '../db/change-journal.ts';
import type { SkyportDatabase } from '../db/database.ts';
import { clearChangeJournal, readChangeJournal, writeChangeJournal } from '../db/local-state.ts';
import { createStore } from '../lib/store.ts';

export type { AcceptedChange, ConflictChange, RefusedChange } from '../db/change-journal.ts';

/**
 * Where each change made on this device stands (docs/architecture.md §4.4, decision 017):
 *
 * - **waiting**: written locally, not yet acknowledged by the server. Not journaled: RxDB's own
 *   replication records say it (unsent-changes.ts), with the document's last local write time;
 * - **accepted**: the server wrote it (the most recent `ACCEPTED_KEPT`);
 * - **refused**: the server would not write it, with its reason (the push report's `rejected`, or
 *   the message of a push refused whole). The device keeps the change as it was made until the
 *   customer fixes it (edits it again, which sends it again) or discards it (back to the server's
 *   state); a refused review draft is stored refused on the server, and its document says so;
 * - **conflict**: another device changed the same document first; the server's version was kept
 *   (RxDB's default conflict handler) and the customer is told what was kept, until they have
 *   seen it.
 *
 * Kept in memory and in a device-local RxDB document (db/local-state.ts), one journal per
 * signed-in user, never replicated. Plain store, no React.
 */

export type ChangeCollection = WritableSyncCollectionName;

/** A change not yet acknowledged by the server. */
export interface WaitingChange {
  collection: ChangeCollection;
  id: string;
  /** The document's last local write, ms since the epoch. */
  since: number;
  doc: JournalDoc;
}

export interface ChangeStates {
  waiting: readonly WaitingChange[];
  refused: readonly RefusedChange[];
  conflicts: readonly ConflictChange[];
  accepted: readonly AcceptedChange[];
}

/** A push row as RxDB hands it to the push handler. */
export interface PushedRow {
  newDocumentState: JournalDoc;
  assumedMasterState?: JournalDoc | null | undefined;
}

/**
 * What the server answered to a push: the report (`conflicts`, `rejected` known), or the bare
 * array of an older server (only `documents`).
 */
export interface PushAnswer {
  documents: JournalDoc[];
  conflicts?: readonly string[];
  rejected?: readonly PushRejection[];
}

export interface ChangeTracker {
  getSnapshot(): ChangeStates;
  subscribe(listener: () => void): () => void;
  /** Loads the journal of the user now signed in (null: a guest; nothing is tracked). */
  setUser(userId: string | null): Promise<void>;
  /** The changes of a collection waiting to be sent (null: unknown, or no longer replicated). */
  setWaiting(collection: ChangeCollection, waiting: readonly WaitingChange[] | null): void;
  /** The row as it must be sent: a kept refusal goes with the server's real state. */
  rowToSend<R extends PushedRow>(collection: ChangeCollection, row: R): R;
  /**
   * Pulled documents as RxDB must take them: the server's new state of a refused change the
   * device keeps becomes that refusal's server state, and RxDB gets it with the customer's change
   * still on top, so that the change stays as made until it is fixed or discarded.
   */
  pulled<D extends JournalDoc>(collection: ChangeCollection, docs: D[]): D[];
  /**
   * Records the server's answer to a push of `rows` and returns the documents RxDB must take as
   * the server's: all of them, except those of refused rows the device keeps as made.
   */
  recordPush(
    collection: ChangeCollection,
    rows: readonly PushedRow[],
    answer: PushAnswer,
  ): JournalDoc[];
  /** A row of a push refused whole (narrowed down to it): kept as made, with the reason. */
  recordRefusal(collection: ChangeCollection, row: PushedRow, reason: string): void;
  /** The refused change is no longer shown (discarded: its document is back to the server's). */
  forgetRefusal(collection: ChangeCollection, id: string): void;
  /** The customer has seen the conflict. */
  dismissConflict(collection: ChangeCollection, id: string): void;
  /** Forgets everything (logout); the stored journal goes too. */
  clear(): Promise<void>;
  /** Resolves when the journal as it is now has been stored (tests). */
  saved(): Promise<void>;
}

/** How many accepted changes are remembered. */
export const ACCEPTED_KEPT = 20;

const EMPTY: ChangeStates = { waiting: [], refused: [], conflicts: [], accepted: [] };

/** A document's fields, without RxDB's meta fields, as comparable JSON (sorted keys). */
export function documentContent(doc: JournalDoc | null | undefined): string {
  if (!doc) return 'null';
  const { _meta, _rev, _attachments, ...fields } = doc as Record<string, unknown>;
  void _meta;
  void _rev;
  void _attachments;
  return JSON.stringify(fields, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/**
 * The fields of a document that are the customer's to change (and the tombstone flag); the server
 * fills the others from its own data, such as the flight snapshot of a cart line or favourite
 * (shared/src/schemas/replication.ts).
 */
const CUSTOMER_FIELDS: Record<ChangeCollection, readonly string[]> = {
  cart: ['amount', '_deleted'],
  favourites: ['_deleted'],
  preferences: ['theme', '_deleted'],
  reviewDrafts: ['rating', 'name', 'comment', '_deleted'],
};

/**
 * The server's new document with the customer's refused change on top: the customer's fields as
 * the attempt made them, the rest as the server now has them.
 */
function withChangeOnTop<D extends JournalDoc>(
  collection: ChangeCollection,
  serverDoc: D,
  attempted: JournalDoc,
): D {
  const mine = CUSTOMER_FIELDS[collection].filter((field) => field in attempted);
  return { ...serverDoc, ...Object.fromEntries(mine.map((field) => [field, attempted[field]])) };
}

/** Whether two states of a document agree on everything that is the customer's. */
function sameCustomerFields(
  collection: ChangeCollection,
  a: JournalDoc,
  b: JournalDoc | null,
): boolean {
  return (
    b !== null &&
    CUSTOMER_FIELDS[collection].every(
      (field) => JSON.stringify(a[field] ?? null) === JSON.stringify(b[field] ?? null),
    )
  );
}

const same = (a: { collection: string; id: string }, collection: string, id: string) =>
  a.collection === collection && a.id === id;
const without = <T extends { collection: string; id: string }>(
  list: readonly T[],
  collection: string,
  id: string,
) => list.filter((item) => !same(item, collection, id));

export function createChangeTracker(
  db: SkyportDatabase,
  clock: () => number = Date.now,
): ChangeTracker {
  let userId: string | null = null;
  let refused: RefusedChange[] = [];
  let conflicts: ConflictChange[] = [];
  let accepted: AcceptedChange[] = [];
  let kept: KeptRefusal[] = [];
  const waiting = new Map<ChangeCollection, readonly WaitingChange[]>();
  const store = createStore<ChangeStates>(EMPTY);
  let saving: Promise<void> = Promise.resolve();

  function publish() {
    store.set({
      waiting: [...waiting.values()].flat().sort((a, b) => a.since - b.since),
      refused,
      conflicts,
      accepted,
    });
  }

  /** Stores the journal (writes one after the other; a failed write is retried by the next). */
  function persist() {
    if (userId === null) return;
    const journal: ChangeJournal = { userId, refused, conflicts, accepted, kept };
    saving = saving.then(() => writeChangeJournal(db, journal)).catch(() => undefined);
  }

  function changed() {
    publish();
    persist();
  }

  return {
    getSnapshot: store.get,
    subscribe: store.subscribe,
    async setUser(next) {
      if (next === userId) return;
      userId = next;
      const journal = next === null ? null : await readChangeJournal(db, next).catch(() => null);
      refused = journal?.refused ?? [];
      conflicts = journal?.conflicts ?? [];
      accepted = journal?.accepted ?? [];
      kept = journal?.kept ?? [];
      waiting.clear();
      publish();
    },
    setWaiting(collection, list) {
      if (list === null) waiting.delete(collection);
      else waiting.set(collection, list);
      publish();
    },
    rowToSend(collection, row) {
      const id = row.newDocumentState.id;
      const refusal = kept.find((item) => same(item, collection, id));
      if (!refusal) return row;
      // RxDB believes the server has the refused change (it was kept as made, and every pull of
      // the document since came with the change on top: `pulled`); the server has this.
      return { ...row, assumedMasterState: refusal.server ?? undefined };
    },
    pulled(collection, docs) {
      if (!kept.some((item) => item.collection === collection)) return docs;
      let touched = false;
      const result = docs.map((doc) => {
        const refusal = kept.find((item) => same(item, collection, doc.id));
        if (!refusal) return doc;
        touched = true;
        const believed = withChangeOnTop(collection, doc, refusal.attempted);
        kept = [
          ...without(kept, collection, doc.id),
          { collection, id: doc.id, attempted: believed, server: doc },
        ];
        // Discarding now goes back to the server's new state.
        refused = refused.map((item) =>
          same(item, collection, doc.id) ? { ...item, server: doc } : item,
        );
        return believed;
      });
      if (touched) changed();
      return result;
    },
    recordPush(collection, rows, answer) {
      const at = clock();
      const returned = new Map(answer.documents.map((doc) => [doc.id, doc]));
      const conflicted = new Set(answer.conflicts ?? []);
      const reasons = new Map((answer.rejected ?? []).map((item) => [item.id, item.reason]));
      const withheld = new Set<string>();
      for (const row of rows) {
        const id = row.newDocumentState.id;
        const server = returned.get(id) ?? null;
        // Any answer about a document replaces what was known of it.
        kept = without(kept, collection, id);
        refused = without(refused, collection, id);
        const reason = reasons.get(id);
        if (reason !== undefined) {
          refused.push({ collection, id, at, reason, attempted: row.newDocumentState, server });
          // A refused draft is stored refused: the server's document is the outcome. Any other
          // refused change stays on the device as made, until it is fixed or discarded.
          if (collection !== 'reviewDrafts') {
            withheld.add(id);
            kept.push({ collection, id, attempted: row.newDocumentState, server });
          }
        } else if (
          conflicted.has(id) &&
          !row.assumedMasterState &&
          sameCustomerFields(collection, row.newDocumentState, server)
        ) {
          // Sent as new (the replication had no record of the server's state: pulled-marker.ts)
          // but the server has it as the customer has it: nothing was lost, nothing to tell.
          // Wholly equal, it goes back to RxDB as no conflict, which records it as the server's
          // state; otherwise RxDB takes the server's document (its own fields refreshed).
          accepted = [
            ...without(accepted, collection, id),
            { collection, id, at, doc: server ?? row.newDocumentState },
          ].slice(-ACCEPTED_KEPT);
          if (documentContent(server) === documentContent(row.newDocumentState)) withheld.add(id);
        } else if (conflicted.has(id)) {
          conflicts = without(conflicts, collection, id);
          conflicts.push({ collection, id, at, mine: row.newDocumentState, kept: server });
        } else {
          accepted = [
            ...without(accepted, collection, id),
            { collection, id, at, doc: server ?? row.newDocumentState },
          ].slice(-ACCEPTED_KEPT);
        }
      }
      refused = [...refused];
      conflicts = [...conflicts];
      changed();
      return answer.documents.filter((doc) => !withheld.has(doc.id));
    },
    recordRefusal(collection, row, reason) {
      const id = row.newDocumentState.id;
      const server = row.assumedMasterState ?? null;
      kept = [
        ...without(kept, collection, id),
        { collection, id, attempted: row.newDocumentState, server },
      ];
      refused = [
        ...without(refused, collection, id),
        { collection, id, at: clock(), reason, attempted: row.newDocumentState, server },
      ];
      changed();
    },
    forgetRefusal(collection, id) {
      refused = without(refused, collection, id);
      changed();
    },
    dismissConflict(collection, id) {
      conflicts = without(conflicts, collection, id);
      changed();
    },
    async clear() {
      refused = [];
      conflicts = [];
      accepted = [];
      kept = [];
      waiting.clear();
      publish();
      const wasUser = userId;
      userId = null;
      await saving;
      if (wasUser !== null) await clearChangeJournal(db).catch(() => undefined);
    },
    saved: () => saving,
  };
}

/** What a screen shows on one item (a cart line, a favourite) about its latest change. */
export type ItemChangeState =
  | { kind: 'waiting'; since: number }
  | { kind: 'refused'; reason: string }
  | { kind: 'conflict'; kept: JournalDoc | null };

/**
 * The state of each changed document of `collection`, by id: refused first (it needs the
 * customer), then a conflict not yet seen, then waiting. Accepted changes show nothing.
 */
export function itemChangeStates(
  states: ChangeStates,
  collection: ChangeCollection,
): ReadonlyMap<string, ItemChangeState> {
  const byId = new Map<string, ItemChangeState>();
  for (const change of states.waiting)
    if (change.collection === collection)
      byId.set(change.id, { kind: 'waiting', since: change.since });
  for (const change of states.conflicts)
    if (change.collection === collection)
      byId.set(change.id, { kind: 'conflict', kept: change.kept });
  for (const change of states.refused)
    if (change.collection === collection)
      byId.set(change.id, { kind: 'refused', reason: change.reason });
  return byId;
}
