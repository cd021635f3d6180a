import { randomUUID } from 'node:crypto';
import { CART_LINE_MAX_AMOUNT, PUSH_MAX_ROWS } from '@skyport/shared';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuthUser } from '../features/identity/users.ts';
import { insertUser } from '../test/actors.ts';
import { createTestHarness } from '../test/harness.ts';
import { pushChanges } from './push.ts';
import {
  insertAirline,
  insertFlights,
  pushedCartLine,
  pushedFavourite,
  pushedReviewDraft,
} from './test-fixtures.ts';

/**
 * A push to favourites, cart or preferences is one call of the 017 migration's `sync_push`, one
 * statement in one round trip (docs/decisions/019-one-statement-push.md and
 * 032-one-plain-write-path.md). Its HTTP behaviour is push.test.ts's and
 * push-report.test.ts's; here: the function on its own refuses what push.ts refuses, a failure
 * anywhere keeps nothing, conflict detection of tombstones, and the statement count.
 */

const { sql, url } = await createTestHarness();
let customer: AuthUser;
let flightIds: string[];

beforeAll(async () => {
  customer = await insertUser(sql);
  flightIds = await insertFlights(sql, await insertAirline(sql), 8);
});

/** `sync_push` called directly, as push.ts calls it: which rows it refused and which conflicted. */
async function callSyncPush(collection: string, partition: string, rows: unknown, perRow = true) {
  const [row] = await sql<
    { outcome: { refused: string[]; conflicts: string[]; revisions?: Record<string, number> } }[]
  >`
    SELECT sync_push(${collection}, ${partition}, ${sql.json(rows as never)}, ${perRow}) AS outcome`;
  return row!.outcome;
}

async function cartLine(userId: string, flightId: string) {
  const [row] = await sql<{ amount: number; deleted: boolean; revision: number }[]>`
    SELECT amount, deleted, revision::int FROM cart_lines WHERE user_id = ${userId} AND flight_id = ${flightId}`;
  return row;
}

async function countRows() {
  const [row] = await sql<{ n: number }[]>`
    SELECT (SELECT count(*) FROM favourites) + (SELECT count(*) FROM cart_lines)
         + (SELECT count(*) FROM preferences) AS n`;
  return Number(row!.n);
}

describe('sync_push refuses on its own what push.ts refuses before calling it', () => {
  const cartRow = (flightId: string, amount: number) => ({
    id: flightId,
    deleted: false,
    amount,
    assumed: null,
  });
  test.each([
    [
      'review drafts (their rules are the server’s)',
      'reviewDrafts',
      () => [cartRow(flightIds[0]!, 1)],
    ],
    ['a read-only collection', 'flights', () => [cartRow(flightIds[0]!, 1)]],
    ['no rows', 'cart', () => []],
    ['an object instead of rows', 'cart', () => ({ id: flightIds[0] })],
    [
      `more than PUSH_MAX_ROWS (${PUSH_MAX_ROWS}) rows`,
      'favourites',
      () => Array.from({ length: PUSH_MAX_ROWS + 1 }, () => cartRow(randomUUID(), 1)),
    ],
    [
      'the same document twice',
      'cart',
      () => [cartRow(flightIds[0]!, 1), cartRow(flightIds[0]!, 2)],
    ],
    ['an amount of zero', 'cart', () => [cartRow(flightIds[0]!, 1), cartRow(flightIds[1]!, 0)]],
    [
      `more than CART_LINE_MAX_AMOUNT (${CART_LINE_MAX_AMOUNT}) tickets`,
      'cart',
      () => [cartRow(flightIds[0]!, CART_LINE_MAX_AMOUNT + 1)],
    ],
    ['an id that is not a uuid', 'cart', () => [cartRow('not-a-uuid', 1)]],
    [
      "preferences of someone else's id",
      'preferences',
      () => [{ id: randomUUID(), deleted: false, theme: 'dark', assumed: null }],
    ],
    [
      'a theme the table does not allow',
      'preferences',
      () => [{ id: customer.id, deleted: false, theme: 'neon', assumed: null }],
    ],
  ])('%s: refused, nothing written', async (_case, collection, rows) => {
    const before = await countRows();
    await expect(callSyncPush(collection, customer.id, rows())).rejects.toMatchObject({
      code: expect.stringMatching(/^(22023|22P02|23514)$/),
    });
    expect(await countRows()).toBe(before);
  });

  test('the limits are the shared ones: PUSH_MAX_ROWS rows and CART_LINE_MAX_AMOUNT pass', async () => {
    const unknownFlights = Array.from({ length: PUSH_MAX_ROWS }, () => ({
      id: randomUUID(),
      deleted: false,
      assumed: null,
    }));
    const outcome = await callSyncPush('favourites', customer.id, unknownFlights);
    expect(outcome.refused).toEqual(unknownFlights.map((row) => row.id));

    const user = await insertUser(sql);
    const rows = [
      { id: flightIds[0]!, deleted: false, amount: CART_LINE_MAX_AMOUNT, assumed: null },
    ];
    await callSyncPush('cart', user.id, rows);
    expect(await cartLine(user.id, flightIds[0]!)).toMatchObject({ amount: CART_LINE_MAX_AMOUNT });
  });

  test('without per-row refusals, one unknown flight writes nothing at all', async () => {
    const user = await insertUser(sql);
    const outcome = await callSyncPush(
      'cart',
      user.id,
      [
        { id: flightIds[0]!, deleted: false, amount: 1, assumed: null },
        { id: randomUUID(), deleted: false, amount: 1, assumed: null },
      ],
      false,
    );
    expect(outcome.refused).toHaveLength(1);
    expect(await cartLine(user.id, flightIds[0]!)).toBeUndefined();
  });
});

describe('all or nothing', () => {
  // A row the table refuses after the function has written the rows before it.
  const poisoned = () => flightIds[6]!;
  beforeAll(async () => {
    await sql.unsafe(`
      CREATE FUNCTION test_refuse_poisoned() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.flight_id = '${poisoned()}' THEN RAISE EXCEPTION 'poisoned flight'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_refuse_poisoned BEFORE INSERT OR UPDATE ON cart_lines
        FOR EACH ROW EXECUTE FUNCTION test_refuse_poisoned();`);
  });
  afterAll(async () => {
    await sql.unsafe(`DROP TRIGGER test_refuse_poisoned ON cart_lines;
      DROP FUNCTION test_refuse_poisoned();`);
  });

  test('a write failing in the function keeps none of the push: no line, no new revision', async () => {
    const user = await insertUser(sql);
    await pushChanges(sql, user, 'cart', {
      rows: [{ newDocumentState: pushedCartLine(user.id, flightIds[2]!, 1) }],
    });
    const before = await cartLine(user.id, flightIds[2]!);
    await expect(
      pushChanges(sql, user, 'cart', {
        rows: [
          // Written first (push order), then undone when the poisoned row fails.
          { newDocumentState: pushedCartLine(user.id, flightIds[3]!, 1) },
          { newDocumentState: pushedCartLine(user.id, flightIds[2]!, 4) },
          { newDocumentState: pushedCartLine(user.id, poisoned(), 1) },
        ],
      }),
    ).rejects.toThrow('poisoned flight');
    expect(await cartLine(user.id, flightIds[3]!)).toBeUndefined();
    expect(await cartLine(user.id, flightIds[2]!)).toEqual(before);
    // The connection went back to the pool clean: the next push is written.
    await pushChanges(sql, user, 'cart', {
      rows: [{ newDocumentState: pushedCartLine(user.id, flightIds[3]!, 2) }],
    });
    expect(await cartLine(user.id, flightIds[3]!)).toMatchObject({ amount: 2, deleted: false });
  });
});

describe('conflict detection against the assumed master state', () => {
  const line = (userId: string, amount: number, deleted = false) =>
    pushedCartLine(userId, flightIds[4]!, amount, { _deleted: deleted });

  /** A customer whose line of flightIds[4] is as `master` says, then one push of `row`. */
  async function pushOver(
    master: 'live' | 'tombstone',
    build: (userId: string) => Record<string, unknown>,
  ) {
    const user = await insertUser(sql);
    await sql`INSERT INTO cart_lines (user_id, flight_id, amount, deleted)
      VALUES (${user.id}, ${flightIds[4]!}, 2, ${master === 'tombstone'})`;
    const outcome = await pushChanges(
      sql,
      user,
      'cart',
      { rows: [build(user.id)] },
      { report: true },
    );
    return { outcome, stored: await cartLine(user.id, flightIds[4]!) };
  }

  test.each([
    [
      'a live line, assumed as it is',
      'live',
      (u: string) => ({ newDocumentState: line(u, 5), assumedMasterState: line(u, 2) }),
      false,
    ],
    [
      'a live line, assumed with another amount',
      'live',
      (u: string) => ({ newDocumentState: line(u, 5), assumedMasterState: line(u, 3) }),
      true,
    ],
    [
      'a live line, assumed removed',
      'live',
      (u: string) => ({ newDocumentState: line(u, 5), assumedMasterState: line(u, 2, true) }),
      true,
    ],
    [
      'a live line, no assumed state',
      'live',
      (u: string) => ({ newDocumentState: line(u, 5) }),
      true,
    ],
    [
      'a removed line, assumed removed',
      'tombstone',
      (u: string) => ({ newDocumentState: line(u, 5), assumedMasterState: line(u, 2, true) }),
      false,
    ],
    [
      'a removed line, no assumed state',
      'tombstone',
      (u: string) => ({ newDocumentState: line(u, 5) }),
      false,
    ],
    [
      'a removed line, assumed live',
      'tombstone',
      (u: string) => ({ newDocumentState: line(u, 5), assumedMasterState: line(u, 2) }),
      true,
    ],
  ] as const)('%s: conflict %s', async (_case, master, build, conflict) => {
    const { outcome, stored } = await pushOver(master, build);
    expect(outcome.conflicts.length > 0).toBe(conflict);
    expect(stored).toMatchObject(
      conflict ? { amount: 2, deleted: master === 'tombstone' } : { amount: 5, deleted: false },
    );
    // A conflict sends the master back; a written row sends nothing (decision 027).
    expect(outcome.documents.map((doc) => (doc as { amount?: number }).amount)).toEqual(
      conflict ? [2] : [],
    );
  });

  test('preferences: a theme changed meanwhile is a conflict', async () => {
    const user = await insertUser(sql);
    const prefs = (theme: string) => ({ id: user.id, userId: user.id, theme, _deleted: false });
    await pushChanges(sql, user, 'preferences', { rows: [{ newDocumentState: prefs('dark') }] });
    const outcome = await pushChanges(
      sql,
      user,
      'preferences',
      { rows: [{ newDocumentState: prefs('light'), assumedMasterState: prefs('system') }] },
      { report: true },
    );
    expect(outcome).toMatchObject({ conflicts: [user.id], documents: [{ theme: 'dark' }] });
  });

  test('favourites: re-adding a removed favourite the client saw removed is written', async () => {
    const user = await insertUser(sql);
    const favourite = (deleted: boolean) =>
      pushedFavourite(user.id, flightIds[5]!, { _deleted: deleted });
    await pushChanges(sql, user, 'favourites', { rows: [{ newDocumentState: favourite(false) }] });
    await pushChanges(sql, user, 'favourites', {
      rows: [{ newDocumentState: favourite(true), assumedMasterState: favourite(false) }],
    });
    const outcome = await pushChanges(
      sql,
      user,
      'favourites',
      { rows: [{ newDocumentState: favourite(false), assumedMasterState: favourite(true) }] },
      { report: true },
    );
    expect(outcome.conflicts).toEqual([]);
    const [row] = await sql`SELECT deleted FROM favourites WHERE user_id = ${user.id}`;
    expect(row).toEqual({ deleted: false });
  });
});

describe('the conflict rule, stated once in SQL (sync_push_conflict, sync_owned_key)', () => {
  const cart = (amount: number, fields: Record<string, unknown> = {}) => ({
    ...pushedCartLine(customer.id, flightIds[0]!, amount),
    ...fields,
  });
  const tombstone = (doc: Record<string, unknown>) => ({ ...doc, _deleted: true });
  const orderId = randomUUID();
  const draft = (fields: Record<string, unknown> = {}) =>
    pushedReviewDraft(customer.id, orderId, flightIds[2]!, fields);
  type State = Record<string, unknown> | unknown[] | string | null;
  /** A state as SQL gets it: no state is SQL NULL (as `jsonb_to_recordset` reads a JSON null). */
  const jsonb = (state: State) => (state === null ? null : sql.json(state as never));

  /** Each case: what it is, the collection, whether it conflicts, the assumed and master states. */
  test.each<[string, string, boolean, () => State, () => State]>([
    ['no document on the server', 'cart', false, () => cart(2), () => null],
    ['a tombstone the client did not see', 'cart', false, () => null, () => tombstone(cart(2))],
    ['a document the client did not see', 'cart', true, () => null, () => cart(2)],
    [
      'a tombstone the client saw',
      'cart',
      false,
      () => tombstone(cart(3)),
      () => tombstone(cart(2)),
    ],
    ['a live line assumed removed', 'cart', true, () => tombstone(cart(2)), () => cart(2)],
    ['the same amount', 'cart', false, () => cart(2), () => cart(2, { tickets: 7, logo: 'x' })],
    ['another amount', 'cart', true, () => cart(2), () => cart(3)],
    [
      'a favourite seen live, its summary changed since',
      'favourites',
      false,
      () => pushedFavourite(customer.id, flightIds[0]!),
      () => pushedFavourite(customer.id, flightIds[0]!, { createdAt: 1, airlineName: 'New' }),
    ],
    [
      'another theme',
      'preferences',
      true,
      () => ({ theme: 'dark', _deleted: false }),
      () => ({ theme: 'light', _deleted: false }),
    ],
    [
      'the same draft, another outcome reason',
      'reviewDrafts',
      false,
      () => draft(),
      () => draft({ reason: 'Later' }),
    ],
    [
      'a draft without a comment, one with a null comment',
      'reviewDrafts',
      false,
      () => draft({ comment: undefined }),
      () => draft({ comment: null }),
    ],
    ...['orderId', 'flightId', 'rating', 'name', 'comment', 'status'].map(
      (field): [string, string, boolean, () => State, () => State] => [
        `a draft with another ${field}`,
        'reviewDrafts',
        true,
        () => draft(),
        () => draft({ [field]: field === 'rating' ? 5 : randomUUID() }),
      ],
    ),
    // What the build before the rule moved to SQL sends: the owned key its TypeScript built.
    ['a key as the previous build sent it, current', 'cart', false, () => [2], () => cart(2)],
    ['a key as the previous build sent it, outdated', 'cart', true, () => [3], () => cart(2)],
    [
      '"absent" as the previous build sent it',
      'cart',
      false,
      () => 'absent',
      () => tombstone(cart(2)),
    ],
  ])('%s (%s): conflict %s', async (_case, collection, conflict, assumed, master) => {
    const [row] = await sql<{ conflict: boolean }[]>`
      SELECT sync_push_conflict(${collection}, ${jsonb(assumed())}::jsonb, ${jsonb(master())}::jsonb) AS conflict`;
    expect(row!.conflict).toBe(conflict);
  });
});

test('a push of many rows: refusals and conflicts named in push order, the writes made in push order', async () => {
  // The 020 migration judges all rows in one query and writes from arrays (ordered aggregates).
  const user = await insertUser(sql);
  const live = [flightIds[0]!, flightIds[1]!];
  await callSyncPush(
    'favourites',
    user.id,
    live.map((id) => ({ id, deleted: false, assumed: null })),
  );
  const [unknownA, unknownB] = [randomUUID(), randomUUID()];
  const outcome = await callSyncPush('favourites', user.id, [
    { id: flightIds[5]!, deleted: false, assumed: null },
    { id: unknownB, deleted: false, assumed: null },
    // Assumed removed, but live on the server: a conflict, left as it is.
    { id: flightIds[1]!, deleted: true, assumed: 'absent' },
    { id: flightIds[0]!, deleted: true, assumed: [] },
    { id: unknownA, deleted: false, assumed: null },
    { id: flightIds[3]!, deleted: false, assumed: null },
  ]);
  const rows = await sql<{ flight_id: string; deleted: boolean; revision: number }[]>`
    SELECT flight_id, deleted, revision::int FROM favourites WHERE user_id = ${user.id}`;
  const stored = new Map(rows.map((row) => [row.flight_id, row]));
  // Every accepted row's revision as it stands after the writes (024 migration), none other.
  const accepted = [flightIds[5]!, flightIds[0]!, flightIds[3]!];
  expect(outcome).toEqual({
    refused: [unknownB, unknownA],
    conflicts: [flightIds[1]!],
    revisions: Object.fromEntries(accepted.map((id) => [id, stored.get(id)!.revision])),
  });
  expect(stored.size).toBe(4);
  expect(stored.get(flightIds[0]!)?.deleted).toBe(true);
  expect(stored.get(flightIds[1]!)?.deleted).toBe(false);
  expect(stored.get(flightIds[5]!)!.revision).toBeLessThan(stored.get(flightIds[3]!)!.revision);
});

test('a push is one round trip of one statement, sync_push, a transaction of its own', async () => {
  const statements: string[] = [];
  const counted = postgres(url, {
    max: 3,
    onnotice: () => undefined,
    debug: (_connection, query) => {
      statements.push(query.trim().split(/\s+/).slice(0, 2).join(' '));
      turns.add(turn);
    },
  });
  // Event-loop turns: a statement sent after an answer came back is sent in a later turn.
  let turn = 0;
  const turns = new Set<number>();
  let counting = true;
  const countTurns = () => {
    turn++;
    if (counting) setImmediate(countTurns);
  };
  try {
    const user = await insertUser(sql);
    const rows = [0, 1, 2].map((n) => ({
      newDocumentState: pushedCartLine(user.id, flightIds[n]!, n + 1),
    }));
    // The first push on a connection also reads postgres.js's types and prepares the statements.
    await pushChanges(counted, user, 'cart', { rows });
    statements.length = 0;
    turns.clear();
    countTurns();
    await pushChanges(counted, user, 'cart', {
      rows: rows.map(({ newDocumentState }) => ({
        newDocumentState: { ...newDocumentState, amount: 9 },
        assumedMasterState: newDocumentState,
      })),
    });
    expect(statements).toEqual(['SELECT sync_push($1,']);
    expect(turns.size, 'one round trip').toBe(1);

    // Only a push with rows not written reads documents: theirs, after the commit.
    statements.length = 0;
    const outcome = await pushChanges(counted, user, 'cart', {
      rows: [{ newDocumentState: { ...rows[0]!.newDocumentState, amount: 4 } }],
    });
    expect(outcome.conflicts).toEqual([flightIds[0]]);
    expect(statements).toEqual(['SELECT sync_push($1,', 'SELECT c.flight_id']);
  } finally {
    counting = false;
    await counted.end({ timeout: 1 });
  }
});
