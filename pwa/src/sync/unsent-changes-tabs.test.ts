/// <reference types="node" />
import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { createRxDatabase, type RxDatabase } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { BehaviorSubject, type Subscription } from 'rxjs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { SkyportDatabase } from '../db/database.ts';
import { MIGRATIONS } from '../db/layout.ts';
import { rxSchemaOf } from '../db/schemas.ts';
import { cartDoc } from '../db/test-docs.ts';
import { closeLocalData, createLocalData, type LocalData } from '../data/local-data.ts';
import { cuttableNetwork } from '../test/cuttable-network.ts';
import { localFlight, until } from '../test/test-device.ts';
import { startCollectionReplication, type CollectionReplication } from './replication.ts';
import { createSyncStatusStore } from './status.ts';
import type { SyncTransport } from './http.ts';
import { startTestServer, type TestServer } from './test-server.ts';
import { listUnsentChanges, watchUnsentChanges } from './unsent-changes.ts';

/**
 * Two tabs of one browser share the local database, and only the leader tab runs the
 * replication. The other tab counts the changes waiting to be sent too, from what the leader
 * records in the shared IndexedDB (issue 16: a second tab showed no count). The leader is the
 * app's device; the other tab opens the same database as another page would, with only the
 * collection counted (the free RxDB opens at most 13 collections per page). RxDB on
 * fake-indexeddb, against a real server (sync/test-server.ts).
 */

let server: TestServer;
const network = cuttableNetwork();
const name = `tabs-${randomUUID()}`;
let leader: LocalData | undefined;
let otherTab: RxDatabase | undefined;
let watching: Subscription | undefined;

function transport(): SyncTransport {
  const token = server.actors.customer.token;
  return {
    baseUrl: `${server.url}/api`,
    fetch: network.fetch,
    headers: (): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {}),
  };
}

beforeAll(async () => {
  server = await startTestServer({ flights: 3 });
});

afterAll(async () => {
  watching?.unsubscribe();
  await otherTab?.close();
  if (leader) await closeLocalData(leader);
  await server?.stop();
});

test("a tab that does not run the replication counts the changes waiting to be sent, its own and the leader's", async () => {
  const customer = server.actors.customer;
  const userId = customer.id!;
  leader = await createLocalData({
    database: { name, indexedDB, IDBKeyRange, devMode: true, multiInstance: true },
    transport: transport(),
    sync: { retry: { baseMs: 100, maxMs: 1000 }, onlineEvents: network.online$ },
  });
  expect(await leader.db.waitForLeadership()).toBe(true);
  await leader.engine.setUser({ id: userId, role: 'customer', airlineId: null });
  await leader.engine.awaitInSync();

  // The other tab: the same database and replication, waiting for a leadership it never gets.
  otherTab = await createRxDatabase({
    name,
    storage: wrappedValidateAjvStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) }),
    multiInstance: true,
    // Another page's instance of the database: in this test, the same JavaScript realm.
    ignoreDuplicate: true,
  });
  await otherTab.addCollections({
    cart: { schema: rxSchemaOf('cart'), migrationStrategies: MIGRATIONS.cart },
  });
  const replication: CollectionReplication = startCollectionReplication(
    otherTab as unknown as SkyportDatabase,
    'cart',
    { transport: transport(), status: createSyncStatusStore(), partition: userId },
  );
  expect(otherTab.isLeader()).toBe(false);
  const counted = new BehaviorSubject<number | null | undefined>(undefined);
  watching = watchUnsentChanges(replication, (changes) => counted.next(changes?.length ?? null));
  const countIs = (count: number) => until(counted, (value) => value === count);

  // Nothing waits, and the other tab knows it (it used to have no count at all).
  await countIs(0);
  expect(replication.state.internalReplicationState).toBeUndefined();
  expect(await listUnsentChanges(replication)).toEqual([]);

  // Offline, a change made in the other tab waits for the leader: both count it.
  network.setOnline(false);
  await until(status(leader), (phase) => phase === 'offline');
  const [first, second] = server.flightIds as [string, string];
  await otherTab.collections.cart!.insert(cartDoc(await localFlight(leader, first), userId, 2));
  await countIs(1);
  await until(unsent(leader), (count) => count === 1);
  // And one made in the leader tab.
  await leader.db.collections.cart.insert(cartDoc(await localFlight(leader, second), userId, 1));
  await countIs(2);
  expect((await listUnsentChanges(replication))?.map((change) => change.id).sort()).toEqual(
    [first, second].sort(),
  );

  // Back online, the leader sends them: the other tab's count falls to 0 with the leader's.
  network.setOnline(true);
  await until(unsent(leader), (count) => count === 0);
  await countIs(0);
});

/** The leader's sync phase, live. */
function status(data: LocalData) {
  const subject = new BehaviorSubject(data.engine.status.getSnapshot().phase);
  data.engine.status.subscribe(() => subject.next(data.engine.status.getSnapshot().phase));
  return subject;
}

/** The leader's count of changes waiting to be sent, live. */
function unsent(data: LocalData) {
  const subject = new BehaviorSubject(data.engine.status.getSnapshot().unsent);
  data.engine.status.subscribe(() => subject.next(data.engine.status.getSnapshot().unsent));
  return subject;
}
