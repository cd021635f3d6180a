import { afterAll, expect, inject, test } from 'vitest';
import { createSql } from '../db/client.ts';
import { createLogger } from '../lib/logger.ts';
import { createTestDatabase } from '../test/harness.ts';
import { createChangeFeed, SYNC_CHANNEL, type ChangeListener } from './change-feed.ts';
import { insertAirline, insertFlights } from './test-fixtures.ts';

/**
 * The live feed and the replication watermark (010 migration): a row committed while an older
 * transaction of the same database is still running is held back, and reaches the feed's
 * listeners once that transaction ends, even when it writes no replicated row (so no
 * notification says that it ended). Real PostgreSQL.
 */

const { sql, url } = await createTestDatabase();
const otherSql = createSql(url, { max: 2 });
// The maintenance database of the same PostgreSQL server: transaction ids are cluster-wide.
const elsewhereSql = createSql(inject('adminDatabaseUrl'), { max: 1 });
const feed = createChangeFeed(sql, createLogger('silent'));
afterAll(async () => {
  await feed.close();
  await otherSql.end({ timeout: 1 });
  await elsewhereSql.end({ timeout: 1 });
});

/** Runs `body` while a transaction with an id stays open on `on`; it ends after `body`. */
async function whileOpen<T>(on: typeof sql, body: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const mayEnd = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const hasXid = new Promise<void>((resolve) => (started = resolve));
  const open = on.begin(async (tx) => {
    await tx`SELECT pg_current_xact_id()`;
    started();
    await mayEnd;
  });
  await hasXid;
  try {
    return await body();
  } finally {
    release();
    await open;
  }
}

test('a row held back by an older open transaction arrives when that transaction ends', async () => {
  const airlineId = await insertAirline(sql);
  const [flightId] = await insertFlights(sql, airlineId, 1);
  const seen: string[] = [];
  let delivered!: () => void;
  const arrived = new Promise<void>((resolve) => (delivered = resolve));
  const listener: ChangeListener = (batch) => {
    for (const doc of batch.documents) seen.push((doc as { description: string }).description);
    if (seen.includes('after the old transaction')) delivered();
  };
  // A feed of its own, on a pool that counts the feed's reads of changes.
  let reads = 0;
  const feedSql = createSql(url, {
    max: 2,
    debug: (_connection, query) => {
      if (query.includes('replication_watermark()')) reads += 1;
    },
  });
  const counted = createChangeFeed(feedSql, createLogger('silent'));
  const unsubscribe = await counted.subscribe('flights', null, listener);

  try {
    // An older transaction that writes nothing replicated (it only takes a transaction id).
    await whileOpen(otherSql, async () => {
      await sql`UPDATE flights SET description = 'after the old transaction' WHERE id = ${flightId!}`;
      // Notified and read, but held back: the old transaction could still commit a smaller
      // position. No sleep: while rows are held back the feed reads again, one read at a time,
      // so a second read sent after the commit means the first one has been answered and
      // whatever it delivered has been delivered.
      const readsBefore = reads;
      await expect.poll(() => reads - readsBefore, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      expect(seen).not.toContain('after the old transaction');
    });
    await arrived;
    expect(seen).toContain('after the old transaction');
  } finally {
    unsubscribe();
    await counted.close();
    await feedSql.end({ timeout: 1 });
  }
});

test("another database's open transaction holds nothing back", async () => {
  const airlineId = await insertAirline(sql, 'Elsewhere Air');
  const [flightId] = await insertFlights(sql, airlineId, 1);
  const seen: string[] = [];
  const unsubscribe = await feed.subscribe('flights', null, (batch) => {
    for (const doc of batch.documents) seen.push((doc as { description: string }).description);
  });
  await whileOpen(elsewhereSql, async () => {
    await sql`UPDATE flights SET description = 'while elsewhere is open' WHERE id = ${flightId!}`;
    await expect.poll(() => seen, { timeout: 10_000 }).toContain('while elsewhere is open');
  });
  unsubscribe();
});

test('rows held back when a feed starts reach it once they settle, with no notification after', async () => {
  const airlineId = await insertAirline(sql, 'Late Air');
  const [flightId] = await insertFlights(sql, airlineId, 1);
  const seen: string[] = [];
  let unsubscribe: (() => void) | undefined;
  // The pool's LISTEN connection, which the feed shares: what reaches this listener has reached
  // the feed's too.
  let notified!: () => void;
  const delivered = new Promise<void>((resolve) => (notified = resolve));
  const listening = await sql.listen(SYNC_CHANNEL, (payload) => {
    if (payload.startsWith('flights:')) notified();
  });
  await whileOpen(otherSql, async () => {
    // Committed (and notified) while an older transaction is open, before any feed listens.
    await sql`UPDATE flights SET description = 'before the feed' WHERE id = ${flightId!}`;
    // Its notification is delivered, with no feed of flights to wake (waited for, not slept on).
    await delivered;
    await listening.unlisten();
    unsubscribe = await feed.subscribe('flights', null, (batch) => {
      for (const doc of batch.documents) seen.push((doc as { description: string }).description);
    });
  });
  await expect.poll(() => seen, { timeout: 10_000 }).toContain('before the feed');
  unsubscribe?.();
});

test('a transaction cannot silence its notifications: the old after-commit setting is ignored (025 migration)', async () => {
  const airlineId = await insertAirline(sql, 'Loud Air');
  const [flightId] = await insertFlights(sql, airlineId, 1);
  const heard: string[] = [];
  const listening = await otherSql.listen('skyport_sync', (payload) => heard.push(payload));
  try {
    // What sync pushes said before decision 032, for the after-commit announcer that is gone.
    await sql.begin(async (tx) => {
      await tx`SET LOCAL skyport.announce = after_commit`;
      await tx`UPDATE flights SET description = 'loud' WHERE id = ${flightId!}`;
    });
    await expect.poll(() => heard, { timeout: 5_000 }).toContain('flights:');
  } finally {
    await listening.unlisten();
  }
});
