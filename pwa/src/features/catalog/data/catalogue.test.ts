import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { firstValueFrom, filter } from 'rxjs';
import { afterEach, expect, test } from 'vitest';
import { createCatalogIndex } from './catalogue-index.ts';
import { catalogIndex$ } from './catalogue.ts';
import { createLocalDatabase, type SkyportDatabase } from '../../../db/database.ts';
import { flightDoc } from '../../../db/test-docs.ts';
import type { FlightDoc } from '@skyport/shared';

/**
 * The home page's catalogue index over the local database: loaded page by page, then kept up to
 * date with the collection's changes; always what an index of the stored flights would be.
 */

let db: SkyportDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

const ids = (flights: readonly { id: string }[]) => flights.map((flight) => flight.id);

async function stored(database: SkyportDatabase) {
  return (await database.collections.flights.find().exec()).map((doc) => doc.toJSON() as FlightDoc);
}

/** The next index whose listed flights are those of the database now. */
async function indexMatching(database: SkyportDatabase) {
  const expected = createCatalogIndex(await stored(database));
  return firstValueFrom(
    catalogIndex$(database).pipe(
      filter((index) => index.listed.length === expected.listed.length),
      filter(
        (index) =>
          JSON.stringify(ids(index.sorted('price_asc'))) ===
          JSON.stringify(ids(expected.sorted('price_asc'))),
      ),
    ),
  );
}

test('the index is loaded page by page and follows the changes, small and large', async () => {
  db = await createLocalDatabase({
    name: `catalogue-${randomUUID()}`,
    indexedDB,
    IDBKeyRange,
    multiInstance: false,
  });
  const flights = db.collections.flights;
  // More than a first page, some sold out (not listed).
  await flights.bulkInsert(
    Array.from({ length: 1_234 }, (_, n) =>
      flightDoc({ priceCents: 1000 + ((n * 7919) % 997) * 100, tickets: n % 7 }),
    ),
  );
  let index = await indexMatching(db);
  const reference = createCatalogIndex(await stored(db));
  for (const sort of ['initial', 'price_desc', 'airline_asc', 'stock_asc'] as const)
    expect(ids(index.sorted(sort))).toEqual(ids(reference.sorted(sort)));

  // A few changes: a new flight, a new price, a flight sold out, one deleted.
  const [repriced, soldOut, removed] = (await flights.find({ limit: 3 }).exec()).filter(
    (doc) => doc.tickets > 0,
  );
  await flights.insert(flightDoc({ priceCents: 1 }));
  await repriced!.incrementalPatch({ priceCents: 999_999 });
  if (soldOut) await soldOut.incrementalPatch({ tickets: 0 });
  if (removed) await removed.remove();
  index = await indexMatching(db);
  expect(index.sorted('price_asc')[0]!.priceCents).toBe(1);

  // A large bulk: the index is loaded again.
  await flights.bulkInsert(Array.from({ length: 150 }, () => flightDoc({ tickets: 5 })));
  index = await indexMatching(db);
  expect(ids(index.sorted('initial'))).toEqual(
    ids(createCatalogIndex(await stored(db)).sorted('initial')),
  );
});
