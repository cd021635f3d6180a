/// <reference types="node" />
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { createRxDatabase, type RxJsonSchema } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cartLineFromFlight, saleFlightOf, type SaleFlight } from '@skyport/shared';
import type { SyncEngine, SyncUser } from '../sync/engine.ts';
import { startTestServer, type TestServer } from '../sync/test-server.ts';
import { readGuestState, writeGuestState, type GuestState } from '../test/guest-state.ts';
import {
  catalogueOf,
  localFlight,
  openTestDatabase,
  serverRows,
  startTestEngine,
} from '../test/test-device.ts';
import type { SkyportDatabase, SkyportSchemas } from './database.ts';
import { COLLECTION_VERSIONS, LOCAL_LAYOUT } from './layout.ts';
import { readGuestCart, writeGuestCart } from './local-state.ts';
import { allRxSchemas } from './schemas.ts';
import { cartDoc, favouriteDoc, flightDoc } from './test-docs.ts';

/**
 * A change of the local layout keeps the device's data (issue 14): a database of an older
 * layout (db/layouts/, recorded as the app built it) holding a customer's changes made offline
 * and a guest's cart opens in the current layout with all of them, still queued: they reach the
 * real server (sync-server/src/sync/test-server.ts) once the replication runs, as they would have
 * without the upgrade. An airline's sales stay readable, and are pulled again when their documents
 * gained a field (issue 16). Public replicas of an older layout are dropped and pulled again
 * instead, and the flights of a layout before 6 leave the database. RxDB on fake-indexeddb.
 */

let server: TestServer;
const open: SkyportDatabase[] = [];
/** What is waited for comes in milliseconds, or never: a bound that holds on a busy machine. */
const WAIT = { timeout: 10_000 };
const engines: SyncEngine[] = [];

beforeAll(async () => {
  server = await startTestServer({ flights: 10 });
});

afterAll(async () => {
  for (const engine of engines) await engine.stop();
  for (const db of open) if (!db.closed) await db.close();
  await server?.stop();
});

/** A recorded layout (layouts before 6 also hold the flights' schema). */
function layout(number: number): SkyportSchemas & { flights: RxJsonSchema<unknown> } {
  return JSON.parse(
    readFileSync(new URL(`./layouts/layout-${number}.json`, import.meta.url), 'utf8'),
  ) as SkyportSchemas & { flights: RxJsonSchema<unknown> };
}

async function openDatabase(name: string, schemas?: SkyportSchemas): Promise<SkyportDatabase> {
  // As in the app: a migration then runs under RxDB's leader election between tabs.
  const db = await openTestDatabase({ name, multiInstance: true, schemas });
  open.push(db);
  return db;
}

async function startEngine(db: SkyportDatabase, token: string | null): Promise<SyncEngine> {
  const engine = await startTestEngine(server, db, { token: () => token });
  engines.push(engine);
  return engine;
}

/** Records in every object store of an IndexedDB database (0 when it does not exist). */
async function storedRecords(database: string): Promise<number> {
  const names = (await indexedDB.databases()).map((info) => info.name);
  if (!names.includes(database)) return 0;
  const idb = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(database);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    let total = 0;
    for (const store of idb.objectStoreNames) {
      total += await new Promise<number>((resolve, reject) => {
        const request = idb.transaction(store).objectStore(store).count();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    }
    return total;
  } finally {
    idb.close();
  }
}

function rows<T>(table: string): Promise<T[]> {
  return serverRows<T>(server, table);
}

interface CartRow {
  user_id: string;
  flight_id: string;
  amount: number;
  deleted: boolean;
}
interface FavouriteRow {
  user_id: string;
  flight_id: string;
  deleted: boolean;
}

async function serverCart(userId: string): Promise<[string, number][]> {
  return (await rows<CartRow>('cart_lines'))
    .filter((row) => row.user_id === userId && !row.deleted)
    .map((row): [string, number] => [row.flight_id, row.amount])
    .sort();
}

async function serverFavourites(userId: string): Promise<string[]> {
  return (await rows<FavouriteRow>('favourites'))
    .filter((row) => row.user_id === userId && !row.deleted)
    .map((row) => row.flight_id)
    .sort();
}

/** The last layout before the customer's collections changed (cart and favourites, layout 3). */
const BEFORE_CUSTOMER_CHANGES = 2;
/** The last layout before sales carried their flights (layout 4). */
const BEFORE_SALE_FLIGHTS = 3;
/** The last layout with the flights in the RxDB database (layout 6 moved them out). */
const BEFORE_OWN_CATALOGUE = 5;

test('the recorded layouts the upgrades start from are the ones before the changes they test', () => {
  expect(LOCAL_LAYOUT).toBeGreaterThan(BEFORE_SALE_FLIGHTS);
  const beforeCustomer = layout(BEFORE_CUSTOMER_CHANGES);
  expect(beforeCustomer.cart.version).toBe(0);
  expect(beforeCustomer.cart.properties).not.toHaveProperty('flightDeleted');
  expect(allRxSchemas().cart.properties).toHaveProperty('flightDeleted');
  const beforeSales = layout(BEFORE_SALE_FLIGHTS);
  expect(beforeSales.sales.version).toBe(0);
  expect(beforeSales.sales.properties).not.toHaveProperty('flight');
  expect(allRxSchemas().sales.version).toBe(COLLECTION_VERSIONS.sales);
  expect(allRxSchemas().sales.properties).toHaveProperty('flight');
});

test("an upgrade from an older layout keeps a customer's unpushed changes, still queued, and the guest's cart", async () => {
  const name = `upgrade-${randomUUID()}`;
  const customer = server.actors.customer;
  const user: SyncUser = { id: customer.id!, role: 'customer', airlineId: null };
  const [kept, removed, reviewed, added, favourite, guest, attempt] = server.flightIds as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];

  // The layout before cart lines and favourites changed, replicating: a cart line and a favourite
  // reach the server.
  let db = await openDatabase(name, layout(BEFORE_CUSTOMER_CHANGES));
  expect(db.collections.cart.schema.version).toBe(0);
  let engine = await startEngine(db, customer.token);
  await engine.setUser(user);
  await engine.awaitInSync();
  await db.collections.cart.insert(cartDoc(await localFlight(db, kept), user.id, 1));
  await db.collections.favourites.insert(favouriteDoc(await localFlight(db, removed), user.id));
  const { orderId } = await server.control<{ orderId: string }>('POST', '/__test/orders', {
    userId: user.id,
    flightIds: [reviewed],
  });
  await engine.awaitInSync();
  await expect.poll(() => serverCart(user.id), WAIT).toEqual([[kept, 1]]);
  await expect.poll(() => serverFavourites(user.id), WAIT).toEqual([removed]);

  // Offline (nothing replicates): changes to documents the server has, new documents, a review
  // draft, and what a guest keeps on the device.
  await engine.stop();
  await (await db.collections.cart.findOne(kept).exec())!.incrementalPatch({ amount: 3 });
  await db.collections.cart.insert(cartDoc(await localFlight(db, added), user.id, 2));
  await (await db.collections.favourites.findOne(removed).exec())!.remove();
  await db.collections.favourites.insert(favouriteDoc(await localFlight(db, favourite), user.id));
  const draftId = randomUUID();
  await db.collections.reviewDrafts.insert({
    id: draftId,
    userId: user.id,
    orderId,
    flightId: reviewed,
    rating: 4,
    name: 'Carla',
    comment: 'Written before the update',
    status: 'pending',
    reason: null,
  });
  const guestState: GuestState = {
    cart: [cartLineFromFlight(await localFlight(db, guest))],
    favouriteAttempts: [attempt],
    theme: 'dark',
  };
  await writeGuestState(db, guestState);
  await db.close();

  // The app's current layout opens the same database: everything is there.
  db = await openDatabase(name);
  expect(db.collections.cart.schema.version).toBe(COLLECTION_VERSIONS.cart);
  expect(db.collections.favourites.schema.version).toBe(COLLECTION_VERSIONS.favourites);
  const cart = await db.collections.cart.find().exec();
  expect(cart.map((doc) => [doc.flightId, doc.amount]).sort()).toEqual(
    [
      [kept, 3],
      [added, 2],
    ].sort(),
  );
  const favourites = await db.collections.favourites.find().exec();
  expect(favourites.map((doc) => doc.flightId)).toEqual([favourite]);
  expect((await db.collections.reviewDrafts.findOne(draftId).exec())?.status).toBe('pending');
  expect(await readGuestState(db)).toEqual(guestState);
  // The old layout's collections were emptied (RxDB clears them after the migration).
  expect(await storedRecords(`rxdb-dexie-${name}--0--cart`)).toBe(0);
  expect(await storedRecords(`rxdb-dexie-${name}--0--favourites`)).toBe(0);
  expect(await storedRecords(`rxdb-dexie-${name}--1--cart`)).toBeGreaterThan(0);
  // Nothing of it has been sent yet.
  expect(await serverCart(user.id)).toEqual([[kept, 1]]);
  expect(await serverFavourites(user.id)).toEqual([removed]);
  expect(await rows('reviews')).toEqual([]);

  // Replicating again, every change goes through as if there had been no update: a changed
  // amount and a removed favourite too, which need the records of what the server had (pushed
  // without them, the server would take them for conflicts and keep its own). At login the
  // guest's cart joins the customer's, as always.
  engine = await startEngine(db, customer.token);
  await engine.setUser(user);
  await engine.awaitInSync();
  await expect
    .poll(() => serverCart(user.id), WAIT)
    .toEqual(
      [
        [kept, 3],
        [added, 2],
        [guest, 1],
      ].sort(),
    );
  await expect.poll(() => serverFavourites(user.id), WAIT).toEqual([attempt, favourite].sort());
  await expect
    .poll(() => rows<{ order_id: string; comment: string }>('reviews'), WAIT)
    .toEqual([
      expect.objectContaining({ order_id: orderId, comment: 'Written before the update' }),
    ]);
  await expect
    .poll(async () => (await db.collections.reviewDrafts.findOne(draftId).exec())?.status, WAIT)
    .toBe('accepted');
  expect((await db.collections.cart.findOne(kept).exec())?.amount).toBe(3);
  expect(await readGuestCart(db)).toEqual([]);
  await engine.stop();
  await db.close();
}, 90_000); // Two databases, a migration and two sync runs: ten seconds alone, more among others.

test('a public replica of an older layout is dropped and pulled again from scratch', async () => {
  const name = `replica-${randomUUID()}`;
  let db = await openDatabase(name);
  let engine = await startEngine(db, null);
  await engine.awaitInSync();
  const pulled = await db.collections.airlines.count().exec();
  expect(pulled).toBeGreaterThan(0);
  await writeGuestCart(db, [cartLineFromFlight(await localFlight(db, server.flightIds[0]!))]);
  await engine.stop();
  await db.close();

  // A layout in which the airlines changed (a new version).
  const next = allRxSchemas();
  db = await openDatabase(name, { ...next, airlines: { ...next.airlines, version: 1 } });
  expect(db.collections.airlines.schema.version).toBe(1);
  expect(await db.collections.airlines.count().exec()).toBe(0);
  expect(await storedRecords(`rxdb-dexie-${name}--0--airlines`)).toBe(0);
  // Its replication's records went too: the next replication pulls every airline again.
  engine = await startEngine(db, null);
  await engine.awaitInSync();
  expect(await db.collections.airlines.count().exec()).toBe(pulled);
  expect(await readGuestCart(db)).toHaveLength(1);
  await engine.stop();
  await db.close();
});

test('the flights of a layout before 6 leave the database: the catalogue has a replica of its own', async () => {
  const name = `catalogue-move-${randomUUID()}`;
  // Layout 5's database as that app left it: the flights in an RxDB collection.
  const before = await createRxDatabase({
    name,
    storage: wrappedValidateAjvStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) }),
    multiInstance: false,
  });
  const flights = layout(BEFORE_OWN_CATALOGUE).flights;
  await before.addCollections({ flights: { schema: flights } });
  await before.collections.flights!.insert(flightDoc());
  await before.close();
  expect(await storedRecords(`rxdb-dexie-${name}--0--flights`)).toBe(1);

  // The current layout opens it: the old collection's records are gone, the rest opens as usual,
  // and the catalogue is pulled into its own replica.
  const db = await openDatabase(name);
  expect(Object.keys(db.collections)).not.toContain('flights');
  expect(await storedRecords(`rxdb-dexie-${name}--0--flights`)).toBe(0);
  const engine = await startEngine(db, null);
  await engine.awaitInSync();
  expect(await catalogueOf(db).count()).toBeGreaterThanOrEqual(10);
  await engine.stop();
  await db.close();
});

/** The network of an app that predates the sales' flights: it does not keep them (issue 16). */
const withoutSaleFlights: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!String(input).includes('/sync/sales/pull') || !response.ok) return response;
  const body = (await response.json()) as { documents: Record<string, unknown>[] };
  for (const doc of body.documents) delete doc.flight;
  return Response.json(body);
};

test("an upgrade keeps an airline's sales, readable offline, and then fills in their flights as sold", async () => {
  const name = `sales-upgrade-${randomUUID()}`;
  const airline = server.actors.airline;
  const user: SyncUser = { id: airline.id!, role: 'airline', airlineId: airline.airlineId };
  const { flightIds } = await server.control<{ flightIds: string[] }>('POST', '/__test/flights', {
    count: 2,
    airlineId: airline.airlineId,
  });
  await server.control('POST', '/__test/orders', { userId: server.actors.customer.id, flightIds });

  // Layout 3: the sales replicate without their flights, and the replication's checkpoint is past
  // them.
  let db = await openDatabase(name, layout(BEFORE_SALE_FLIGHTS));
  expect(db.collections.sales.schema.version).toBe(0);
  let engine = await startTestEngine(server, db, {
    token: () => airline.token,
    fetch: withoutSaleFlights,
  });
  engines.push(engine);
  await engine.setUser(user);
  await engine.awaitInSync();
  const before = await db.collections.sales.find().exec();
  expect(before.map((doc) => doc.idFlight).sort()).toEqual([...flightIds].sort());
  expect(before.every((doc) => !('flight' in doc.toJSON()))).toBe(true);
  const sold = new Map<string, SaleFlight>();
  for (const id of flightIds) sold.set(id, saleFlightOf(await localFlight(db, id)));
  await engine.stop();
  await db.close();
  // Meanwhile the airline deletes one of the flights: it leaves every catalogue replica.
  const [deleted] = flightIds as [string];
  await server.control('POST', `/__test/flights/${deleted}`, { deleted: true });

  // The current layout opens the same database: the sales are there before anything is pulled.
  db = await openDatabase(name);
  expect(db.collections.sales.schema.version).toBe(COLLECTION_VERSIONS.sales);
  const kept = await db.collections.sales.find().exec();
  expect(kept.map((doc) => doc.toJSON())).toEqual(before.map((doc) => doc.toJSON()));

  // Replicating again, they are pulled again from the start and carry their flights.
  engine = await startEngine(db, airline.token);
  await engine.setUser(user);
  await engine.awaitInSync();
  await expect
    .poll(
      async () =>
        (await db.collections.sales.find().exec()).map((doc) => [doc.idFlight, doc.flight]).sort(),
      WAIT,
    )
    .toEqual(flightIds.map((id) => [id, sold.get(id)]).sort());
  expect((await catalogueOf(db).get([deleted])).size).toBe(0);
  await engine.stop();
  await db.close();
});
