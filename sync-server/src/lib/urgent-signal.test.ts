import { expect, test } from 'vitest';
import { createSql } from '../db/client.ts';
import { insertSignedInUser } from '../test/actors.ts';
import { answersWithin, gate } from '../test/gates.ts';
import { createTestApp, createTestHarness } from '../test/harness.ts';
import { insertAirline, insertFlights, pushedFavourite, pushInit } from '../sync/test-fixtures.ts';
import { createLogger } from './logger.ts';
import { shareUrgentWork, URGENT_CHANNEL } from './urgent-signal.ts';
import { UrgentWork } from './urgent-work.ts';

/**
 * Checkouts are urgent work across instances (docs/decisions/024-urgent-work-cluster-wide.md):
 * what one instance runs, the others on the same database hear over LISTEN/NOTIFY, and their sync
 * pushes step back for it too. Real PostgreSQL, one pool per instance.
 */

const { sql, url } = await createTestHarness();
const logger = createLogger('silent');

/** How many sessions listen on the urgent channel. */
async function listeners(): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE query ILIKE ${`%listen%${URGENT_CHANNEL}%`}`;
  return row!.n;
}

test("one instance's urgent work is running on the other from its start to its end", async () => {
  const [poolA, poolB] = [createSql(url, { max: 2 }), createSql(url, { max: 2 })];
  const [a, b] = [new UrgentWork(), new UrgentWork()];
  const signals = [shareUrgentWork(a, poolA, logger, 'a'), shareUrgentWork(b, poolB, logger, 'b')];
  try {
    // Both listen before anything is said (the LISTEN is asynchronous).
    await expect.poll(() => listeners()).toBeGreaterThanOrEqual(2);
    const checkout = gate();
    const running = a.run(() => checkout.opened);
    await expect.poll(() => b.running).toBe(true);
    expect(b.runningHere).toBe(false);
    // An instance does not hear itself as another one.
    expect(a.running).toBe(true);
    checkout.open();
    await running;
    await expect.poll(() => b.running).toBe(false);
    expect(a.running).toBe(false);

    // A start whose end never comes (the instance died) is forgotten after URGENT_WAIT_MAX_MS.
    await sql`SELECT pg_notify(${URGENT_CHANNEL}, 'gone 1')`;
    await expect.poll(() => b.running).toBe(true);
    const heard = performance.now();
    await expect.poll(() => b.running, { timeout: 3_000 }).toBe(false);
    expect(performance.now() - heard).toBeGreaterThanOrEqual(400);
    // Anything else on the channel changes nothing.
    await sql`SELECT pg_notify(${URGENT_CHANNEL}, '')`;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(b.running).toBe(false);
  } finally {
    await Promise.all(signals.map((signal) => signal.close()));
    await Promise.all([poolA.end({ timeout: 1 }), poolB.end({ timeout: 1 })]);
  }
});

test('a push on one instance waits while a checkout runs on another, and goes when it ends', async () => {
  const [poolA, poolB] = [createSql(url, { max: 3 }), createSql(url, { max: 4 })];
  const urgentA = new UrgentWork();
  const urgentB = new UrgentWork();
  const { app: b } = createTestApp(poolB, { urgent: urgentB });
  createTestApp(poolA, { urgent: urgentA });
  try {
    const airlineId = await insertAirline(sql, 'Signal Air');
    const [flightId] = await insertFlights(sql, airlineId, 1);
    const customer = await insertSignedInUser(sql);
    await expect.poll(() => listeners()).toBeGreaterThanOrEqual(3);

    // A checkout runs on A (held open); B hears of it.
    const checkout = gate();
    const running = urgentA.run(() => checkout.opened);
    await expect.poll(() => urgentB.running).toBe(true);
    const push = b.request(
      '/api/sync/favourites/push',
      pushInit(customer.headers, {
        rows: [{ newDocumentState: pushedFavourite(customer.id, flightId!) }],
      }),
    );
    expect(await answersWithin(push, 200)).toBe(false);

    checkout.open();
    await running;
    expect((await push).status).toBe(200);
    const [row] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM favourites WHERE flight_id = ${flightId!} AND NOT deleted`;
    expect(row!.n).toBe(1);
  } finally {
    await Promise.all([poolA.end({ timeout: 1 }), poolB.end({ timeout: 1 })]);
  }
});
