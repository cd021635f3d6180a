import pLimit from 'p-limit';
import { expect, test } from 'vitest';
import { insertUser } from '../test/actors.ts';
import { gate } from '../test/gates.ts';
import { createTestHarness } from '../test/harness.ts';
import { pushChanges } from './push.ts';
import { PushBatches, type BatchedPush } from './push-batches.ts';
import { insertAirline, insertFlights, pushedFavourite } from './test-fixtures.ts';

/**
 * Group commit of sync pushes (push-batches.ts, docs/decisions/023-push-group-commit.md), on a real
 * PostgreSQL: pushes that wait for a slot commit in one transaction and each keeps its own
 * answer; a push that fails in a batch fails alone; batches whose customers cross never deadlock.
 */

const { sql } = await createTestHarness();

/** The transaction ids that wrote the favourites of `flightIds`, in that order. */
async function writers(flightIds: readonly string[]): Promise<string[]> {
  const rows = await sql<{ flight_id: string; txid: string }[]>`
    SELECT flight_id, txid::text FROM favourites WHERE flight_id = ANY(${flightIds as string[]}::uuid[])`;
  const byFlight = new Map(rows.map((row) => [row.flight_id, row.txid]));
  return flightIds.map((id) => byFlight.get(id) ?? 'none');
}

test('pushes waiting for a slot commit in one transaction, each with its own answer', async () => {
  const airlineId = await insertAirline(sql, 'Batch Air');
  const flights = await insertFlights(sql, airlineId, 4);
  const customers = await Promise.all(Array.from({ length: 3 }, () => insertUser(sql)));
  const [a, b, c] = customers as [
    (typeof customers)[0],
    (typeof customers)[0],
    (typeof customers)[0],
  ];
  // c already has the favourite it is about to push as new: a conflict of its own.
  await sql`INSERT INTO favourites (user_id, flight_id) VALUES (${c.id}, ${flights[2]!})`;

  // One slot, held: the three pushes queue behind it and go out together when it frees.
  const slots = pLimit(1);
  const held = gate();
  const holding = slots(() => held.opened);
  const report = { report: true, slots };
  const pushes = Promise.all([
    pushChanges(
      sql,
      a,
      'favourites',
      { rows: [{ newDocumentState: pushedFavourite(a.id, flights[0]!) }] },
      report,
    ),
    pushChanges(
      sql,
      b,
      'favourites',
      { rows: [{ newDocumentState: pushedFavourite(b.id, flights[1]!) }] },
      report,
    ),
    pushChanges(
      sql,
      c,
      'favourites',
      {
        rows: [
          {
            newDocumentState: pushedFavourite(c.id, flights[2]!, { _deleted: true }),
            assumedMasterState: pushedFavourite(c.id, flights[2]!, { _deleted: true }),
          },
          { newDocumentState: pushedFavourite(c.id, flights[3]!) },
        ],
      },
      report,
    ),
  ]);
  held.open();
  await holding;
  const [forA, forB, forC] = await pushes;

  expect(forA!.conflicts).toEqual([]);
  expect(forB!.conflicts).toEqual([]);
  // c's removal assumed a tombstone where a live favourite stands: a conflict, answered with it.
  expect(forC!.conflicts).toEqual([flights[2]]);
  expect(forC!.documents.map((doc) => [doc.id, doc._deleted])).toContainEqual([flights[2], false]);

  // Written by one transaction: the three pushes' rows carry the same transaction id.
  const [first, second, , fourth] = await writers(flights);
  expect(first).not.toBe('none');
  expect([second, fourth]).toEqual([first, first]);
});

test('a push that fails inside a batch fails alone: its neighbours are written and answered', async () => {
  const airlineId = await insertAirline(sql, 'Batch Air');
  const flights = await insertFlights(sql, airlineId, 3);
  const customers = await Promise.all(Array.from({ length: 3 }, () => insertUser(sql)));
  const batches = new PushBatches(sql, false);
  const slots = pLimit(1);
  const held = gate();
  const holding = slots(() => held.opened);
  const favourite = (userId: string, flightId: string): BatchedPush => ({
    collection: 'favourites',
    partition: userId,
    rows: [{ id: flightId, deleted: false, assumed: null }],
    perRow: true,
  });
  // An amount `sync_push` refuses by raising (push.ts's schemas never let one through).
  const badCart: BatchedPush = {
    collection: 'cart',
    partition: customers[1]!.id,
    rows: [{ id: flights[1]!, deleted: false, amount: 0, assumed: null }],
    perRow: true,
  };
  const answers = [
    batches.run(favourite(customers[0]!.id, flights[0]!), slots),
    batches.run(badCart, slots),
    batches.run(favourite(customers[2]!.id, flights[2]!), slots),
  ];
  held.open();
  await holding;
  const [first, bad, third] = await Promise.allSettled(answers);

  expect(bad!.status).toBe('rejected');
  expect(first!.status).toBe('fulfilled');
  expect(third!.status).toBe('fulfilled');
  const [written] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM favourites
    WHERE (user_id, flight_id) IN ((${customers[0]!.id}::uuid, ${flights[0]!}::uuid), (${customers[2]!.id}::uuid, ${flights[2]!}::uuid))`;
  expect(written!.n).toBe(2);
  const [lines] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM cart_lines WHERE user_id = ${customers[1]!.id}`;
  expect(lines!.n).toBe(0);
  // Each run again on its own after the batch rolled back: two transactions.
  const [one, , three] = await writers(flights);
  expect(one).not.toBe(three);
});

test('batches whose customers cross take their partition locks in one order: no deadlock', async () => {
  const airlineId = await insertAirline(sql, 'Batch Air');
  const flights = await insertFlights(sql, airlineId, 2);
  const customers = await Promise.all(Array.from({ length: 2 }, () => insertUser(sql)));
  const deadlocks = async () =>
    (
      await sql<{ n: string }[]>`
        SELECT deadlocks::text AS n FROM pg_stat_database WHERE datname = current_database()`
    )[0]!.n;
  const before = await deadlocks();
  const toggle = (userId: string, flightId: string, deleted: boolean): BatchedPush => ({
    collection: 'cart',
    partition: userId,
    rows: [{ id: flightId, deleted, amount: 1 + Math.floor(Math.random() * 5), assumed: null }],
    perRow: true,
  });
  const [x, y] = customers.map((customer) => customer.id) as [string, string];
  // Two batches at once, one with x's push before y's, the other the other way round, 20 times.
  // Each push writes a cart line (its row lock) after its partition lock: taken in push order,
  // the two batches would each hold a lock the other waits for.
  let slowest = 0;
  for (let round = 0; round < 20; round++) {
    const started = performance.now();
    const forward = new PushBatches(sql, false);
    const backward = new PushBatches(sql, false);
    const [one, two] = [gate(), gate()];
    const [slotsOne, slotsTwo] = [pLimit(1), pLimit(1)];
    const holdOne = slotsOne(() => one.opened);
    const holdTwo = slotsTwo(() => two.opened);
    const deleted = round % 2 === 1;
    const answers = [
      forward.run(toggle(x, flights[0]!, deleted), slotsOne),
      forward.run(toggle(y, flights[1]!, deleted), slotsOne),
      backward.run(toggle(y, flights[1]!, deleted), slotsTwo),
      backward.run(toggle(x, flights[0]!, deleted), slotsTwo),
    ];
    one.open();
    two.open();
    await Promise.all([holdOne, holdTwo, ...answers]);
    slowest = Math.max(slowest, performance.now() - started);
  }
  // A deadlock is found after `deadlock_timeout` (1 s here): no round waited for one. (The
  // statistics counter is checked too, but a backend may report it a second late.)
  const [{ deadlock_timeout: timeout }] = (await sql`SHOW deadlock_timeout`) as unknown as [
    { deadlock_timeout: string },
  ];
  expect(timeout).toBe('1s');
  expect(slowest).toBeLessThan(1_000);
  expect(await deadlocks()).toBe(before);
});
