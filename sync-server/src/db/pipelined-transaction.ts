import type postgres from 'postgres';
import type { Sql } from './client.ts';

/**
 * A transaction whose statements travel in batches over one reserved connection: `BEGIN` goes out
 * with the first batch and `COMMIT` with the last, instead of each waiting for its own answer
 * (`sql.begin` waits for `BEGIN` before it runs anything, and for each statement the caller
 * awaits). A sync push (sync/push.ts) is then two round trips, its reads, then its writes with
 * `COMMIT`, instead of five: under a storm of pushes a connection is held for less than half as
 * long, so the same pool serves twice as many.
 *
 *     await inPipelinedTransaction(sql, async (tx, commit) => {
 *       const [rows] = await Promise.all([tx`SELECT …`, tx`SELECT …`]); // goes out with BEGIN
 *       await Promise.all([tx`UPDATE …`, commit()]);                     // writes and COMMIT
 *     });
 *
 * Statements run in the order they are sent, as in any transaction; a postgres.js query is sent
 * when it is first awaited (an `async` helper that awaits its query sends it when called). A statement that fails aborts
 * the transaction: the statements after it fail, and a `COMMIT` behind it ends it as a rollback,
 * so the caller's `Promise.all` rejects and nothing is kept. When `run` returns without having sent
 * COMMIT, it is sent then; a COMMIT that ended in a rollback (a failed statement whose error `run`
 * swallowed) throws. When `run` throws, the transaction is rolled back before the connection goes
 * back to the pool.
 */
export async function inPipelinedTransaction<T>(
  sql: Sql,
  run: (tx: postgres.ReservedSql, commit: () => Promise<unknown>) => Promise<T>,
): Promise<T> {
  const tx = await sql.reserve();
  // Like every postgres.js query, COMMIT goes out when it is first awaited (or `then`ed), not
  // when it is made: in `Promise.all([tx`…`, commit()])` it follows the statements before it.
  let committing: postgres.PendingQuery<postgres.Row[]> | undefined;
  const commit = () => (committing ??= tx`COMMIT`);
  try {
    // Sent now, answered with the first batch; its failure (the connection lost) fails them too.
    const begun = tx`BEGIN`.execute();
    begun.catch(() => undefined);
    const result = await run(tx, commit);
    await begun;
    // PostgreSQL answers COMMIT of a failed transaction with ROLLBACK, not with an error.
    const ended = await commit();
    if (ended.command !== 'COMMIT') throw new Error(`the transaction ended with ${ended.command}`);
    return result;
  } catch (error) {
    // Harmless when the COMMIT behind a failed statement already ended the transaction.
    await tx`ROLLBACK`.catch(() => undefined);
    throw error;
  } finally {
    tx.release();
  }
}
