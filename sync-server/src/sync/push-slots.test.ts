import { expect, test } from 'vitest';
import { createSql, type Sql } from '../db/client.ts';
import { insertSignedInUser, insertUser } from '../test/actors.ts';
import { answersWithin } from '../test/gates.ts';
import { createTestApp, createTestHarness } from '../test/harness.ts';
import { pushChanges } from './push.ts';
import {
  insertAirline,
  insertFlights,
  pullUrl,
  pushedFavourite,
  pushInit,
  syncHeaders,
} from './test-fixtures.ts';

/**
 * A storm of sync pushes cannot hold up a checkout or a page: pushes take at most all but two
 * connections of their pool (push.ts, `pushSlotsOf`), which stay free for pulls, streams and
 * session lookups, and sync has a pool of its own (app.ts `syncSql`). Real PostgreSQL: customers'
 * pushes are held inside their statements (their partition locks are taken elsewhere) while a
 * plain query on the same pool of four still answers at once.
 */

const { sql, url } = await createTestHarness();

/**
 * Takes the partition locks of `userIds` in a transaction on `holder` and keeps them until
 * `release()`, so that pushes of those users wait inside their own transactions.
 */
async function holdPartitionLocks(holder: Sql, userIds: readonly string[]) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const allLocked = new Promise<void>((resolve) => (locked = resolve));
  const holding = holder.begin(async (tx) => {
    for (const id of userIds) await tx`SELECT lock_partition(${id})`;
    locked();
    await released;
  });
  await allLocked;
  return {
    async release() {
      release();
      await holding;
    },
  };
}

/** Waits until exactly `count` sessions wait for an advisory lock (a partition's). */
async function waitForLockWaiters(count: number) {
  await expect
    .poll(
      async () =>
        (
          await sql<{ n: number }[]>`
            SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`
        )[0]!.n,
    )
    .toBe(count);
}

/** A favourite of the customer's, as a push row. */
function favouriteRow(userId: string, flightId: string) {
  return { newDocumentState: pushedFavourite(userId, flightId) };
}

test('pushes held in their transactions leave two connections free; they all finish after', async () => {
  const pool = createSql(url, { max: 4 });
  const holder = createSql(url, { max: 1 });
  try {
    const airlineId = await insertAirline(sql, 'Slots Air');
    const [flightId] = await insertFlights(sql, airlineId, 1);
    const customers = await Promise.all(Array.from({ length: 8 }, () => insertUser(sql)));

    const locks = await holdPartitionLocks(
      holder,
      customers.map((customer) => customer.id),
    );

    const push = (customer: (typeof customers)[number]) =>
      pushChanges(pool, customer, 'favourites', { rows: [favouriteRow(customer.id, flightId!)] });
    // One after the other, each finds a free slot and waits for its partition lock inside its
    // statement, until both slots (four connections but two) are taken.
    const pushes = [push(customers[0]!)];
    await waitForLockWaiters(1);
    pushes.push(push(customers[1]!));
    await waitForLockWaiters(2);
    // The other six wait for a slot, outside the database.
    pushes.push(...customers.slice(2).map(push));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await waitForLockWaiters(2);
    const started = performance.now();
    const [answer] = await Promise.race([
      pool<{ ok: number }[]>`SELECT 1 AS ok`,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the pool is exhausted')), 2_000),
      ),
    ]);
    expect(answer).toEqual({ ok: 1 });
    expect(performance.now() - started).toBeLessThan(1_000);

    await locks.release();
    await Promise.all(pushes);
    const written = await sql`
      SELECT 1 FROM favourites WHERE flight_id = ${flightId!} AND NOT deleted`;
    expect(written).toHaveLength(8);
  } finally {
    await pool.end({ timeout: 1 });
    await holder.end({ timeout: 1 });
  }
});

test("sync requests use sync's own pool: with it taken, the cart and the catalogue still answer at once", async () => {
  const pool = createSql(url, { max: 3 });
  // One connection: one push waiting for its partition lock inside its statement takes it all.
  const syncPool = createSql(url, { max: 1 });
  const holder = createSql(url, { max: 1 });
  const { app } = createTestApp(pool, { syncSql: syncPool });
  try {
    const airlineId = await insertAirline(sql, 'Slots Air');
    const [flightId] = await insertFlights(sql, airlineId, 1);
    const customers = await Promise.all(Array.from({ length: 3 }, () => insertSignedInUser(sql)));
    const locks = await holdPartitionLocks(
      holder,
      customers.map((customer) => customer.id),
    );

    const pushes = customers.map(({ id, headers }) =>
      app.request(
        '/api/sync/favourites/push',
        pushInit(headers, { rows: [favouriteRow(id, flightId!)] }),
      ),
    );
    await waitForLockWaiters(1);

    // The control: the sync pool is taken (a pull cannot even look its session up).
    const pull = app.request(pullUrl('favourites'), {
      headers: syncHeaders(customers[0]!.headers),
    });
    expect(await answersWithin(pull, 500)).toBe(false);
    // Everything else has the other pool.
    const started = performance.now();
    const cart = await app.request('/api/cart', { headers: customers[1]!.headers });
    const page = await app.request('/api/flights');
    expect([cart.status, page.status]).toEqual([200, 200]);
    expect(performance.now() - started).toBeLessThan(1_000);

    await locks.release();
    expect((await Promise.all(pushes)).map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await pull).status).toBe(200);
  } finally {
    await pool.end({ timeout: 1 });
    await syncPool.end({ timeout: 1 });
    await holder.end({ timeout: 1 });
  }
});
