import { expect, test } from 'vitest';
import { insertAirline, insertFlights } from '../sync/test-fixtures.ts';
import { createTestDatabase } from '../test/harness.ts';
import { createSql } from './client.ts';
import { beginRetryingDeadlocks } from './locks.ts';

/**
 * The deadlock `beginRetryingDeadlocks` is for, on a real PostgreSQL: two transactions sell out
 * flights of two airlines in crossing orders, so each holds one airline's counter row (migration
 * 011) and waits for the other's. PostgreSQL aborts one of them; it runs again and both commit.
 */

const { sql, url } = await createTestDatabase();

/** A promise and the function that resolves it. */
function signal() {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => (fire = resolve));
  return { fire, fired };
}

test('two sell-outs crossing over two airlines deadlock once, and both commit on the retry', async () => {
  const first = createSql(url, { max: 1 });
  const second = createSql(url, { max: 1 });
  try {
    const alpha = await insertAirline(sql, 'Alpha Air');
    const beta = await insertAirline(sql, 'Beta Air');
    const [alpha1, alpha2] = await insertFlights(sql, alpha, 2, { tickets: 1 });
    const [beta1, beta2] = await insertFlights(sql, beta, 2, { tickets: 1 });
    // Four routes with no place in common: the airlines' rows are the only counter rows shared.
    const routes = [
      [alpha1, 'Peru', 'Chad'],
      [alpha2, 'Cuba', 'Fiji'],
      [beta1, 'Iran', 'Oman'],
      [beta2, 'Mali', 'Togo'],
    ] as const;
    for (const [id, origin, destination] of routes)
      await sql`UPDATE flights SET origin = ${origin}, destination = ${destination} WHERE id = ${id!}`;
    const counted = async () =>
      (
        await sql<{ airline_id: string; listed: number }[]>`
          SELECT airline_id, (low + mid + high)::int AS listed FROM catalog_airline_counts
          WHERE airline_id IN (${alpha}, ${beta}) ORDER BY airline_id`
      ).map((row) => row.listed);
    expect(await counted()).toEqual([2, 2]);

    const firstHolds = signal();
    const secondHolds = signal();
    const attempts: string[] = [];
    const sellOut = (tx: Parameters<Parameters<typeof beginRetryingDeadlocks>[1]>[0], id: string) =>
      tx`UPDATE flights SET tickets = 0 WHERE id = ${id}`;
    const one = beginRetryingDeadlocks(first, async (tx) => {
      attempts.push('first');
      await sellOut(tx, alpha1!);
      firstHolds.fire();
      // (Bounded, so that a change that removed the deadlock fails the count below, not by hanging;
      // far above the one statement waited for, which a busy machine may slow.)
      await Promise.race([
        secondHolds.fired,
        new Promise((resolve) => setTimeout(resolve, 10_000)),
      ]);
      await sellOut(tx, beta1!);
    });
    const two = beginRetryingDeadlocks(second, async (tx) => {
      attempts.push('second');
      await firstHolds.fired;
      await sellOut(tx, beta2!);
      secondHolds.fire();
      await sellOut(tx, alpha2!);
    });
    await Promise.all([one, two]);

    // One of them was PostgreSQL's victim and ran again.
    expect(attempts).toHaveLength(3);
    const [{ listed }] = (await sql`
      SELECT count(*)::int AS listed FROM flights WHERE tickets > 0 AND NOT deleted`) as [
      { listed: number },
    ];
    expect(listed).toBe(0);
    expect(await counted()).toEqual([0, 0]);
  } finally {
    await first.end({ timeout: 1 });
    await second.end({ timeout: 1 });
  }
});

test('other errors are not retried', async () => {
  let attempts = 0;
  await expect(
    beginRetryingDeadlocks(sql, async (tx) => {
      attempts += 1;
      await tx`SELECT 1 / 0`;
    }),
  ).rejects.toMatchObject({ code: '22012' });
  expect(attempts).toBe(1);
});
