import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSql } from '../db/client.ts';
import { createLogger } from '../lib/logger.ts';
import { createTestHarness } from '../test/harness.ts';
import { createAnnouncer, sendWith, type Announcer } from './announcer.ts';
import { SYNC_CHANNEL } from './change-feed.ts';
import { pushChanges } from './push.ts';
import { insertAirline, insertFlights, pushedFavourite, pushInit } from './test-fixtures.ts';

/**
 * Sync pushes announce their changes after they commit (018 migration, decision 021): their
 * transaction's row triggers stay silent, the announcer sends the same payload once the rows are
 * committed, and every other writer still notifies at commit. Real PostgreSQL.
 */

const { sql, url, app, actors } = await createTestHarness({ actors: true });
const logger = createLogger('silent');
const listenerSql = createSql(url, { max: 1 });
const readerSql = createSql(url, { max: 1 });
const heard: string[] = [];
let customerId: string;
let flightIds: string[];

beforeAll(async () => {
  customerId = actors.customer.user!.id;
  flightIds = await insertFlights(sql, await insertAirline(sql), 6);
  await listenerSql.listen(SYNC_CHANNEL, (payload) => heard.push(payload));
});
afterAll(async () => {
  await listenerSql.end({ timeout: 1 });
  await readerSql.end({ timeout: 1 });
});

/** The notifications heard from now until `settleMs` after `run` ends. */
async function heardDuring(run: () => Promise<unknown>, settleMs = 300): Promise<string[]> {
  const from = heard.length;
  await run();
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  return heard.slice(from);
}

describe('the row triggers (018 migration)', () => {
  test('stay silent in a transaction whose changes are announced after commit', async () => {
    const notes = await heardDuring(() =>
      sql.begin(async (tx) => {
        await tx`SET LOCAL skyport.announce = after_commit`;
        await tx`INSERT INTO favourites (user_id, flight_id) VALUES (${customerId}, ${flightIds[0]!})`;
      }),
    );
    expect(notes).toEqual([]);
  });

  test('notify at commit for every other writer, as before', async () => {
    const notes = await heardDuring(() =>
      sql.begin(async (tx) => {
        await tx`INSERT INTO favourites (user_id, flight_id) VALUES (${customerId}, ${flightIds[1]!})`;
      }),
    );
    expect(notes).toEqual([`favourites:${customerId}`]);
  });

  test('notify again on the same connection after an announcing transaction ended', async () => {
    const one = createSql(url, { max: 1 });
    try {
      await one.begin(async (tx) => {
        await tx`SET LOCAL skyport.announce = after_commit`;
        await tx`UPDATE favourites SET deleted = true WHERE flight_id = ${flightIds[0]!}`;
      });
      const notes = await heardDuring(
        () => one`UPDATE favourites SET deleted = false WHERE flight_id = ${flightIds[0]!}`,
      );
      expect(notes).toEqual([`favourites:${customerId}`]);
    } finally {
      await one.end({ timeout: 1 });
    }
  });

  test('announce_replication_changes sends each payload in a transaction of its own', async () => {
    const notes = await heardDuring(() => sendWith(sql)(['flights:', `cart_lines:${customerId}`]));
    expect(notes.sort()).toEqual([`cart_lines:${customerId}`, 'flights:']);
  });
});

describe('a push through the sync route', () => {
  test('is announced once, after its commit, to every listening instance', async () => {
    const doc = pushedFavourite(customerId, flightIds[2]!);
    const notes = await heardDuring(async () => {
      const response = await app.request(
        '/api/sync/favourites/push',
        pushInit(actors.customer.headers(), { rows: [{ newDocumentState: doc }] }),
      );
      expect(response.status).toBe(200);
    });
    expect(notes).toEqual([`favourites:${customerId}`]);
  });

  test('hands its payload to the announcer only once its rows are visible to others', async () => {
    const seenAtAnnouncement: Promise<number>[] = [];
    const announcer: Announcer = {
      announce: () => {
        seenAtAnnouncement.push(
          readerSql<{ n: number }[]>`
            SELECT count(*)::int AS n FROM favourites
            WHERE flight_id = ${flightIds[3]!} AND NOT deleted`.then(([row]) => row!.n),
        );
      },
      close: () => Promise.resolve(),
    };
    await pushChanges(
      sql,
      actors.customer.user,
      'favourites',
      { rows: [{ newDocumentState: pushedFavourite(customerId, flightIds[3]!) }] },
      { announcer },
    );
    expect(await Promise.all(seenAtAnnouncement)).toEqual([1]);
  });

  test('that writes nothing (a conflict) announces nothing', async () => {
    const payloads: string[] = [];
    const announcer: Announcer = {
      announce: (payload) => payloads.push(payload),
      close: () => Promise.resolve(),
    };
    // The server has the favourite; a client that never saw it assumes there is none.
    const outcome = await pushChanges(
      sql,
      actors.customer.user,
      'favourites',
      {
        rows: [
          {
            newDocumentState: pushedFavourite(customerId, flightIds[3]!, { _deleted: true }),
            assumedMasterState: null,
          },
        ],
      },
      { announcer },
    );
    expect(outcome.conflicts).toEqual([flightIds[3]]);
    expect(payloads).toEqual([]);
  });
});

describe('the announcer', () => {
  test('sends what arrives while a send is in flight together, each payload once', async () => {
    const sent: string[][] = [];
    let finishFirst!: () => void;
    const firstDone = new Promise<void>((resolve) => (finishFirst = resolve));
    const announcer = createAnnouncer(async (payloads) => {
      sent.push(payloads);
      if (sent.length === 1) await firstDone;
    }, logger);
    announcer.announce('favourites:a');
    announcer.announce('favourites:b');
    announcer.announce('cart_lines:a');
    announcer.announce('favourites:b');
    finishFirst();
    await announcer.close();
    expect(sent).toEqual([['favourites:a'], ['favourites:b', 'cart_lines:a']]);
  });

  test('retries a failed send with the same payloads until it goes through', async () => {
    const attempts: string[][] = [];
    const announcer = createAnnouncer((payloads) => {
      attempts.push(payloads);
      return attempts.length <= 2
        ? Promise.reject(new Error('connection lost'))
        : Promise.resolve();
    }, logger);
    announcer.announce('favourites:a');
    await expect.poll(() => attempts.length, { timeout: 2_000 }).toBe(3);
    expect(attempts).toEqual([['favourites:a'], ['favourites:a'], ['favourites:a']]);
    await announcer.close();
  });

  test('sends what is still waiting when it closes', async () => {
    const sent: string[][] = [];
    let failing = true;
    const announcer = createAnnouncer((payloads) => {
      if (failing) return Promise.reject(new Error('connection lost'));
      sent.push(payloads);
      return Promise.resolve();
    }, logger);
    announcer.announce('favourites:a');
    await new Promise((resolve) => setTimeout(resolve, 10));
    failing = false;
    announcer.announce('favourites:b');
    await announcer.close();
    expect(sent).toEqual([['favourites:a', 'favourites:b']]);
  });
});
