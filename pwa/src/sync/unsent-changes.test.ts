import { Observable } from 'rxjs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { closeLocalData } from '../data/local-data.ts';
import { addFlightToCart } from '../features/cart/data/cart.ts';
import { addFavourite, removeFavourite } from '../features/favourites/data/favourites.ts';
import { cuttableNetwork } from '../test/cuttable-network.ts';
import { localFlight, openTestDevice, until, type TestDevice } from '../test/test-device.ts';
import type { SyncStatus } from './status.ts';
import { startTestServer, type TestServer } from './test-server.ts';

/**
 * The count of changes waiting to be sent that the sync status shows: live as changes are made
 * offline and as they reach the server, against a real server (sync/test-server.ts).
 */

let server: TestServer;
let device: TestDevice;
const network = cuttableNetwork();

/** The sync status, live. */
function status$(): Observable<SyncStatus> {
  const { status } = device.engine;
  return new Observable<SyncStatus>((subscriber) => {
    subscriber.next(status.getSnapshot());
    return status.subscribe(() => subscriber.next(status.getSnapshot()));
  });
}

const unsentIs = (count: number | null) =>
  until(status$(), (status) => status.unsent === count).then((status) => status.unsent);

beforeAll(async () => {
  server = await startTestServer({ flights: 5 });
  device = await openTestDevice(server, 'unsent', {
    fetch: network.fetch,
    onlineEvents: network.online$,
  });
  await device.engine.awaitInSync();
});

afterAll(async () => {
  if (device) await closeLocalData(device);
  await server?.stop();
});

test('a guest has no count: nothing of theirs is pushed', async () => {
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(device.engine.status.getSnapshot().unsent).toBeNull();
});

test('changes made offline are counted as they are made, and the count falls to 0 once they are sent', async () => {
  await device.signIn(server.actors.customer);
  expect(await unsentIs(0)).toBe(0);
  const [first, second] = server.flightIds as [string, string];

  network.setOnline(false);
  await until(status$(), (status) => status.phase === 'offline');
  await addFlightToCart(device, await localFlight(device.db, first));
  expect(await unsentIs(1)).toBe(1);
  await addFlightToCart(device, await localFlight(device.db, second));
  await addFavourite(device, await localFlight(device.db, first));
  expect(await unsentIs(3)).toBe(3);
  // Another change to a document already waiting is still one change to send: every count shown
  // from here until the removal below is counted is 3, then 2, never 4. (No sleep: the removal's
  // count comes after this change's, or with it, and then says 3 if this change counted twice.)
  const shown: (number | null)[] = [];
  const watching = status$().subscribe((status) => shown.push(status.unsent));
  await addFlightToCart(device, await localFlight(device.db, first));
  // A favourite made and taken back offline never reached the server: nothing to send.
  await removeFavourite(device, first);
  expect(await unsentIs(2)).toBe(2);
  watching.unsubscribe();
  expect([...new Set(shown)]).toEqual([3, 2]);

  network.setOnline(true);
  expect(await unsentIs(0)).toBe(0);
  // The pull that follows the push may still be running: the count stays 0 through it.
  const settled = await until(status$(), (status) => status.phase === 'upToDate');
  expect(settled.unsent).toBe(0);
});

test('at logout the count goes with the personal collections', async () => {
  await device.signIn(null);
  expect(await unsentIs(null)).toBeNull();
});
