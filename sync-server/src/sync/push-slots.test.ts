import { expect, test } from 'vitest';
import { createSql } from '../db/client.ts';
import { insertUser } from '../test/actors.ts';
import { createTestDatabase } from '../test/database.ts';
import { pushChanges } from './push.ts';
import { insertAirline, insertFlights } from './test-fixtures.ts';

/**
 * A storm of sync pushes leaves two connections of an instance's pool free (push.ts,
 * `pushSlotsOf`) for checkout, pulls and pages. Real PostgreSQL: eight customers' pushes
 * are held inside their transactions (their partition locks are taken elsewhere) while a plain
 * query on the same pool of four still answers at once.
 */

const { sql, url } = await createTestDatabase();

test('pushes held in their transactions leave two connections free; they all finish after', async () => {
  const pool = createSql(url, { max: 4 });
  const holder = createSql(url, { max: 1 });
  try {
    const airlineId = await insertAirline(sql, 'Slots Air');
    const [flightId] = await insertFlights(sql, airlineId, 1);
    const customers = await Promise.all(Array.from({ length: 8 }, () => insertUser(sql)));

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const allLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = holder.begin(async (tx) => {
      for (const customer of customers) await tx`SELECT lock_partition(${customer.id})`;
      locked();
      await released;
    });
    await allLocked;

    const pushes = customers.map((customer) =>
      pushChanges(pool, customer, 'favourites', {
        rows: [
          {
            newDocumentState: {
              id: flightId,
              userId: customer.id,
              flightId,
              airlineId,
              airlineName: 'Slots Air',
              origin: 'Argentina',
              destination: 'Chile',
              departureDate: '2030-01-01',
              departureHour: '08:30',
              arrivalHour: '10:45',
              priceCents: 100,
              logo: '',
              createdAt: Date.now(),
              _deleted: false,
            },
          },
        ],
      }),
    );
    // Two pushes wait for their partition locks inside their transactions, six wait for a slot.
    await expect
      .poll(
        async () =>
          (
            await sql<{ n: number }[]>`
              SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`
          )[0]!.n,
      )
      .toBe(2);
    const started = performance.now();
    const [answer] = await Promise.race([
      pool<{ ok: number }[]>`SELECT 1 AS ok`,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the pool is exhausted')), 2_000),
      ),
    ]);
    expect(answer).toEqual({ ok: 1 });
    expect(performance.now() - started).toBeLessThan(1_000);

    release();
    await holding;
    await Promise.all(pushes);
    const [live] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM favourites WHERE flight_id = ${flightId!} AND NOT deleted`;
    expect(live!.n).toBe(8);
  } finally {
    await pool.end({ timeout: 1 });
    await holder.end({ timeout: 1 });
  }
});
