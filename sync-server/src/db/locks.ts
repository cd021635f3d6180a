import type postgres from 'postgres';
import type { Sql } from './client.ts';

/**
 * Takes a customer's (or airline's) partition lock until the transaction ends: the 010
 * migration's `lock_partition`. Every transaction that reads a partition's replicated documents to
 * decide what to write takes it first (a sync push comparing assumed and current states, the REST
 * cart, checkout emptying or restoring a cart), so nobody changes them in between. Other
 * customers' transactions never wait for it (docs/decisions/010-transaction-watermarks.md).
 */
export async function lockPartition(
  tx: postgres.TransactionSql | Sql,
  partition: string,
): Promise<void> {
  await tx`SELECT lock_partition(${partition})`;
}

/**
 * Locks flights' rows in id order before a statement updates several of them. An UPDATE locks
 * rows in whatever order its plan visits them; two such statements over the same flights (two
 * checkouts, or a checkout and an airline's deletion) could each hold a row the other waits for.
 * Taken in one order, they queue instead. Pass the ids, or an airline to lock all its flights.
 */
export async function lockFlights(
  tx: postgres.TransactionSql | Sql,
  which: { ids: readonly string[] } | { airlineId: string },
): Promise<void> {
  if ('ids' in which) {
    await tx`SELECT 1 FROM flights WHERE id = ANY(${which.ids as string[]}::uuid[]) ORDER BY id FOR NO KEY UPDATE`;
  } else {
    await tx`SELECT 1 FROM flights WHERE airline_id = ${which.airlineId} ORDER BY id FOR NO KEY UPDATE`;
  }
}
