import { randomUUID } from 'node:crypto';
import { Observable, firstValueFrom, map } from 'rxjs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { messages, SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';
import { PERSONAL_COLLECTIONS, type SkyportDatabase } from '../db/database.ts';
import { readGuestCart } from '../db/local-state.ts';
import { cartDoc } from '../db/test-docs.ts';
import { closeLocalData } from '../data/local-data.ts';
import { addFlightToCart, cartLines$, removeLine } from '../features/cart/data/cart.ts';
import { addFavourite, favourites$ } from '../features/favourites/data/favourites.ts';
import { orders$ } from '../features/orders/data/orders.ts';
import {
  reviewDrafts$,
  reviewDraftKey,
  saveReviewDraft,
} from '../features/orders/data/review-drafts.ts';
import { sales$ } from '../features/sales/data/sales.ts';
import { setTheme } from '../features/preferences/data/theme.ts';
import { cuttableNetwork } from '../test/cuttable-network.ts';
import {
  localFlight,
  openTestDevice,
  serverRows,
  until,
  type TestDevice,
} from '../test/test-device.ts';
import type { SyncEngine } from './engine.ts';
import type { ChangeStates } from './change-states.ts';
import { discardChange } from '../features/pending-changes/data/pending-changes.ts';
import { startTestServer, type TestServer } from './test-server.ts';
import { flightsByIds$ } from '../db/catalogue-reads.ts';

/**
 * The PWA's replication client against a real server (sync-server/src/sync/test-server.ts, a
 * fresh PostgreSQL database): RxDB with the Dexie storage on fake-indexeddb.
 */

let server: TestServer;
let data: TestDevice;
let db: SkyportDatabase;
let engine: SyncEngine;
const network = cuttableNetwork();

/** The sync phase, live. */
function phase$(): Observable<string> {
  return new Observable<string>((subscriber) => {
    subscriber.next(engine.status.getSnapshot().phase);
    return engine.status.subscribe(() => subscriber.next(engine.status.getSnapshot().phase));
  });
}

function rows<T>(table: string): Promise<T[]> {
  return serverRows<T>(server, table);
}

/** An order of the customer's for one flight, made on the server and replicated here. */
async function replicatedOrder(flightId: string): Promise<string> {
  const { orderId } = await server.control<{ orderId: string }>('POST', '/__test/orders', {
    userId: server.actors.customer.id,
    flightIds: [flightId],
  });
  await until(orders$(data), (orders) => orders.some((order) => order.id === orderId));
  return orderId;
}

beforeAll(async () => {
  server = await startTestServer({ flights: 30 });
  data = await openTestDevice(server, 'engine', {
    fetch: network.fetch,
    onlineEvents: network.online$,
  });
  ({ db, engine } = data);
});

afterAll(async () => {
  if (data) await closeLocalData(data);
  await server?.stop();
});

test('a guest replicates the public catalogue, and a change on the server arrives live', async () => {
  await engine.awaitInSync();
  expect(await data.catalogue.count()).toBe(30);
  expect(await db.collections.airlines.count().exec()).toBeGreaterThanOrEqual(1);
  expect(engine.status.getSnapshot().phase).toBe('upToDate');

  const id = server.flightIds[0]!;
  await server.control('POST', `/__test/flights/${id}`, { priceCents: 99_900 });
  // Live, through the stream: without it the change would come only with the reconnect after
  // 45 s of silence (STREAM_SILENCE_MS). It takes milliseconds; the wait's 15 s bound only has to
  // hold on a busy machine.
  await until(
    flightsByIds$(data.catalogue, [id]),
    (found) => found.get(id)?.priceCents === 99_900,
    15_000,
  );

  await server.control('POST', `/__test/flights/${server.flightIds[29]!}`, { deleted: true });
  const deleted = server.flightIds[29]!;
  await until(flightsByIds$(data.catalogue, [deleted]), (found) => !found.has(deleted));
});

test("at login the guest's cart is merged into the customer's, and favourite attempts and theme are saved", async () => {
  const [first, second, third] = server.flightIds as [string, string, string];
  // The customer already has one ticket of the first flight in their cart (another device).
  const customer = server.actors.customer;
  const saved = { ...cartDoc(await localFlight(db, first), customer.id!, 1), _deleted: false };
  const seeded = await fetch(`${server.url}/api/sync/cart/push`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${customer.token}`,
      [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION),
    },
    body: JSON.stringify({ rows: [{ newDocumentState: saved }] }),
  });
  expect(seeded.status).toBe(200);

  // As a guest: two tickets of the first flight, one of the second; a favourite; a theme.
  expect(await addFlightToCart(data, await localFlight(db, first))).toMatchObject({ ok: true });
  expect(await addFlightToCart(data, await localFlight(db, first))).toMatchObject({ ok: true });
  expect(await addFlightToCart(data, await localFlight(db, second))).toMatchObject({ ok: true });
  expect(await addFavourite(data, await localFlight(db, third))).toEqual({
    ok: false,
    message: messages.loginToSaveFavourites,
  });
  await setTheme(data, 'dark');
  expect((await readGuestCart(db)).map((l) => [l.flightId, l.amount])).toEqual([
    [first, 2],
    [second, 1],
  ]);

  await data.signIn(customer);

  expect(await readGuestCart(db)).toEqual([]);
  const lines = await firstValueFrom(cartLines$(data));
  expect(lines.map((l) => [l.flightId, l.amount]).sort()).toEqual(
    [
      [first, 3],
      [second, 1],
    ].sort(),
  );
  const serverCart = await rows<{
    user_id: string;
    flight_id: string;
    amount: number;
    deleted: boolean;
  }>('cart_lines');
  expect(
    serverCart
      .filter((r) => r.user_id === customer.id && !r.deleted)
      .map((r) => [r.flight_id, r.amount])
      .sort(),
  ).toEqual(
    [
      [first, 3],
      [second, 1],
    ].sort(),
  );
  const favourites = await firstValueFrom(favourites$(data));
  expect(favourites.map((f) => f.flightId)).toEqual([third]);
  expect(await rows('favourites')).toEqual([
    expect.objectContaining({ user_id: customer.id, flight_id: third, deleted: false }),
  ]);
  expect(await rows('preferences')).toEqual([{ user_id: customer.id, theme: 'dark' }]);
});

test("a customer's changes sync, and a server-side change to the cart's flight refreshes its line", async () => {
  const [first, second] = server.flightIds as [string, string];
  await removeLine(data, second);
  await engine.awaitInSync();
  const serverCart = await rows<{ flight_id: string; deleted: boolean }>('cart_lines');
  expect(serverCart.find((r) => r.flight_id === second)?.deleted).toBe(true);

  await server.control('POST', `/__test/flights/${first}`, { tickets: 2 });
  const lines = await until(
    cartLines$(data),
    (current) => current.find((l) => l.flightId === first)?.tickets === 2,
  );
  expect(lines.find((l) => l.flightId === first)?.amount).toBe(3);
});

test('a review written offline is kept, pushed when back online, and becomes a review', async () => {
  const flightId = server.flightIds[5]!;
  const orderId = await replicatedOrder(flightId);

  network.setOnline(false);
  await until(phase$(), (phase) => phase === 'offline');
  const saved = await saveReviewDraft(data, {
    orderId,
    flightId,
    rating: 5,
    name: 'Carla',
    comment: 'Written on a plane',
  });
  expect(saved.ok).toBe(true);
  const key = reviewDraftKey(orderId, flightId);
  expect((await firstValueFrom(reviewDrafts$(data))).get(key)?.status).toBe('pending');
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await rows('reviews')).toEqual([]);

  network.setOnline(true);
  const drafts = await until(reviewDrafts$(data), (map) => map.get(key)?.status === 'accepted');
  expect(drafts.get(key)?.reason).toBeNull();
  expect(await rows('reviews')).toEqual([
    expect.objectContaining({
      order_id: orderId,
      flight_id: flightId,
      rating: 5,
      comment: 'Written on a plane',
    }),
  ]);
  const orders = await until(
    orders$(data),
    (list) => list.find((o) => o.id === orderId)?.stocks[0]?.review === true,
  );
  expect(orders.find((o) => o.id === orderId)?.stocks.every((l) => l.review)).toBe(true);
  await until(
    db.collections.reviews.find({ selector: { flightId } }).$.pipe(map((docs) => docs.length)),
    (count) => count === 1,
  );
});

test('an invalid review draft comes back rejected with the reason', async () => {
  const flightId = server.flightIds[6]!;
  const orderId = await replicatedOrder(flightId);
  await saveReviewDraft(data, {
    orderId,
    flightId,
    rating: null,
    name: 'Carla',
    comment: 'No stars',
  });
  const drafts = await until(
    reviewDrafts$(data),
    (map) => map.get(reviewDraftKey(orderId, flightId))?.status === 'rejected',
  );
  expect(drafts.get(reviewDraftKey(orderId, flightId))?.reason).toBe(messages.enterARating);
});

test('logout clears the personal data; the next customer sees nothing of the last', async () => {
  await data.signIn(null);
  for (const name of PERSONAL_COLLECTIONS)
    expect(await db.collections[name].count().exec()).toBe(0);
  expect(await firstValueFrom(cartLines$(data))).toEqual([]);
  // The catalogue stays.
  expect(await data.catalogue.count()).toBe(29);

  await data.signIn(server.actors.unverifiedCustomer);
  expect(await firstValueFrom(cartLines$(data))).toEqual([]);
  expect(await firstValueFrom(favourites$(data))).toEqual([]);
  expect(await firstValueFrom(orders$(data))).toEqual([]);
});

test('a change the server refuses is kept as made, reported with the reason, and can be discarded', async () => {
  const userId = server.actors.unverifiedCustomer.id!;
  const unknownFlight = randomUUID();
  const flight = await localFlight(db, server.flightIds[7]!);
  // A line of a flight the server does not know.
  await db.collections.cart.insert(cartDoc({ ...flight, id: unknownFlight }, userId, 1));
  const states = engine.changes;
  await until(
    new Observable<ChangeStates>((subscriber) => {
      subscriber.next(states.getSnapshot());
      return states.subscribe(() => subscriber.next(states.getSnapshot()));
    }),
    (current) => current.refused.some((change) => change.id === unknownFlight),
  );
  expect(engine.status.getSnapshot().rejected).toContainEqual({
    collection: 'cart',
    id: unknownFlight,
    message: 'Flight not found',
  });
  // Still on the device, as made, until the customer discards it (decision 017).
  expect(await db.collections.cart.findOne(unknownFlight).exec()).not.toBeNull();
  await discardChange(
    data,
    states.getSnapshot().refused.find((change) => change.id === unknownFlight)!,
  );
  expect(await db.collections.cart.findOne(unknownFlight).exec()).toBeNull();
  // The queue is not blocked: a valid change after it still syncs.
  expect(await addFlightToCart(data, flight)).toMatchObject({ ok: true });
  await engine.awaitInSync();
  const serverCart = await rows<{ user_id: string; flight_id: string }>('cart_lines');
  expect(serverCart.some((r) => r.user_id === userId && r.flight_id === flight.id)).toBe(true);
});

test('an approved airline replicates its own sales', async () => {
  const airline = server.actors.airline;
  const { flightIds } = await server.control<{ flightIds: string[] }>('POST', '/__test/flights', {
    count: 1,
    airlineId: airline.airlineId,
  });
  await server.control('POST', '/__test/orders', { userId: server.actors.customer.id, flightIds });
  await data.signIn(airline, 'airline');
  const sales = await until(sales$(data), (list) => list.length === 1);
  expect(sales[0]).toMatchObject({
    airlineId: airline.airlineId,
    idFlight: flightIds[0],
    amount: 1,
  });
  expect(await db.collections.cart.count().exec()).toBe(0);
});
