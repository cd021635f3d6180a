import { randomUUID } from 'node:crypto';
import { firstValueFrom, filter } from 'rxjs';
import { afterEach, expect, test } from 'vitest';
import { createCatalogIndex } from './catalogue-index.ts';
import {
  airlineReviews$,
  catalogIndex$,
  catalogPlaces$,
  type AirlineReviews,
} from './catalogue.ts';
import type { CatalogueReplica } from '../../../db/catalogue-replica.ts';
import { flightDoc } from '../../../db/test-docs.ts';
import { closeLocalData, type LocalData } from '../../../data/local-data.ts';
import { createSyncEngine } from '../../../sync/engine.ts';
import { openTestCatalogue, openTestDatabase } from '../../../test/test-device.ts';
import type { FlightDoc, ReviewDoc } from '@skyport/shared';

/**
 * The catalogue's live queries over the local data: the home page's index (loaded page by page,
 * then kept up to date with the replica's changes; always what an index of the stored flights
 * would be), the search box's places, and a flight detail's airline reviews.
 */

const devices: LocalData[] = [];
afterEach(async () => {
  for (const data of devices.splice(0)) await closeLocalData(data);
});

/**
 * A device's local data: its database, and its sync engine either not started (as if every
 * collection were pulled) or started against a server that never answers (the first pulls
 * cannot finish). Free RxDB allows 13 open collections per process: one device at a time.
 */
async function openDevice(sync: 'none' | 'unreachable'): Promise<LocalData> {
  const db = await openTestDatabase({ prefix: 'catalogue' });
  const catalogue = await openTestCatalogue(db);
  const engine = createSyncEngine({
    db,
    catalogue,
    transport: { baseUrl: 'http://127.0.0.1:9/api' },
    retry: { baseMs: 50, maxMs: 100 },
    initiallyOnline: true,
  });
  if (sync === 'unreachable') engine.start();
  const data = { db, catalogue, engine };
  devices.push(data);
  return data;
}

const ids = (flights: readonly { id: string }[]) => flights.map((flight) => flight.id);

async function stored(catalogue: CatalogueReplica): Promise<FlightDoc[]> {
  return catalogue.page(undefined, 1_000_000);
}

/** Writes flights into the replica as pulls do (`deleted`: their ids, gone). */
async function write(catalogue: CatalogueReplica, flights: FlightDoc[], deleted: FlightDoc[] = []) {
  await catalogue.apply(
    [
      ...flights.map((flight) => ({ ...flight, _deleted: false })),
      ...deleted.map((flight) => ({ ...flight, _deleted: true })),
    ],
    undefined,
  );
}

/** The next index whose listed flights are those of the replica now. */
async function indexMatching(catalogue: CatalogueReplica) {
  const expected = createCatalogIndex(await stored(catalogue));
  return firstValueFrom(
    catalogIndex$(catalogue).pipe(
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
  const { catalogue } = await openDevice('none');
  // More than a first page, some sold out (not listed).
  await write(
    catalogue,
    Array.from({ length: 1_234 }, (_, n) =>
      flightDoc({ priceCents: 1000 + ((n * 7919) % 997) * 100, tickets: n % 7 }),
    ),
  );
  let index = await indexMatching(catalogue);
  const reference = createCatalogIndex(await stored(catalogue));
  for (const sort of ['initial', 'price_desc', 'airline_asc', 'stock_asc'] as const)
    expect(ids(index.sorted(sort))).toEqual(ids(reference.sorted(sort)));

  // A few changes: a new flight, a new price, a flight sold out, one deleted.
  const [repriced, soldOut, removed] = (await catalogue.page(undefined, 10)).filter(
    (flight) => flight.tickets > 0,
  );
  await write(
    catalogue,
    [
      flightDoc({ priceCents: 1 }),
      { ...repriced!, priceCents: 999_999 },
      { ...soldOut!, tickets: 0 },
    ],
    [removed!],
  );
  index = await indexMatching(catalogue);
  expect(index.sorted('price_asc')[0]!.priceCents).toBe(1);
  expect(index.listed.some((flight) => flight.id === removed!.id)).toBe(false);

  // A large write: the index is loaded again.
  await write(
    catalogue,
    Array.from({ length: 150 }, () => flightDoc({ tickets: 5 })),
  );
  index = await indexMatching(catalogue);
  expect(ids(index.sorted('initial'))).toEqual(
    ids(createCatalogIndex(await stored(catalogue)).sorted('initial')),
  );
});

const loaded = (value: AirlineReviews | undefined): value is AirlineReviews => value !== undefined;

function reviewDoc(
  fields: Partial<ReviewDoc> & Pick<ReviewDoc, 'airlineId' | 'flightId'>,
): ReviewDoc {
  return {
    id: randomUUID(),
    rating: 5,
    comment: 'Good flight',
    name: 'Ana',
    orderId: null,
    moreInfo: [{ flightName: 'Aurora Airways', origin: 'Argentina', destination: 'Chile' }],
    createdAt: 1_700_000_000_000,
    ...fields,
  };
}

test("a flight's detail gets every review of its airline, newest first, with the airline's average", async () => {
  const data = await openDevice('none');
  const aurora = randomUUID();
  const [flight, other] = [randomUUID(), randomUUID()];
  await data.db.collections.reviews.bulkInsert([
    reviewDoc({ airlineId: aurora, flightId: flight, rating: 5, createdAt: 3 }),
    ...[4, 4, 3, 2].map((rating, n) =>
      reviewDoc({ airlineId: aurora, flightId: other, rating, createdAt: 10 + n }),
    ),
    reviewDoc({ airlineId: randomUUID(), flightId: randomUUID(), rating: 1, createdAt: 20 }),
  ]);
  const reviews$ = airlineReviews$(data, aurora);
  let reviews = await firstValueFrom(reviews$.pipe(filter(loaded)));
  expect(reviews.status).toBe('complete');
  if (reviews.status !== 'complete') return;
  expect(reviews.items.map((review) => review.createdAt)).toEqual([13, 12, 11, 10, 3]);
  // (5 + 4 + 4 + 3 + 2) / 5 = 3.6, to the nearest half star: the airline's, not the flight's 5.
  expect(reviews.averageRating).toBe(3.5);

  // A new review of the airline arrives: the list and the average follow.
  await data.db.collections.reviews.insert(
    reviewDoc({ airlineId: aurora, flightId: flight, rating: 5, createdAt: 30 }),
  );
  reviews = await firstValueFrom(
    reviews$.pipe(
      filter(loaded),
      filter((value) => value.status === 'complete' && value.items.length === 6),
    ),
  );
  expect(reviews.status === 'complete' && reviews.averageRating).toBe(4);
});

test('an airline without reviews has none and no average; one whose reviews cannot be pulled says so', async () => {
  const pulled = await openDevice('none');
  expect(await firstValueFrom(airlineReviews$(pulled, randomUUID()).pipe(filter(loaded)))).toEqual({
    status: 'complete',
    items: [],
    averageRating: null,
  });
  await closeLocalData(devices.pop()!);

  // The server never answers: what the device has, and no average of a part.
  const cutOff = await openDevice('unreachable');
  const airlineId = randomUUID();
  await cutOff.db.collections.reviews.insert(reviewDoc({ airlineId, flightId: randomUUID() }));
  const reviews = await firstValueFrom(airlineReviews$(cutOff, airlineId).pipe(filter(loaded)));
  expect(reviews.status).toBe('notOnDevice');
  expect(reviews).not.toHaveProperty('averageRating');
  expect(reviews.status === 'notOnDevice' && reviews.items).toHaveLength(1);
});

test('the suggestions are the places listed flights leave from and go to, and follow the changes', async () => {
  const data = await openDevice('none');
  const fromUruguay = flightDoc({ origin: 'Uruguay', destination: 'Argentina' });
  await write(data.catalogue, [
    flightDoc({ origin: 'Argentina', destination: 'Chile' }),
    flightDoc({ origin: 'Argentina', destination: 'Peru' }),
    fromUruguay,
    // Sold out: not on the home page, so not suggested.
    flightDoc({ origin: 'Antarctica', destination: 'Bouvet Island', tickets: 0 }),
  ]);
  const places$ = catalogPlaces$(data);
  const placesWith = (origins: number) =>
    firstValueFrom(places$.pipe(filter((places) => places.origins.length === origins)));
  expect(await placesWith(2)).toEqual({
    origins: ['Argentina', 'Uruguay'],
    destinations: ['Argentina', 'Chile', 'Peru'],
  });

  // The only flight from Uruguay sells out; one to Spain is added.
  await write(data.catalogue, [
    { ...fromUruguay, tickets: 0 },
    flightDoc({ origin: 'Chile', destination: 'Spain' }),
  ]);
  expect(
    await firstValueFrom(places$.pipe(filter((places) => places.destinations.includes('Spain')))),
  ).toEqual({ origins: ['Argentina', 'Chile'], destinations: ['Chile', 'Peru', 'Spain'] });
});
