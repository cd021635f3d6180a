import { afterAll, beforeAll, expect, test } from 'vitest';
import { firstValueFrom } from 'rxjs';
import { readCatalogueFreshAt, readPriceHistories } from '../../../db/local-state.ts';
import { closeLocalData } from '../../../data/local-data.ts';
import { customerPriceHistories$ } from '../../../data/price-histories.ts';
import { cuttableNetwork } from '../../../test/cuttable-network.ts';
import { localFlight, openTestDevice, until, type TestDevice } from '../../../test/test-device.ts';
import { startTestServer, type TestServer } from '../../../sync/test-server.ts';
import { addFavourite, removeFavourite } from './favourites.ts';
import { followFavouritePrices, type FavouritePriceDrop } from './price-watch.ts';
import { flightsByIds$ } from '../../../db/catalogue-reads.ts';

/**
 * Price drops of favourites (docs/architecture.md §4.9) against a real server
 * (sync-server/src/sync/test-server.ts) and RxDB on fake-indexeddb: the device records the
 * prices of its favourites as the flights replicate, reports a drop on the first sync after it
 * (live, or after a time offline), and says how fresh its catalogue is.
 */

let server: TestServer;
let data: TestDevice;
const network = cuttableNetwork();
const drops: FavouritePriceDrop[][] = [];
let stopFollowing: () => void;
/** What is waited for comes in milliseconds, or never: a bound that holds on a busy machine. */
const WAIT = { timeout: 10_000 };

beforeAll(async () => {
  server = await startTestServer({ flights: 5 });
  data = await openTestDevice(server, 'price-watch', {
    fetch: network.fetch,
    onlineEvents: network.online$,
  });
  await data.engine.awaitInSync();
  await data.signIn(server.actors.customer);
  stopFollowing = followFavouritePrices(data, (found) => drops.push(found));
});

afterAll(async () => {
  stopFollowing?.();
  if (data) await closeLocalData(data);
  await server?.stop();
});

const customerId = () => server.actors.customer.id!;
const history = async (flightId: string) =>
  (await readPriceHistories(data.db, customerId()))[flightId] ?? [];
/** Waits until the flight's history has `points` points and returns their prices. */
async function pricesOnceRecorded(flightId: string, points: number): Promise<number[]> {
  const histories = await until(
    customerPriceHistories$(data),
    (all) => (all[flightId]?.length ?? 0) >= points,
  );
  return histories[flightId]!.map((point) => point.priceCents);
}

test('the device is live once the stream is connected, and saves when its catalogue was fresh', async () => {
  await expect.poll(() => data.engine.status.getSnapshot().live, WAIT).toBe(true);
  const status = data.engine.status.getSnapshot();
  expect(status.live).toBe(true);
  expect(status.catalogueFreshAt).not.toBeNull();
  await expect.poll(() => readCatalogueFreshAt(data.db), WAIT).not.toBeNull();
});

test('a favourite starts its history; a drop arriving live is recorded and reported once', async () => {
  const flightId = server.flightIds[0]!;
  const flight = await localFlight(data.db, flightId);
  expect(await addFavourite(data, flight)).toEqual({ ok: true });
  expect(await pricesOnceRecorded(flightId, 1)).toEqual([flight.priceCents]);
  expect(drops).toEqual([]);

  const lower = flight.priceCents - 10_000;
  await server.control('POST', `/__test/flights/${flightId}`, { priceCents: lower });
  expect(await pricesOnceRecorded(flightId, 2)).toEqual([flight.priceCents, lower]);
  await expect.poll(() => drops.length, WAIT).toBe(1);
  expect(drops[0]).toEqual([
    expect.objectContaining({
      flightId,
      fromCents: flight.priceCents,
      toCents: lower,
      origin: flight.origin,
      destination: flight.destination,
    }),
  ]);

  // A sale (stock only) is no new price; a rise is recorded but is no drop.
  await server.control('POST', `/__test/flights/${flightId}`, { tickets: flight.tickets - 1 });
  await until(
    flightsByIds$(data.catalogue, [flightId]),
    (found) => found.get(flightId)?.tickets === flight.tickets - 1,
  );
  expect(await history(flightId)).toHaveLength(2);
  await server.control('POST', `/__test/flights/${flightId}`, { priceCents: lower + 500 });
  expect(await pricesOnceRecorded(flightId, 3)).toEqual([flight.priceCents, lower, lower + 500]);
  expect(drops).toHaveLength(1);
});

test('a drop while the device is offline is reported on the first sync back online', async () => {
  const flightId = server.flightIds[1]!;
  const flight = await localFlight(data.db, flightId);
  await addFavourite(data, flight);
  await pricesOnceRecorded(flightId, 1);
  await data.engine.awaitInSync();
  const before = drops.length;

  const cutAt = Date.now();
  network.setOnline(false);
  const offline = data.engine.status.getSnapshot();
  expect(offline.live).toBe(false);
  expect(offline.catalogueFreshAt).toBeGreaterThanOrEqual(cutAt);

  const lower = flight.priceCents - 2_500;
  await server.control('POST', `/__test/flights/${flightId}`, { priceCents: lower });
  // Nothing reaches the device meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await history(flightId)).toHaveLength(1);

  network.setOnline(true);
  expect(await pricesOnceRecorded(flightId, 2)).toEqual([flight.priceCents, lower]);
  await expect.poll(() => drops.length, WAIT).toBe(before + 1);
  expect(drops.at(-1)).toEqual([
    expect.objectContaining({ flightId, fromCents: flight.priceCents, toCents: lower }),
  ]);
});

test('logout forgets the histories; another customer never sees them', async () => {
  await removeFavourite(data, server.flightIds[1]!);
  await data.signIn(null);
  expect(await readPriceHistories(data.db, customerId())).toEqual({});
  await data.signIn(server.actors.unverifiedCustomer);
  expect(await firstValueFrom(customerPriceHistories$(data))).toEqual({});
});
