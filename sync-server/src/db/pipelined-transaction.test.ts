import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestDatabase } from '../test/harness.ts';
import { createSql } from './client.ts';
import { inPipelinedTransaction } from './pipelined-transaction.ts';

/**
 * `inPipelinedTransaction` on a real PostgreSQL: all or nothing like `sql.begin`, though BEGIN
 * and COMMIT travel with other statements; the connection goes back to the pool outside any
 * transaction.
 */

const { sql, url } = await createTestDatabase();
// One connection: whatever a transaction leaves behind, the next statement would see.
const pool = createSql(url, { max: 1 });

beforeAll(async () => {
  await sql`CREATE TABLE pipelined (id int PRIMARY KEY, note text NOT NULL)`;
});
afterAll(() => pool.end({ timeout: 1 }));

const rows = async () =>
  (await sql<{ id: number }[]>`SELECT id FROM pipelined ORDER BY id`).map((row) => row.id);
/** Whether the pool's connection is inside a transaction (a savepoint is refused outside one). */
const inTransaction = () =>
  pool`SAVEPOINT probe`.then(
    () => true,
    () => false,
  );

test('writes sent with COMMIT are kept; reads in the first batch see the transaction', async () => {
  const seen = await inPipelinedTransaction(pool, async (tx, commit) => {
    const [[before]] = await Promise.all([
      tx<{ n: number }[]>`SELECT count(*)::int AS n FROM pipelined`,
    ]);
    await Promise.all([
      tx`INSERT INTO pipelined VALUES (1, 'one')`,
      tx`INSERT INTO pipelined VALUES (2, 'two')`,
      commit(),
    ]);
    return before!.n;
  });
  expect(seen).toBe(0);
  expect(await rows()).toEqual([1, 2]);
  expect(await inTransaction()).toBe(false);
});

test('a failing statement before the COMMIT sent behind it keeps nothing of the batch', async () => {
  await expect(
    inPipelinedTransaction(pool, async (tx, commit) => {
      await Promise.all([
        tx`INSERT INTO pipelined VALUES (3, 'three')`,
        tx`INSERT INTO pipelined VALUES (4, NULL)`,
        tx`INSERT INTO pipelined VALUES (5, 'five')`,
        commit(),
      ]);
    }),
  ).rejects.toMatchObject({ code: '23502' });
  expect(await rows()).toEqual([1, 2]);
  expect(await inTransaction()).toBe(false);
});

test('a callback that throws after writing rolls back, and one that returns commits', async () => {
  await expect(
    inPipelinedTransaction(pool, async (tx) => {
      await tx`INSERT INTO pipelined VALUES (6, 'six')`;
      throw new Error('refused');
    }),
  ).rejects.toThrow('refused');
  expect(await rows()).toEqual([1, 2]);
  expect(await inTransaction()).toBe(false);

  await inPipelinedTransaction(pool, async (tx) => {
    await tx`INSERT INTO pipelined VALUES (7, 'seven')`;
  });
  expect(await rows()).toEqual([1, 2, 7]);
});

test('a failed statement whose error the callback swallowed does not pass for committed', async () => {
  await expect(
    inPipelinedTransaction(pool, async (tx) => {
      await tx`INSERT INTO pipelined VALUES (8, 'eight')`;
      await tx`INSERT INTO pipelined VALUES (9, NULL)`.catch(() => undefined);
    }),
  ).rejects.toThrow('the transaction ended with ROLLBACK');
  expect(await rows()).toEqual([1, 2, 7]);
  expect(await inTransaction()).toBe(false);
});
