import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { filter, firstValueFrom, timeout, type Observable } from 'rxjs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { calculateCartTotals, messages, type CartDoc, type Flight } from '@skyport/shared';
import { createLocalDatabase, type SkyportDatabase } from '../../../db/database.ts';
import type { LocalData } from '../../../data/local-data.ts';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { startTestServer, type TestServer } from '../../../sync/test-server.ts';
import { addFavourite, favourites$ } from '../../favourites/data/favourites.ts';
import { addFlightToCart, cartSummary$, incrementLine, removeLine } from './cart.ts';

/**
 * A flight deleted on the server while it is in a customer's cart and favourites (issue 14): the
 * replicated line and favourite say so, the cart total leaves the line out, it cannot be raised,
 * a change pushed anyway is refused and rolled back, and removing it syncs. Real server
 * (sync-server/src/sync/test-server.ts), RxDB on fake-indexeddb.
 */

let server: TestServer;
let db: SkyportDatabase;
let engine: SyncEngine;
let data: LocalData;
let token: string | null = null;

function until<T>(source: Observable<T>, predicate: (value: T) => boolean, ms = 10_000) {
  return firstValueFrom(source.pipe(filter(predicate), timeout(ms)));
}

async function localFlight(id: string): Promise<Flight> {
  const doc = await db.collections.flights.findOne(id).exec();
  if (!doc) throw new Error(`flight ${id} is not in the local database`);
  return doc.toJSON() as Flight;
}

beforeAll(async () => {
  server = await startTestServer({ flights: 5 });
  db = await createLocalDatabase({
    name: `deleted-flights-${randomUUID()}`,
    indexedDB,
    IDBKeyRange,
    devMode: true,
    multiInstance: false,
  });
  engine = createSyncEngine({
    db,
    transport: {
      baseUrl: `${server.url}/api`,
      fetch,
      headers: (): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {}),
    },
    retry: { baseMs: 100, maxMs: 1000 },
    initiallyOnline: true,
  });
  data = { db, engine };
  engine.start();
  await engine.awaitInSync();
  const customer = server.actors.customer;
  token = customer.token;
  await engine.setUser({ id: customer.id!, role: 'customer', airlineId: null });
  await engine.awaitInSync();
});

afterAll(async () => {
  await engine?.stop();
  await db?.close();
  await server?.stop();
});

test("a deleted flight's cart line and favourite show it, out of the total, and only removal syncs", async () => {
  const [gone, kept] = server.flightIds as [string, string];
  const keptFlight = await localFlight(kept);
  for (const id of [gone, kept]) {
    expect(await addFlightToCart(data, await localFlight(id))).toMatchObject({ ok: true });
  }
  expect(await addFlightToCart(data, await localFlight(gone))).toMatchObject({ ok: true });
  expect(await addFavourite(data, await localFlight(gone))).toEqual({ ok: true });
  await engine.awaitInSync();

  await server.control('POST', `/__test/flights/${gone}`, { deleted: true });

  // The deletion reaches the cart and the favourites (a new revision of each, streamed).
  const summary = await until(cartSummary$(data), (cart) =>
    cart.lines.some((line) => line.flightId === gone && line.flightDeleted === true),
  );
  expect(summary.lines.find((line) => line.flightId === gone)).toMatchObject({
    amount: 2,
    tickets: 0,
    flightDeleted: true,
  });
  expect(summary.lines.find((line) => line.flightId === kept)).not.toHaveProperty('flightDeleted');
  // Only the listed flight counts in the total.
  expect(summary.totals).toEqual(
    calculateCartTotals([{ priceCents: keptFlight.priceCents, amount: 1 }]),
  );
  const favourites = await until(favourites$(data), (list) =>
    list.some((favourite) => favourite.flightId === gone && favourite.flightDeleted === true),
  );
  expect(favourites).toHaveLength(1);

  // It cannot be raised through the cart rules…
  expect(await incrementLine(data, gone)).toEqual({
    ok: false,
    message: messages.flightNoLongerAvailable,
  });
  // …and a change written anyway (a stale device) is refused by the server and rolled back.
  const doc = await db.collections.cart.findOne(gone).exec();
  await doc!.incrementalPatch({ amount: 5 });
  await until(
    db.collections.cart.findOne(gone).$,
    (line) => (line?.toJSON() as CartDoc | undefined)?.amount === 2,
  );
  expect(engine.status.getSnapshot().rejected).toContainEqual({
    collection: 'cart',
    id: gone,
    message: 'Flight not found',
  });

  // Removing it is allowed and reaches the server.
  expect(await removeLine(data, gone)).toMatchObject({ ok: true });
  await engine.awaitInSync();
  const rows = await server.control<{ flight_id: string; amount: number; deleted: boolean }[]>(
    'GET',
    '/__test/rows/cart_lines',
  );
  expect(rows.find((row) => row.flight_id === gone)).toMatchObject({ amount: 2, deleted: true });
  expect(rows.find((row) => row.flight_id === kept)).toMatchObject({ amount: 1, deleted: false });
});
