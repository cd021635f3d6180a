import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSql } from '../db/client.ts';
import { FLIGHT_NOT_FOUND } from '../features/cart/queries.ts';
import type { Actor } from '../test/actors.ts';
import { createTestHarness } from '../test/harness.ts';
import { selectChanges } from './documents.ts';
import {
  insertAirline,
  insertFlights,
  pullUrl,
  pushedCartLine,
  pushInit,
  syncHeaders,
} from './test-fixtures.ts';

/**
 * docs/architecture.md §4: "a pull never skips a row committed concurrently". Writers and pullers run at the
 * same time on real PostgreSQL; at the end every puller must hold exactly the server's rows.
 */

const { sql, url, app, actors } = await createTestHarness({ actors: true });
// Writers get their own connections, so that many transactions are really open at once.
const writerSql = createSql(url, { max: 12 });
let airlineId: string;

afterAll(async () => {
  await writerSql.end({ timeout: 1 });
});

beforeAll(async () => {
  airlineId = await insertAirline(sql, 'Concurrency Air');
  await insertFlights(sql, airlineId, 20);
});

type Doc = Record<string, unknown> & { id: string };

/** An RxDB-like client of one collection: pulls from its checkpoint and keeps the latest state. */
function createPuller(collection: string, limit: number, actor?: Actor) {
  const docs = new Map<string, Doc>();
  let checkpoint: { tx: number; revision: number; id: string } | null = null;
  let last = { tx: 0, revision: 0 };
  return {
    docs,
    /** Pulls until a short batch; returns how many documents came. */
    async pullUntilCaughtUp(): Promise<number> {
      let received = 0;
      for (;;) {
        const response = await app.request(
          pullUrl(collection, {
            limit,
            tx: checkpoint?.tx,
            revision: checkpoint?.revision,
            id: checkpoint?.id,
          }),
          { headers: syncHeaders(actor?.headers() ?? {}) },
        );
        expect(response.status).toBe(200);
        const body = (await response.json()) as { documents: Doc[]; checkpoint: typeof checkpoint };
        for (const doc of body.documents) docs.set(doc.id, doc);
        received += body.documents.length;
        if (body.checkpoint) {
          // Checkpoints only move forward: positions (tx, revision) in order.
          const { tx, revision } = body.checkpoint;
          expect(tx > last.tx || (tx === last.tx && revision >= last.revision)).toBe(true);
          last = { tx, revision };
        }
        checkpoint = body.checkpoint;
        if (body.documents.length < limit) return received;
      }
    },
  };
}

async function serverDocs(
  collection: 'flights' | 'cart',
  partition: string | null,
): Promise<Map<string, Doc>> {
  const batch = await selectChanges(sql, collection, partition, null, 1_000_000);
  return new Map(batch.documents.map((doc) => [doc.id, doc as unknown as Doc]));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomInt = (n: number) => Math.floor(Math.random() * n);

/**
 * Writers and pullers at once; then how many documents each puller holds that differ from the
 * server's (missed or stale), in total.
 */
async function runConcurrentWriters(): Promise<{ flights: number; cart: number; wrong: number }> {
  {
    const flightIds = (
      await sql<{ id: string }[]>`SELECT id FROM flights WHERE airline_id = ${airlineId}`
    ).map((r) => r.id);
    const customer = actors.customer;
    const userId = customer.user!.id;
    let writing = true;

    // Flight writers: multi-row transactions that hold their revisions open for a while before
    // committing (pg_sleep), so later transactions constantly try to commit larger revisions first.
    const flightWriter = async (writer: number) => {
      for (let round = 0; round < 25; round++) {
        await writeFlights(writer, round);
      }
    };
    // Two random flights updated in random order can deadlock (PostgreSQL then rolls one
    // transaction back, which replicates nothing); the app's multi-flight writers lock in id
    // order (db/locks.ts), these writers just go on.
    const writeFlights = (writer: number, round: number) =>
      writerSql
        .begin(async (tx) => {
          const kind = randomInt(4);
          if (kind === 0) {
            const ids = await insertFlights(tx, airlineId, 1 + randomInt(3));
            flightIds.push(...ids);
          } else {
            const id = flightIds[randomInt(flightIds.length)]!;
            if (kind === 1)
              await tx`UPDATE flights SET price_cents = price_cents + 1 WHERE id = ${id}`;
            if (kind === 2) await tx`UPDATE flights SET tickets = ${randomInt(3)} WHERE id = ${id}`;
            if (kind === 3) await tx`UPDATE flights SET deleted = NOT deleted WHERE id = ${id}`;
          }
          await tx`SELECT pg_sleep(${randomInt(15) / 1000})`;
          if (randomInt(2) === 0) {
            await tx`UPDATE flights SET description = ${`writer ${writer} round ${round}`} WHERE id = ${flightIds[randomInt(flightIds.length)]!}`;
          }
        })
        .catch((error: unknown) => {
          if ((error as { code?: string }).code !== '40P01') throw error;
        });

    // Cart pushers: two "devices" of one customer pushing through the HTTP endpoint.
    let refusedAsDeleted = 0;
    const cartPusher = async () => {
      for (let round = 0; round < 20; round++) {
        const flightId = flightIds[randomInt(20)]!;
        const doc = pushedCartLine(userId, flightId, 1 + randomInt(5), {
          _deleted: randomInt(4) === 0,
        });
        const response = await app.request(
          '/api/sync/cart/push',
          pushInit(customer.headers(), { rows: [{ newDocumentState: doc }] }),
        );
        // A live line of a flight a writer has just deleted is refused (and writes nothing).
        if (response.status === 404 && !doc._deleted) {
          expect(await response.json()).toMatchObject({ message: FLIGHT_NOT_FOUND });
          refusedAsDeleted++;
          continue;
        }
        expect(response.status).toBe(200);
      }
    };

    const flightPullers = Array.from({ length: 4 }, (_, i) => createPuller('flights', 3 + i * 4));
    const cartPullers = Array.from({ length: 2 }, (_, i) => createPuller('cart', 2 + i, customer));
    const pullerLoop = async (puller: ReturnType<typeof createPuller>) => {
      while (writing) {
        await puller.pullUntilCaughtUp();
        await sleep(randomInt(5));
      }
    };

    const pulling = [...flightPullers, ...cartPullers].map(pullerLoop);
    try {
      await Promise.all([
        ...Array.from({ length: 6 }, (_, i) => flightWriter(i)),
        cartPusher(),
        cartPusher(),
      ]);
    } finally {
      writing = false;
      await Promise.allSettled(pulling);
    }
    await Promise.all(pulling);
    // One last catch-up pull each, as a client does on its next live event or RESYNC.
    for (const puller of [...flightPullers, ...cartPullers]) await puller.pullUntilCaughtUp();

    const flights = await serverDocs('flights', null);
    const cart = lineFields(await serverDocs('cart', userId));
    expect(refusedAsDeleted).toBeLessThan(40); // not every push (the writers delete a few flights)
    let wrong = 0;
    for (const puller of flightPullers) wrong += differences(puller.docs, flights);
    for (const puller of cartPullers) wrong += differences(lineFields(puller.docs), cart);
    return { flights: flights.size, cart: cart.size, wrong };
  }
}

/** Documents of `held` missing from or different in `server`, and documents it lacks. */
function differences(held: Map<string, Doc>, server: Map<string, Doc>): number {
  let count = 0;
  for (const [id, doc] of server) if (!isDeepStrictEqual(held.get(id), doc)) count++;
  for (const id of held.keys()) if (!server.has(id)) count++;
  return count;
}

/**
 * A cart line's own fields, as a client keeps them. Its flight summary (price, stock, hours) is
 * read from the flight when pulled and no longer moves the line's revision (010 migration): a
 * client shows the summary of its replicated flight instead.
 */
function lineFields(docs: Map<string, Doc>): Map<string, Doc> {
  const own = (doc: Doc) =>
    doc._deleted
      ? { id: doc.id, _deleted: true }
      : {
          id: doc.id,
          userId: doc.userId,
          flightId: doc.flightId,
          amount: doc.amount,
          flightDeleted: doc.flightDeleted,
          _deleted: doc._deleted,
        };
  return new Map([...docs].map(([id, doc]) => [id, own(doc)]));
}

/** Runs `body` with the replication watermark switched off (every row counts as settled). */
async function withoutWatermark<T>(body: () => Promise<T>): Promise<T> {
  const [saved] = await sql<{ definition: string }[]>`
    SELECT pg_get_functiondef('replication_watermark'::regproc) AS definition`;
  await sql`CREATE OR REPLACE FUNCTION replication_watermark() RETURNS int8 LANGUAGE sql STABLE
    AS $$ SELECT 9223372036854775807::int8 $$`;
  try {
    return await body();
  } finally {
    await sql.unsafe(saved!.definition);
  }
}

test(
  'concurrent writers and pullers: every puller ends with exactly the server rows',
  { timeout: 120_000 },
  async () => {
    const result = await runConcurrentWriters();
    expect(result.flights).toBeGreaterThan(40);
    expect(result.cart).toBeGreaterThan(0);
    expect(result.wrong).toBe(0);
  },
);

test(
  'negative control: without the watermark the same run leaves pullers with missed or stale rows',
  { timeout: 120_000 },
  async () => {
    const result = await withoutWatermark(runConcurrentWriters);
    expect(result.wrong).toBeGreaterThan(0);
  },
);

/**
 * The hazard the watermark removes, shown deterministically: transaction A writes and stays open,
 * B writes after it (a larger txid and revision) and commits, a client pulls, then A commits.
 * Nothing makes B wait for A. Without the watermark the pull returns B's row, the checkpoint
 * passes A's position, and the client never sees A's row; with it, B's row is held back until A
 * has ended and both arrive in order.
 */
async function runInterleaving(): Promise<{ missed: boolean; bWhileAOpen: string }> {
  const [a, b] = await insertFlights(sql, airlineId, 2);
  const puller = createPuller('flights', 1000);
  await puller.pullUntilCaughtUp();

  let releaseA!: () => void;
  const aMayCommit = new Promise<void>((resolve) => (releaseA = resolve));
  let aWrote!: () => void;
  const aHasWritten = new Promise<void>((resolve) => (aWrote = resolve));
  const transactionA = writerSql.begin(async (tx) => {
    await tx`UPDATE flights SET description = 'written by A' WHERE id = ${a!}`;
    aWrote();
    await aMayCommit;
  });
  await aHasWritten;
  const transactionB =
    writerSql`UPDATE flights SET description = 'written by B' WHERE id = ${b!}`.then(
      () => 'committed',
    );
  // "Nobody waits": B commits while A is open. Were B made to wait for A, it would wait for ever
  // (A commits only below); the bound sits far from its milliseconds, for a busy machine.
  let giveUp: NodeJS.Timeout | undefined;
  const bState = await Promise.race([
    transactionB,
    new Promise<string>((resolve) => (giveUp = setTimeout(resolve, 10_000, 'waiting'))),
  ]);
  clearTimeout(giveUp);
  await puller.pullUntilCaughtUp();
  const bSeenWhileAOpen = puller.docs.get(b!)?.description === 'written by B';
  releaseA();
  await transactionA;
  await transactionB;
  await puller.pullUntilCaughtUp();
  const descriptionOfA = puller.docs.get(a!)?.description;
  expect(puller.docs.get(b!)?.description).toBe('written by B');
  return {
    missed: descriptionOfA !== 'written by A',
    bWhileAOpen: `${bState}${bSeenWhileAOpen ? ', pulled' : ', held back'}`,
  };
}

test('without the watermark a pull skips a row committed late; with it nothing is skipped, and nobody waits', async () => {
  const unguarded = await withoutWatermark(runInterleaving);
  expect(unguarded).toEqual({ missed: true, bWhileAOpen: 'committed, pulled' });
  const guarded = await runInterleaving();
  expect(guarded).toEqual({ missed: false, bWhileAOpen: 'committed, held back' });
});
