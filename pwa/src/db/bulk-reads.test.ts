import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { Dexie } from 'dexie';
import { afterEach, expect, test } from 'vitest';
import { bulkReadsMiddleware } from './bulk-reads.ts';

interface Row {
  id: string;
  n: number;
}

const opened: Dexie[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await new Promise((resolve) => {
      const request = indexedDB.deleteDatabase(db.name);
      request.onsuccess = request.onerror = () => resolve(undefined);
    });
  }
});

/** A table with the middleware, and a second connection to the same data without it. */
async function tables(rows: number) {
  const name = `bulk-reads-${randomUUID()}`;
  const withMiddleware = new Dexie(name, { indexedDB, IDBKeyRange });
  withMiddleware.use(bulkReadsMiddleware);
  withMiddleware.version(1).stores({ docs: 'id, n' });
  await withMiddleware.open();
  const plain = new Dexie(name, { indexedDB, IDBKeyRange });
  plain.version(1).stores({ docs: 'id, n' });
  await plain.open();
  opened.push(withMiddleware, plain);
  const stored: Row[] = Array.from({ length: rows }, (_, n) => ({
    id: `k${String(n).padStart(5, '0')}`,
    n,
  }));
  await plain.table<Row, string>('docs').bulkPut(stored);
  return {
    fast: withMiddleware.table<Row, string>('docs'),
    plain: plain.table<Row, string>('docs'),
  };
}

/** Ids some of which are stored, some not, in no particular order, with a repeat. */
function idsToRead(count: number, stored: number): string[] {
  const ids = Array.from(
    { length: count },
    (_, i) => `k${String((i * 7919) % (stored * 2 || 1)).padStart(5, '0')}`,
  );
  return [...ids, ids[0] ?? 'k00000', 'missing'];
}

test.each([
  ['an empty table', 0, 500],
  ['a table smaller than the read (keys, then the whole table)', 300, 500],
  ['a table larger than the read (keys, then the stored ids one by one)', 1000, 500],
  ['a table much larger than the read (per-id reads)', 3000, 100],
  ['a small read (per-id reads)', 1000, 10],
])('bulkGet answers exactly as without the middleware: %s', async (_case, rows, reads) => {
  const { fast, plain } = await tables(rows);
  const ids = idsToRead(reads, rows);
  const expected = await plain.bulkGet(ids);
  expect(await fast.bulkGet(ids)).toEqual(expected);
  // Inside a read-write transaction too, as RxDB reads before it writes.
  const inTransaction = await fast.db.transaction('rw', fast, async () => {
    const found = await fast.bulkGet(ids);
    await fast.put({ id: 'written-in-between', n: -1 });
    return found;
  });
  expect(inTransaction).toEqual(expected);
  if (rows > 0) expect(expected.some((row) => row !== undefined)).toBe(true);
});

test('ids none of which are stored are answered from the keys alone', async () => {
  const { fast } = await tables(1000);
  const ids = Array.from({ length: 200 }, (_, i) => `absent-${i}`);
  expect(await fast.bulkGet(ids)).toEqual(ids.map(() => undefined));
});

test('a read sees the writes of its own transaction', async () => {
  const { fast } = await tables(0);
  const ids = Array.from({ length: 200 }, (_, i) => `new-${i}`);
  const found = await fast.db.transaction('rw', fast, async () => {
    await fast.bulkPut(ids.slice(0, 100).map((id, n) => ({ id, n })));
    return fast.bulkGet(ids);
  });
  expect(found.filter(Boolean)).toHaveLength(100);
  expect(found[0]).toEqual({ id: 'new-0', n: 0 });
  expect(found[150]).toBeUndefined();
});
