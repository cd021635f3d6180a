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

/** PostgreSQL's `deadlock_detected`: it aborted this transaction to break a cycle of waits. */
const DEADLOCK_DETECTED = '40P01';
/** Attempts of a transaction that keeps being chosen as a deadlock's victim. */
const DEADLOCK_ATTEMPTS = 3;

/**
 * A transaction run again when PostgreSQL aborts it to break a deadlock (after `deadlock_timeout`,
 * 1 s by default; nothing of it was kept). Flight rows are locked in one order (`lockFlights`), but
 * the catalogue's counter rows (migration 011) are updated in the order the flights change: two
 * checkouts that sell out flights of two airlines in crossing orders at the same moment can each
 * hold a counter row the other needs. That is rare (only a change of a flight's membership in a
 * counted set writes a counter row), so one of them waits a second and runs again rather than
 * every such write queueing on one lock. Only for transactions that do nothing outside the
 * database.
 */
export function beginRetryingDeadlocks<T>(
  sql: Sql,
  run: (tx: postgres.TransactionSql) => Promise<T>,
): Promise<T> {
  return retryingDeadlocks(async () => (await sql.begin(run)) as T);
}

/**
 * `transaction` (one transaction: a `sql.begin`, or one statement, which is its own) run again
 * when it is a deadlock's victim, as `beginRetryingDeadlocks` runs a `sql.begin`.
 */
export async function retryingDeadlocks<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code !== DEADLOCK_DETECTED || attempt >= DEADLOCK_ATTEMPTS) throw error;
    }
  }
}
