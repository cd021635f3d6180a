import { Observable, Subject, share } from 'rxjs';
import type { FlightDoc, ReplicationCheckpoint } from '@skyport/shared';

/**
 * The device's copy of the catalogue, outside RxDB (docs/decisions/031-catalogue-replica-outside-
 * rxdb.md): one IndexedDB database with a table of flights keyed by id and nothing else, and a
 * table of this replica's state (where its pulls got to). The device never writes a flight: it
 * only takes the server's, from the snapshot and the pulls (sync/catalogue-replication.ts), and
 * every reader reads flights whole or by id. RxDB's storage kept three indexes and its own fields
 * on every flight, and on a new device the browser's IndexedDB thread spent 1.2-1.35× as long
 * writing them as writing the bare flights (decision 029).
 *
 * A write and the checkpoint it reaches are one transaction: the replica never holds documents
 * newer than its checkpoint says without them, nor a checkpoint without its documents.
 *
 * Changes are announced to the readers of this tab (`changes$`) and of the browser's other tabs
 * and workers (a BroadcastChannel named after the database): a few flights as they now are, or,
 * after a large write, `'reset'` (read again).
 */

/** A flight as the replica holds it: the server's document. */
export type CatalogueFlight = FlightDoc;

/** A pulled document: a flight, or the id of one the server deleted. */
export type PulledFlight = CatalogueFlight & { _deleted: boolean };

/** What a write changed: each flight as it now is (null: gone), or too many to list. */
export type CatalogueChange =
  | {
      readonly flights: readonly { readonly id: string; readonly flight: CatalogueFlight | null }[];
    }
  | 'reset';

/** Writes of more documents than this are announced as `'reset'`. */
export const LISTED_CHANGES = 100;

const FLIGHTS = 'flights';
const STATE = 'state';
const CHECKPOINT = 'checkpoint';

export interface CatalogueReplica {
  /** The IndexedDB database's name. */
  readonly name: string;
  /** Where the pulls got to; null before the first write that reached one. */
  checkpoint(): Promise<ReplicationCheckpoint | null>;
  /** The flights with these ids that the replica holds. */
  get(ids: readonly string[]): Promise<Map<string, CatalogueFlight>>;
  /** Up to `limit` flights after the id `after` (from the first without), by id: one request. */
  page(after: string | undefined, limit: number): Promise<CatalogueFlight[]>;
  count(): Promise<number>;
  /**
   * Writes pulled documents (deleted ones are removed) and, unless it is `undefined`, the
   * checkpoint they reach, in one transaction; then announces them, unless `announce` is false
   * (a snapshot's bulks: it announces `'reset'` once, at its end).
   */
  apply(
    documents: readonly PulledFlight[],
    checkpoint: ReplicationCheckpoint | null | undefined,
    options?: { announce?: boolean },
  ): Promise<void>;
  /** Removes every flight and the checkpoint (a new snapshot starts from nothing). */
  clear(): Promise<void>;
  /** Tells every reader to read again. */
  announceReset(): void;
  /** Changes written by this tab, another tab or a worker. */
  readonly changes$: Observable<CatalogueChange>;
  close(): void;
}

export interface OpenCatalogueReplicaOptions {
  /** The IndexedDB implementation (fake-indexeddb in tests); the browser's by default. */
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function done(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB write failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB write aborted'));
  });
}

function withoutDeletedFlag(doc: PulledFlight): CatalogueFlight {
  const { _deleted: _, ...flight } = doc;
  return flight;
}

/** Opens (creating it if need be) the replica named `name` (`catalogueReplicaName`). */
export async function openCatalogueReplica(
  name: string,
  options: OpenCatalogueReplicaOptions = {},
): Promise<CatalogueReplica> {
  const factory = options.indexedDB ?? indexedDB;
  const KeyRange = options.IDBKeyRange ?? IDBKeyRange;
  const opening = factory.open(name, 1);
  opening.onupgradeneeded = () => {
    const db = opening.result;
    if (!db.objectStoreNames.contains(FLIGHTS)) db.createObjectStore(FLIGHTS, { keyPath: 'id' });
    if (!db.objectStoreNames.contains(STATE)) db.createObjectStore(STATE);
  };
  const db = await request(opening);
  // Another tab deleting or upgrading the database must not wait for this one to close.
  db.onversionchange = () => db.close();

  const local = new Subject<CatalogueChange>();
  const channel =
    typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(`skyport:${name}`);
  const changes$ = new Observable<CatalogueChange>((subscriber) => {
    const mine = local.subscribe(subscriber);
    const fromOthers = (event: MessageEvent<CatalogueChange>) => subscriber.next(event.data);
    channel?.addEventListener('message', fromOthers);
    return () => {
      mine.unsubscribe();
      channel?.removeEventListener('message', fromOthers);
    };
  }).pipe(share());

  function announce(change: CatalogueChange) {
    local.next(change);
    channel?.postMessage(change);
  }

  return {
    name,
    changes$,
    async checkpoint() {
      const transaction = db.transaction(STATE, 'readonly');
      const value = await request(transaction.objectStore(STATE).get(CHECKPOINT));
      return (value as ReplicationCheckpoint | undefined) ?? null;
    },
    async get(ids) {
      const found = new Map<string, CatalogueFlight>();
      if (ids.length === 0) return found;
      const store = db.transaction(FLIGHTS, 'readonly').objectStore(FLIGHTS);
      const flights = await Promise.all(
        [...new Set(ids)].map((id) => request(store.get(id) as IDBRequest<CatalogueFlight>)),
      );
      for (const flight of flights) if (flight) found.set(flight.id, flight);
      return found;
    },
    async page(after, limit) {
      const store = db.transaction(FLIGHTS, 'readonly').objectStore(FLIGHTS);
      const range = after === undefined ? null : KeyRange.lowerBound(after, true);
      return (await request(store.getAll(range, limit))) as CatalogueFlight[];
    },
    async count() {
      const store = db.transaction(FLIGHTS, 'readonly').objectStore(FLIGHTS);
      return request(store.count());
    },
    async apply(documents, checkpoint, applyOptions = {}) {
      const transaction = db.transaction([FLIGHTS, STATE], 'readwrite', { durability: 'relaxed' });
      const written = done(transaction);
      const flights = transaction.objectStore(FLIGHTS);
      try {
        for (const doc of documents) {
          if (doc._deleted) flights.delete(doc.id);
          else flights.put(withoutDeletedFlag(doc));
        }
        if (checkpoint !== undefined) transaction.objectStore(STATE).put(checkpoint, CHECKPOINT);
      } catch (error) {
        // A document IndexedDB cannot store: nothing of the write stays.
        written.catch(() => undefined);
        transaction.abort();
        throw error;
      }
      await written;
      if (applyOptions.announce === false || documents.length === 0) return;
      announce(
        documents.length > LISTED_CHANGES
          ? 'reset'
          : {
              flights: documents.map((doc) => ({
                id: doc.id,
                flight: doc._deleted ? null : withoutDeletedFlag(doc),
              })),
            },
      );
    },
    async clear() {
      const transaction = db.transaction([FLIGHTS, STATE], 'readwrite');
      const cleared = done(transaction);
      transaction.objectStore(FLIGHTS).clear();
      transaction.objectStore(STATE).delete(CHECKPOINT);
      await cleared;
      announce('reset');
    },
    announceReset() {
      announce('reset');
    },
    close() {
      local.complete();
      channel?.close();
      db.close();
    },
  };
}
