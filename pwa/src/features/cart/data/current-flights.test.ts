import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { filter, firstValueFrom, timeout, type Observable } from 'rxjs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { calculateCartTotals, type Flight } from '@skyport/shared';
import { createLocalDatabase, type SkyportDatabase } from '../../../db/database.ts';
import type { LocalData } from '../../../data/local-data.ts';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { startTestServer, type TestServer } from '../../../sync/test-server.ts';
import { addFavourite, favourites$ } from '../../favourites/data/favourites.ts';
import { addFlightToCart, cartSummary$ } from './cart.ts';

/**
 * A flight's price and stock change on the server while it is in a customer's cart and
 * favourites (issue 15): the server rewrites no cart line or favourite (a sale costs the same
 * whatever number of carts name the flight, sync-server's 010 migration), and the device still
 * shows the new price, stock and total, from its replicated flight. Real server
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
    name: `current-flights-${randomUUID()}`,
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

test('a price or stock change reaches cart lines and favourites through the flight, not by rewriting them', async () => {
  const [flightId] = server.flightIds as [string];
  const flight = await localFlight(flightId);
  expect(await addFlightToCart(data, flight)).toMatchObject({ ok: true });
  expect(await addFlightToCart(data, flight)).toMatchObject({ ok: true });
  expect(await addFavourite(data, flight)).toEqual({ ok: true });
  await engine.awaitInSync();
  const lineRevision = (await db.collections.cart.findOne(flightId).exec())!.revision;

  const priceCents = flight.priceCents + 12_345;
  const tickets = flight.tickets + 7;
  await server.control('POST', `/__test/flights/${flightId}`, { priceCents, tickets });

  const summary = await until(cartSummary$(data), (cart) =>
    cart.lines.some((line) => line.flightId === flightId && line.priceCents === priceCents),
  );
  expect(summary.lines[0]).toMatchObject({ amount: 2, priceCents, tickets });
  expect(summary.totals).toEqual(calculateCartTotals([{ priceCents, amount: 2 }]));
  const favourites = await until(favourites$(data), (list) =>
    list.some((favourite) => favourite.priceCents === priceCents),
  );
  expect(favourites).toHaveLength(1);

  // The server wrote no new revision of the line: the device's copy is the one it pushed.
  await engine.awaitInSync();
  expect((await db.collections.cart.findOne(flightId).exec())!.revision).toBe(lineRevision);
  expect((await db.collections.cart.findOne(flightId).exec())!.toJSON()).toMatchObject({
    priceCents: flight.priceCents,
  });
});
