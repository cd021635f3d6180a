import {
  getQueryMatcher,
  getSortComparator,
  type PreparedQuery,
  type RxDocumentData,
  type RxStorage,
  type RxStorageInstance,
  type RxStorageQueryResult,
} from 'rxdb';
import {
  DEXIE_DOCS_TABLE_NAME,
  dexieReplaceIfStartsWithPipe,
  fromDexieToStorage,
  getKeyRangeByQueryPlan,
  type RxStorageInstanceDexie,
} from 'rxdb/plugins/storage-dexie';

/**
 * RxDB's Dexie storage answers a query by walking an IndexedDB cursor over the query's index
 * range, one request per document, and in Chromium a step costs about as much as a `get` (around
 * 100 µs for a flight: a query over 10,000 flights took about a second in headless chromium, when
 * the flights were still in RxDB). One `getAll` over the same index range returns the same
 * documents in the same order in a single request (about 19 µs a flight): the same queries take
 * about a third of the time.
 *
 * This storage wrapper answers a query with `getAll` whenever the cursor would have read the
 * whole range anyway: no limit, or a limit that the cursor cannot stop at (the order is sorted
 * after reading). Where the cursor stops early (a limit with the order given by the index) and
 * the index alone decides which documents match, `getAll` is given the count: the first `skip +
 * limit` documents of the range, in one request. Where the documents must also be filtered,
 * RxDB's own query runs as before. Same range, same matcher and sort as RxDB's, same results
 * (tested against it).
 */

type DexieInstance = RxStorageInstanceDexie<unknown>;

async function queryWholeRange(
  instance: DexieInstance,
  prepared: PreparedQuery<unknown>,
  count?: number,
): Promise<RxStorageQueryResult<unknown>> {
  const state = await instance.internals;
  const { query, queryPlan } = prepared;
  let keyRange: IDBKeyRange | null;
  try {
    keyRange = getKeyRangeByQueryPlan(
      state.booleanIndexes,
      queryPlan,
      (state.dexieDb as unknown as { _options: { IDBKeyRange: typeof IDBKeyRange } })._options
        .IDBKeyRange,
    ) as IDBKeyRange | null;
  } catch (error) {
    // As RxDB's query: a range that IndexedDB cannot express matches nothing.
    if ((error as Error).name === 'DataError') return { documents: [] };
    throw error;
  }
  const indexName = `[${queryPlan.index.map((field) => dexieReplaceIfStartsWithPipe(field)).join('+')}]`;
  const stored = await state.dexieDb.transaction('r', state.dexieTable, (transaction) => {
    const index = transaction.idbtrans.objectStore(DEXIE_DOCS_TABLE_NAME).index(indexName);
    return new Promise<unknown[]>((resolve, reject) => {
      const request = index.getAll(keyRange, count);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  });
  let documents = stored.map((doc) => fromDexieToStorage<unknown>(state.booleanIndexes, doc));
  if (!queryPlan.selectorSatisfiedByIndex) {
    const matches = getQueryMatcher(instance.schema, query);
    documents = documents.filter((doc) => matches(doc));
  }
  if (!queryPlan.sortSatisfiedByIndex)
    documents.sort(getSortComparator(instance.schema, query) as never);
  const skip = query.skip ?? 0;
  const limit = typeof query.limit === 'number' ? query.limit : Infinity;
  return { documents: documents.slice(skip, skip + limit) as RxDocumentData<unknown>[] };
}

/** Whether RxDB's cursor could stop before the end of the range (then it is cheaper). */
function cursorStopsEarly(prepared: PreparedQuery<unknown>): boolean {
  return typeof prepared.query.limit === 'number' && prepared.queryPlan.sortSatisfiedByIndex;
}

/** How many documents of the range the query needs: all (undefined), else the first `skip + limit`. */
function documentsNeeded(prepared: PreparedQuery<unknown>): number | undefined {
  if (!cursorStopsEarly(prepared)) return undefined;
  return (prepared.query.skip ?? 0) + (prepared.query.limit as number);
}

/** Wraps RxDB's Dexie storage so that queries over a whole index range read it in one request. */
export function withWholeRangeReads<Internals, Options>(
  storage: RxStorage<Internals, Options>,
): RxStorage<Internals, Options> {
  return {
    name: storage.name,
    rxdbVersion: storage.rxdbVersion,
    async createStorageInstance(params) {
      const instance = (await storage.createStorageInstance(params)) as RxStorageInstance<
        unknown,
        Internals,
        Options
      >;
      const rxdbQuery = instance.query.bind(instance);
      instance.query = (prepared) => {
        const needed = documentsNeeded(prepared);
        // A filter the index does not decide: the cursor reads until enough documents match.
        if (needed !== undefined && !prepared.queryPlan.selectorSatisfiedByIndex)
          return rxdbQuery(prepared);
        // getAll's count must be positive (RxDB answers a limit of 0 with nothing, so do we).
        if (needed === 0) return Promise.resolve({ documents: [] });
        return queryWholeRange(instance as unknown as DexieInstance, prepared, needed);
      };
      return instance as never;
    },
  };
}
