import { randomUUID } from 'node:crypto';
import { indexedDB } from 'fake-indexeddb';
import { interval, switchMap } from 'rxjs';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  SYNC_PROTOCOL_VERSION,
  SYNC_VERSION_HEADER,
  cartLineFromFlight,
  type CartDoc,
  type Flight,
} from '@skyport/shared';
import { getChangedDocumentsSince } from 'rxdb';
import type { RxStorageInstanceDexie } from 'rxdb/plugins/storage-dexie';
import { closeLocalData, type LocalData } from '../data/local-data.ts';
import { incrementLine } from '../features/cart/data/cart.ts';
import { catalogueOf, openTestDatabase, startTestEngine, until } from '../test/test-device.ts';
import { startTestServer, type TestServer } from './test-server.ts';
import { listUnsentChanges } from './unsent-changes.ts';

/**
 * A device whose storage lost RxDB's record of a pulled document (decision 017, "Seen while
 * testing"): the replication writes a pulled document and its record of the server's state (its
 * meta document, the assumed master state) and its checkpoints in separate IndexedDB
 * transactions, and a page reloaded between them keeps the document without the rest. On the
 * next start the line must still count as the server's: not told as a conflict ("1 needs you";
 * the server answers one for a line it has that is pushed as new), not waiting to be sent, and
 * its next change sent against the server's state and kept, not taken for a conflict and rolled
 * back. Each test fails without one of the three parts of the fix (replication.ts
 * `recordLostServerStates` and `withoutPulledStates`, change-states.ts `recordPush`).
 */

/** Each test opens the device two or three times against a server of its own. */
const SLOW = 60_000;

let server: TestServer;
let flights: Flight[];
const opened: LocalData[] = [];
/** The rows of every cart push the device sent. */
const cartPushes: { newDocumentState: { id: string }; assumedMasterState?: unknown }[][] = [];

const headers = () => ({
  [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION),
  Authorization: `Bearer ${server.actors.customer.token}`,
});

/** The customer's cart as the server has it. */
async function serverCart(): Promise<CartDoc[]> {
  const response = await fetch(`${server.url}/api/sync/cart/pull?limit=1000`, {
    headers: headers(),
  });
  const body = (await response.json()) as { documents: (CartDoc & { _deleted: boolean })[] };
  return body.documents.filter((doc) => !doc._deleted);
}

/** Another device of the customer pushes a cart line (over HTTP, as its sync client would). */
async function pushElsewhere(doc: CartDoc, assumed?: CartDoc) {
  const response = await fetch(`${server.url}/api/sync/cart/push`, {
    method: 'POST',
    headers: { ...headers(), 'Content-Type': 'application/json' },
    body: JSON.stringify({
      rows: [{ newDocumentState: { ...doc, _deleted: false }, assumedMasterState: assumed }],
    }),
  });
  expect(response.status).toBe(200);
}

/** Another device of the customer puts a line of `flight` in the cart (a push over HTTP). */
async function addLineElsewhere(flight: Flight) {
  await pushElsewhere({
    ...cartLineFromFlight(flight),
    id: flight.id,
    userId: server.actors.customer.id!,
  });
}

/** The device (on the database `name`), signed in as the server's customer and in sync. */
async function openDevice(name: string): Promise<LocalData> {
  const db = await openTestDatabase({ name });
  const engine = await startTestEngine(server, db, {
    token: () => server.actors.customer.token,
    fetch: async (input, init) => {
      const url = new URL(String(input));
      if (url.pathname.endsWith('/sync/cart/push'))
        cartPushes.push((JSON.parse(String(init?.body)) as { rows: never[] }).rows);
      return fetch(input, init);
    },
  });
  const device = { db, catalogue: catalogueOf(db), engine };
  opened.push(device);
  await engine.setUser({ id: server.actors.customer.id!, role: 'customer', airlineId: null });
  await engine.awaitInSync();
  return device;
}

async function closeDevice(device: LocalData) {
  opened.splice(opened.indexOf(device), 1);
  await closeLocalData(device);
}

/**
 * The name of the IndexedDB database of the cart replication's records (its meta instance: the
 * server's state of each document, the checkpoints), read while the device is open.
 */
async function metaDatabaseOfCart(device: LocalData): Promise<string> {
  const meta = device.engine.replication('cart')!.state.metaInstance as
    RxStorageInstanceDexie<unknown> | undefined;
  return (await meta!.internals).dexieDb.name;
}

/** Runs `work` on the `docs` store of an IndexedDB database of RxDB's Dexie storage. */
function withDocsStore<T>(name: string, work: (store: IDBObjectStore) => () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const idb = request.result;
      const transaction = idb.transaction('docs', 'readwrite');
      const result = work(transaction.objectStore('docs'));
      transaction.oncomplete = () => {
        idb.close();
        resolve(result());
      };
      transaction.onerror = () => reject(transaction.error);
    };
  });
}

/** Every record of such a database. */
function readRecords(name: string): Promise<unknown[]> {
  return withDocsStore(name, (store) => {
    const all = store.getAll();
    return () => all.result as unknown[];
  });
}

/** Puts such a database back to `records` (what it held when they were read). */
function restoreRecords(name: string, records: unknown[]): Promise<void> {
  return withDocsStore(name, (store) => {
    store.clear();
    for (const record of records) store.put(record);
    return () => undefined;
  });
}

/**
 * Deletes the records of an IndexedDB database of RxDB's Dexie storage (its `docs` store) but
 * those whose key `keep` names; answers the keys it deleted.
 */
function deleteRecords(name: string, keep: (key: string) => boolean): Promise<string[]> {
  return withDocsStore(name, (store) => {
    const deleted: string[] = [];
    const cursor = store.openCursor();
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (!at) return;
      if (!keep(String(at.primaryKey))) {
        deleted.push(String(at.primaryKey));
        at.delete();
      }
      at.continue();
    };
    return () => deleted;
  });
}

// A server of its own for each test: the customer's cart holds the one line the test puts there.
beforeEach(async () => {
  server = await startTestServer({ flights: 3 });
  const response = await fetch(`${server.url}/api/sync/flights/pull?limit=100`, {
    headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
  });
  flights = ((await response.json()) as { documents: Flight[] }).documents;
});

afterEach(async () => {
  for (const device of opened.splice(0)) await closeLocalData(device);
  cartPushes.length = 0;
  await server?.stop();
});

/**
 * The device pulls a line of `flight` that another device put in the cart, then loses the
 * replication's records of the cart but those `keep` names (a reload between the writes), and is
 * opened again (the page after the reload), signed in and in sync.
 */
async function reopenedAfterLostRecords(flight: Flight, keep: (key: string) => boolean) {
  await addLineElsewhere(flight);
  const name = `lost-record-${randomUUID()}`;
  const first = await openDevice(name);
  expect((await first.db.collections.cart.findOne(flight.id).exec())?.amount).toBe(1);
  // The push side has looked at everything pulled (its checkpoint is written after that).
  const replication = first.engine.replication('cart')!.state;
  await until(
    interval(20).pipe(
      switchMap(async () => {
        const [up] = await replication.metaInstance!.findDocumentsById(['up|1'], false);
        if (!up) return false;
        const fork = replication.internalReplicationState!.input.forkInstance;
        return (
          (await getChangedDocumentsSince(fork, 100, up.checkpointData)).documents.length === 0
        );
      }),
    ),
    Boolean,
  );
  const metaDb = await metaDatabaseOfCart(first);
  await closeDevice(first);
  const deleted = await deleteRecords(metaDb, keep);
  // The line's record of the server's state and the pull's checkpoint at least.
  expect(deleted).toEqual(expect.arrayContaining([`${flight.id}|0`, 'down|1']));
  cartPushes.length = 0;
  const device = await openDevice(name);
  expect((await device.db.collections.cart.findOne(flight.id).exec())?.amount).toBe(1);
  return device;
}

/** The customer adds a ticket: it must be sent against the server's state and accepted. */
async function addTicketAccepted(device: LocalData, flight: Flight) {
  await incrementLine(device, flight.id);
  await device.engine.awaitInSync();
  expect((await serverCart()).find((line) => line.id === flight.id)?.amount).toBe(2);
  expect((await device.db.collections.cart.findOne(flight.id).exec())?.amount).toBe(2);
  expect(device.engine.changes.getSnapshot().conflicts).toEqual([]);
  const [push] = cartPushes
    .filter((rows) => rows.some((row) => row.newDocumentState.id === flight.id))
    .slice(-1);
  expect(
    push?.find((row) => row.newDocumentState.id === flight.id)?.assumedMasterState,
  ).toMatchObject({ amount: 1 });
}

test(
  'a pulled cart line whose records and checkpoints were all lost is not told as a conflict, and its next change is accepted',
  async () => {
    const flight = flights[0]!;
    const device = await reopenedAfterLostRecords(flight, () => false);
    // (The push's first look at the collection, from no checkpoint, offers the line as new.)
    expect(device.engine.changes.getSnapshot().conflicts).toEqual([]);
    // Nothing is waiting to be sent: the line is recorded as the server's.
    expect(await listUnsentChanges(device.engine.replication('cart')!)).toEqual([]);
    await addTicketAccepted(device, flight);
  },
  SLOW,
);

test(
  'a pulled cart line whose record was lost while the push checkpoint was kept is recorded again by the next pull, and its next change is accepted',
  async () => {
    const flight = flights[0]!;
    const device = await reopenedAfterLostRecords(flight, (key) => key === 'up|1');
    expect(cartPushes).toEqual([]);
    expect(await listUnsentChanges(device.engine.replication('cart')!)).toEqual([]);
    await addTicketAccepted(device, flight);
  },
  SLOW,
);

test(
  'a pulled change of a cart line whose record was lost (the older one stayed) is not sent back as a conflict, and its next change is accepted',
  async () => {
    const flight = flights[0]!;
    await addLineElsewhere(flight);
    const name = `lost-record-${randomUUID()}`;
    const first = await openDevice(name);
    const metaDb = await metaDatabaseOfCart(first);
    await closeDevice(first);
    const before = await readRecords(metaDb);
    expect(before).toContainEqual(expect.objectContaining({ id: `${flight.id}|0` }));

    // Another device sets 3 tickets; the device pulls that change, then loses the records of that
    // pull (the record of the line's server state, the checkpoints): the older ones stay.
    const [line] = await serverCart();
    await pushElsewhere({ ...line!, amount: 3 }, line!);
    const second = await openDevice(name);
    expect((await second.db.collections.cart.findOne(flight.id).exec())?.amount).toBe(3);
    await closeDevice(second);
    await restoreRecords(metaDb, before);
    cartPushes.length = 0;

    const device = await openDevice(name);
    expect((await device.db.collections.cart.findOne(flight.id).exec())?.amount).toBe(3);
    expect(device.engine.changes.getSnapshot().conflicts).toEqual([]);
    expect(await listUnsentChanges(device.engine.replication('cart')!)).toEqual([]);
    await incrementLine(device, flight.id);
    await device.engine.awaitInSync();
    expect((await serverCart()).find((doc) => doc.id === flight.id)?.amount).toBe(4);
    expect((await device.db.collections.cart.findOne(flight.id).exec())?.amount).toBe(4);
    expect(device.engine.changes.getSnapshot().conflicts).toEqual([]);
  },
  SLOW,
);
