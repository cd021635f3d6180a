import { randomUUID } from 'node:crypto';
import { IDBIndex, IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { createRxDatabase, type MangoQuery, type RxDatabase } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { ReviewDoc, SaleDoc } from '@skyport/shared';
import { rxSchemaOf } from './schemas.ts';
import { withWholeRangeReads } from './whole-range-reads.ts';

/**
 * The same documents in two databases, one on RxDB's Dexie storage and one on it with
 * `withWholeRangeReads`: every query must answer the same documents in the same order.
 */

let plain: RxDatabase;
let wrapped: RxDatabase;
const airlines = [randomUUID(), randomUUID(), randomUUID()];
const flightIds = Array.from({ length: 7 }, () => randomUUID());
const sales: SaleDoc[] = Array.from({ length: 120 }, (_, n) => ({
  id: randomUUID(),
  airlineId: airlines[n % 3]!,
  idFlight: flightIds[n % 3]!,
  priceCents: 1000 + ((n * 7919) % 50) * 100,
  amount: 1 + (n % 10),
  createdAt: 1_700_000_000_000 + ((n * 31) % 97) * 1000,
}));
const reviews: ReviewDoc[] = Array.from({ length: 60 }, (_, n) => ({
  id: randomUUID(),
  rating: 1 + (n % 5),
  comment: `Comment ${n}`,
  name: `Traveller ${n}`,
  airlineId: airlines[n % 3]!,
  flightId: flightIds[n % 7]!,
  orderId: null,
  moreInfo: [],
  createdAt: 1_700_000_000_000 + ((n * 13) % 29) * 1000,
}));

async function open(wrap: boolean): Promise<RxDatabase> {
  const dexie = getRxStorageDexie({ indexedDB, IDBKeyRange });
  const db = await createRxDatabase({
    name: `whole-range-${randomUUID()}`,
    storage: wrap ? withWholeRangeReads(dexie) : dexie,
    multiInstance: false,
  });
  await db.addCollections({
    // Version 0 here: the sample needs no migration; no index but RxDB's own.
    sales: { schema: { ...rxSchemaOf('sales'), version: 0, indexes: [] } },
    reviews: { schema: rxSchemaOf('reviews') },
  });
  await db.collections.sales!.bulkInsert(sales);
  await db.collections.reviews!.bulkInsert(reviews);
  // Deleted documents stay in the table as tombstones; no query may return them.
  await db.collections.sales!.findByIds(sales.slice(0, 5).map((sale) => sale.id)).remove();
  return db;
}

beforeAll(async () => {
  [plain, wrapped] = await Promise.all([open(false), open(true)]);
});

afterAll(async () => {
  await plain?.close();
  await wrapped?.close();
});

/** Any document's fields (the two collections' queries in one table). */
type Query = Record<string, unknown>;

async function ids(db: RxDatabase, collection: string, query: MangoQuery<Query>) {
  return (await db.collections[collection]!.find(query).exec()).map((doc) => doc.primary);
}

test.each<[string, string, MangoQuery<Query>]>([
  ['every sale', 'sales', {}],
  [
    'an airline, oldest first',
    'sales',
    {
      selector: { airlineId: airlines[1] },
      sort: [{ createdAt: 'asc' }, { id: 'asc' }],
    },
  ],
  [
    'a filter and a sort on fields without an index, a page',
    'sales',
    {
      selector: { idFlight: flightIds[1], amount: { $gt: 3 } },
      sort: [{ priceCents: 'desc' }, { id: 'asc' }],
      skip: 4,
      limit: 7,
    },
  ],
  [
    'a flight’s reviews, newest first (an index)',
    'reviews',
    {
      selector: { flightId: flightIds[3] },
      sort: [{ createdAt: 'desc' }],
    },
  ],
  [
    'reviews in index order with a limit (the cursor stops early)',
    'reviews',
    {
      selector: { airlineId: airlines[2] },
      sort: [{ createdAt: 'asc' }],
      limit: 3,
    },
  ],
  [
    'a range on an indexed field',
    'reviews',
    {
      selector: { airlineId: airlines[0], createdAt: { $gte: 1_700_000_010_000 } },
      sort: [{ createdAt: 'asc' }],
    },
  ],
  [
    'sales after an id, in id order, a page',
    'sales',
    { selector: { id: { $gt: sales[40]!.id } }, sort: [{ id: 'asc' }], limit: 9 },
  ],
  [
    'a page in id order of sales filtered on a field without an index',
    'sales',
    { selector: { idFlight: flightIds[1] }, sort: [{ id: 'asc' }], skip: 2, limit: 5 },
  ],
  ['a limit of nothing', 'sales', { sort: [{ id: 'asc' }], limit: 0 }],
  ['nothing matches', 'sales', { selector: { idFlight: 'nowhere' } }],
])('%s: the same documents in the same order', async (_name, collection, query) => {
  const expected = await ids(plain, collection, query);
  expect(await ids(wrapped, collection, query)).toEqual(expected);
});

test('a query reads its range with one getAll, only as far as needed when the index decides', async () => {
  const getAll = vi.spyOn(IDBIndex.prototype, 'getAll');
  await ids(wrapped, 'sales', { selector: { airlineId: airlines[0] } });
  expect(getAll).toHaveBeenCalledTimes(1);
  expect(getAll.mock.calls[0]![1]).toBeUndefined();
  getAll.mockClear();
  await ids(wrapped, 'reviews', {
    selector: { airlineId: airlines[2] },
    sort: [{ createdAt: 'asc' }],
    skip: 1,
    limit: 2,
  });
  expect(getAll).toHaveBeenCalledTimes(1);
  expect(getAll.mock.calls[0]![1]).toBe(3);
  getAll.mockClear();
  // A filter the index does not decide: RxDB's cursor, which stops once enough documents match.
  await ids(wrapped, 'sales', {
    selector: { idFlight: flightIds[1] },
    sort: [{ id: 'asc' }],
    limit: 2,
  });
  expect(getAll).not.toHaveBeenCalled();
  getAll.mockRestore();
});
