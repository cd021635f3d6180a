import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApp } from '../app.ts';
import { createSql } from '../db/client.ts';
import { FLIGHT_NOT_FOUND } from '../features/cart/queries.ts';
import { createLogger } from '../lib/logger.ts';
import { createActors, type Actor, type ActorName } from '../test/actors.ts';
import { createTestDatabase } from '../test/database.ts';
import { selectChanges } from './documents.ts';
import { insertAirline, insertFlights, pullUrl, pushInit, syncHeaders } from './test-fixtures.ts';

/**
 * docs/architecture.md §4: "a pull never skips a row committed concurrently". Writers and pullers run at the
 * same time on real PostgreSQL; at the end every puller must hold exactly the server's rows.
 */

const { sql, url } = await createTestDatabase();
// Writers get their own connections, so that many transactions are really open at once.
const writerSql = createSql(url, { max: 12 });
const app = createApp({ sql, logger: createLogger(process.env.SYNC_TEST_LOG ?? 'silent') });
let actors: Record<ActorName, Actor>;
let airlineId: string;

afterAll(async () => {
  await writerSql.end({ timeout: 1 });
});

beforeAll(async () => {
  actors = await createActors(sql);
  airlineId = await insertAirline(sql, 'Concurrency Air');
  await insertFlights(sql, airlineId, 20);
});

type Doc = Record<string, unknown> & { id: string };

/** An RxDB-like client of one collection: pulls from its checkpoint and keeps the latest state. */
function createPuller(collection: string, limit: number, actor?: Actor) {
  const docs = new Map<string, Doc>();
  let checkpoint: { revision: number; id: string } | null = null;
  let lastRevision = 0;
  return {
    docs,
    /** Pulls until a short batch; returns how many documents came. */
    async pullUntilCaughtUp(): Promise<number> {
      let received = 0;
      for (;;) {
        const response = await app.request(
          pullUrl(collection, { limit, revision: checkpoint?.revision, id: checkpoint?.id }),
          { headers: syncHeaders(actor?.headers() ?? {}) },
        );
        expect(response.status).toBe(200);
        const body = (await response.json()) as { documents: Doc[]; checkpoint: typeof checkpoint };
        for (const doc of body.documents) docs.set(doc.id, doc);
        received += body.documents.length;
        if (body.checkpoint) {
          // Checkpoints only move forward.
          expect(body.checkpoint.revision).toBeGreaterThanOrEqual(lastRevision);
          lastRevision = body.checkpoint.revision;
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
  const batch = await selectChanges(sql, collection, partition, 0, 1_000_000);
  return new Map(batch.documents.map((doc) => [doc.id, doc as unknown as Doc]));
}

/**
 * What a client keeps of a document: all of a live one; of a tombstone, only that it is gone
 * (RxDB drops a deleted document's fields from every query).
 */
function visible(docs: Map<string, Doc>): Map<string, Doc> {
  return new Map([...docs].map(([id, doc]) => [id, doc._deleted ? { id, _deleted: true } : doc]));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomInt = (n: number) => Math.floor(Math.random() * n);

test(
  'concurrent writers and pullers: every puller ends with exactly the server rows',
  { timeout: 120_000 },
  async () => {
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
        await writerSql.begin(async (tx) => {
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
        });
      }
    };

    // Cart pushers: two "devices" of one customer pushing through the HTTP endpoint.
    let refusedAsDeleted = 0;
    const cartPusher = async () => {
      for (let round = 0; round < 20; round++) {
        const flightId = flightIds[randomInt(20)]!;
        const doc = {
          id: flightId,
          userId,
          flightId,
          airlineId,
          airlineName: 'x',
          origin: 'Argentina',
          destination: 'Chile',
          priceCents: 100,
          logo: '',
          departureHour: '08:30',
          arrivalHour: '10:45',
          tickets: 1,
          amount: 1 + randomInt(5),
          _deleted: randomInt(4) === 0,
        };
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
    await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => flightWriter(i)),
      cartPusher(),
      cartPusher(),
    ]);
    writing = false;
    await Promise.all(pulling);
    // One last catch-up pull each, as a client does on its next live event or RESYNC.
    for (const puller of [...flightPullers, ...cartPullers]) await puller.pullUntilCaughtUp();

    const flights = await serverDocs('flights', null);
    const cart = await serverDocs('cart', userId);
    expect(flights.size).toBeGreaterThan(40);
    expect(cart.size).toBeGreaterThan(0);
    expect(refusedAsDeleted).toBeLessThan(40); // not every push (the writers delete a few flights)
    for (const puller of flightPullers) expect(puller.docs).toEqual(flights);
    for (const puller of cartPullers) expect(visible(puller.docs)).toEqual(visible(cart));
  },
);

/**
 * The hazard the advisory lock removes, shown deterministically: transaction A draws a revision
 * and stays open, B draws a larger one and commits, a client pulls (and moves its checkpoint past
 * A's revision), then A commits. Without the lock the client never sees A's row.
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
  // Give B the chance to commit while A is open (it can without the lock; with it, B waits).
  const bState = await Promise.race([transactionB, sleep(300).then(() => 'waiting')]);
  await puller.pullUntilCaughtUp();
  releaseA();
  await transactionA;
  await transactionB;
  await puller.pullUntilCaughtUp();
  const descriptionOfA = puller.docs.get(a!)?.description;
  return { missed: descriptionOfA !== 'written by A', bWhileAOpen: bState };
}

test('without the advisory lock a pull skips a row committed late; with it nothing is skipped', async () => {
  // This database only: revisions drawn from the sequence with no lock at all.
  await sql`CREATE OR REPLACE FUNCTION assign_replication_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN NEW.revision := nextval('replication_revision'); RETURN NEW; END $$`;
  await sql`CREATE OR REPLACE FUNCTION lock_replication_revisions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RETURN NULL; END $$`;
  const unlocked = await runInterleaving();
  expect(unlocked).toEqual({ missed: true, bWhileAOpen: 'committed' });

  // Back to the migrations' definitions.
  await sql`CREATE OR REPLACE FUNCTION assign_replication_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('skyport:replication'));
      NEW.revision := nextval('replication_revision');
      RETURN NEW;
    END $$`;
  await sql`CREATE OR REPLACE FUNCTION lock_replication_revisions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_advisory_xact_lock(hashtext('skyport:replication')); RETURN NULL; END $$`;
  const locked = await runInterleaving();
  expect(locked).toEqual({ missed: false, bWhileAOpen: 'waiting' });
});
