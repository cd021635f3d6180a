import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterEach, expect, test } from 'vitest';
import { cartLineFromFlight } from '@skyport/shared';
import {
  clearPersonalCollections,
  createLocalDatabase,
  PERSONAL_COLLECTIONS,
  type SkyportDatabase,
} from './database.ts';
import { CATALOGUE_REPLICA_NAME, DEFAULT_DATABASE_NAME } from './database-name.ts';
import { clearFavouriteAttempts } from './local-state.ts';
import { LOCAL_COLLECTIONS } from './layout.ts';
import { rxSchemaOf } from './schemas.ts';
import { readGuestState, writeGuestState, type GuestState } from '../test/guest-state.ts';
import { openTestDatabase } from '../test/test-device.ts';
import { cartDoc, flightDoc } from './test-docs.ts';

let db: SkyportDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

const airlineDoc = () => ({ id: randomUUID(), name: 'Aurora Airways', userId: null, image: '' });

function open(devMode = true) {
  return openTestDatabase({ devMode });
}

test('every replicated collection but the catalogue is created from the shared schemas, within the free RxDB limit', async () => {
  db = await open();
  expect(Object.keys(db.collections).sort()).toEqual([...LOCAL_COLLECTIONS].sort());
  // The flights have a replica of their own (db/catalogue-replica.ts).
  expect(Object.keys(db.collections)).not.toContain('flights');
  expect(LOCAL_COLLECTIONS.length).toBeLessThanOrEqual(13);
  expect(rxSchemaOf('reviews').indexes).toContainEqual(['flightId', 'createdAt']);
  expect(rxSchemaOf('orders').properties).toHaveProperty('stocks');
});

test('in development, a document that breaks the shared schema is refused', async () => {
  db = await open(true);
  const userId = randomUUID();
  await db.collections.cart.insert(cartDoc(flightDoc(), userId, 1));
  await expect(
    db.collections.cart.insert(cartDoc(flightDoc({ priceCents: -1 }), userId, 1)),
  ).rejects.toThrow();
  await expect(
    db.collections.cart.insert({ ...cartDoc(flightDoc(), userId, 1), departureHour: '8h' }),
  ).rejects.toThrow();
});

test('nullable fields of the shared schemas are accepted', async () => {
  db = await open(true);
  const userId = randomUUID();
  await db.collections.reviewDrafts.insert({
    id: randomUUID(),
    userId,
    orderId: randomUUID(),
    flightId: randomUUID(),
    rating: null,
    name: '',
    comment: '',
    status: 'pending',
    reason: null,
  });
  await db.collections.orders.insert({
    id: randomUUID(),
    userId,
    idpurchase: null,
    creationdate: null,
    priceCents: 100,
    stocks: [],
  });
  expect(await db.collections.reviewDrafts.count().exec()).toBe(1);
});

test('clearing personal data empties the personal collections (tombstones too) and keeps the public ones', async () => {
  db = await open(false);
  const userId = randomUUID();
  const flight = flightDoc();
  await db.collections.airlines.insert(airlineDoc());
  await db.collections.cart.insert(cartDoc(flight, userId, 2));
  await db.collections.preferences.insert({ id: userId, userId, theme: 'dark' });
  const removed = await db.collections.preferences.insert({
    id: randomUUID(),
    userId: randomUUID(),
    theme: 'light',
  });
  await removed.remove();

  await clearPersonalCollections(db);
  for (const name of PERSONAL_COLLECTIONS)
    expect(await db.collections[name].count().exec()).toBe(0);
  // Nothing stays in storage, not even the deleted documents.
  const ids = [flight.id, userId, removed.id];
  expect(await db.collections.cart.storageInstance.findDocumentsById(ids, true)).toEqual([]);
  expect(await db.collections.preferences.storageInstance.findDocumentsById(ids, true)).toEqual([]);
  expect(await db.collections.airlines.count().exec()).toBe(1);
});

test('guest state stays on the device: cart, favourite attempts and theme', async () => {
  db = await open(false);
  expect(await readGuestState(db)).toEqual({ cart: [], favouriteAttempts: [], theme: 'system' });
  const flightId = randomUUID();
  const state: GuestState = {
    cart: [cartLineFromFlight(flightDoc({ tickets: 3 }))],
    // A flight tried twice is remembered once.
    favouriteAttempts: [flightId, flightId],
    theme: 'dark',
  };
  await writeGuestState(db, state);
  expect(await readGuestState(db)).toEqual({ ...state, favouriteAttempts: [flightId] });
  await clearFavouriteAttempts(db);
  expect((await readGuestState(db)).favouriteAttempts).toEqual([]);
});

test("opening the app's database deletes its older layouts and leaves other databases alone", async () => {
  const createEmpty = (name: string) =>
    new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name, 1);
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
  const older = [
    'rxdb-dexie-skyport-v1--0--flights',
    'rxdb-dexie-skyport-v1--0--_rxdb_internal',
    'skyport-v0-l2-catalogue',
  ];
  const unrelated = 'rxdb-dexie-another-app--0--flights';
  for (const name of [...older, unrelated, CATALOGUE_REPLICA_NAME]) await createEmpty(name);

  db = await createLocalDatabase({ indexedDB, IDBKeyRange, multiInstance: false });
  const names = async () => (await indexedDB.databases()).map((info) => info.name);
  await expect.poll(names, { timeout: 10_000 }).not.toContain(older[0]);
  const left = await names();
  expect(left).not.toContain(older[1]);
  expect(left).not.toContain(older[2]);
  expect(left).toContain(unrelated);
  expect(left).toContain(`rxdb-dexie-${DEFAULT_DATABASE_NAME}--0--airlines`);
  expect(left).toContain(CATALOGUE_REPLICA_NAME);
});

test('opening the database creates each of its stores in a step of its own', async () => {
  // Each store is a Dexie database of its own: its `indexedDB.open` shows when it was created.
  let steps = 0;
  const openedAtStep: number[] = [];
  const factory = new Proxy(indexedDB, {
    get(target, property) {
      if (property === 'open')
        return (name: string, version?: number) => {
          openedAtStep.push(steps);
          return target.open(name, version);
        };
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  db = await createLocalDatabase({
    name: `steps-${randomUUID()}`,
    indexedDB: factory,
    IDBKeyRange,
    devMode: false,
    multiInstance: false,
    betweenSteps: async () => {
      steps += 1;
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  });
  // The internal store, the local documents' store and one per collection.
  expect(openedAtStep.length).toBeGreaterThanOrEqual(LOCAL_COLLECTIONS.length + 2);
  expect(new Set(openedAtStep).size).toBe(openedAtStep.length);
});
