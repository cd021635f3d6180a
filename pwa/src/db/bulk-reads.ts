import type {
  DBCore,
  DBCoreGetManyRequest,
  DBCoreQuery,
  DBCoreTable,
  Dexie,
  Middleware,
} from 'dexie';

/**
 * A Dexie middleware that makes RxDB's large reads by primary key cheap.
 *
 * RxDB reads every document it is about to write by id, up to three times per pulled document
 * (the replicated copy, the replication's metadata, and the storage's own conflict check before
 * its put), and Dexie's `bulkGet` answers each id with its own IndexedDB request. In Chromium a
 * request costs about as much as the put itself (measured in headless chromium: 10,000 gets
 * ~750 ms, 10,000 puts ~1.5 s, one `getAll` of 10,000 documents ~250 ms), so the initial sync of
 * the catalogue spent most of its time reading documents that were not there yet.
 *
 * For a read of many ids this counts the table first (one request): an empty table answers
 * without reading, and a table not much larger than the read is read whole with one `getAll`.
 * Otherwise, and for small reads, Dexie's per-id reads stay. Same transaction, same results.
 */

/** Below this many ids the per-id reads are cheap enough. */
const BULK_READ_MIN_KEYS = 64;
/** One `getAll` costs about a third of a get per document: read the whole table up to 3× the ids. */
const WHOLE_TABLE_FACTOR = 3;
/** Dexie's `DBCoreRangeType.Any` (a const enum, so not importable at run time). */
const ANY_RANGE = 3;

function withBulkReads(table: DBCoreTable): DBCoreTable {
  const primaryKey = table.schema.primaryKey;
  const extractKey = primaryKey.extractKey;
  // Only tables with an inline primary key (RxDB's `docs` tables) can be matched up after getAll.
  if (!extractKey) return table;
  const wholeTable = { index: primaryKey, range: { type: ANY_RANGE } } as DBCoreQuery;
  return {
    ...table,
    async getMany(request: DBCoreGetManyRequest) {
      if (request.keys.length < BULK_READ_MIN_KEYS) return table.getMany(request);
      const stored = await table.count({ trans: request.trans, query: wholeTable });
      if (stored === 0) return request.keys.map(() => undefined);
      if (stored > request.keys.length * WHOLE_TABLE_FACTOR) return table.getMany(request);
      const { result } = await table.query({
        trans: request.trans,
        values: true,
        query: wholeTable,
      });
      const byKey = new Map<unknown, unknown>(result.map((value) => [extractKey(value), value]));
      return request.keys.map((key) => byKey.get(key));
    },
  };
}

export const bulkReadsMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'skyport-bulk-reads',
  create: (down) => ({ ...down, table: (name) => withBulkReads(down.table(name)) }),
};

/** RxDB's Dexie storage `onCreate` hook: every Dexie database it opens gets the middleware. */
export function useBulkReads(db: Dexie): void {
  db.use(bulkReadsMiddleware);
}
