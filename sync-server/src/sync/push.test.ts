import { randomUUID } from 'node:crypto';
import {
  CART_LINE_MAX_AMOUNT,
  PUSH_MAX_BODY_BYTES,
  PUSH_MAX_ROWS,
  PUSH_SNAPSHOT_TEXT_MAX_LENGTH,
  REVIEW_COMMENT_MAX_LENGTH,
  REVIEW_NAME_MAX_LENGTH,
  RXDB_REV_MAX_LENGTH,
  WRITABLE_SYNC_COLLECTIONS,
  maxPushRowBytes,
  messages,
} from '@skyport/shared';
import { beforeAll, describe, expect, test } from 'vitest';
import { MAX_BODY_BYTES, SYNC_PUSH_MAX_BODY_BYTES } from '../app.ts';
import { insertSignedInUser, type Actor } from '../test/actors.ts';
import { createTestHarness } from '../test/harness.ts';
import {
  insertAirline,
  insertFlights,
  insertOrder,
  pullUrl,
  pushedCartLine,
  pushedFavourite,
  pushInit,
  pushedReviewDraft,
  syncHeaders,
  type SyncTestDoc,
} from './test-fixtures.ts';

const { sql, app, actors } = await createTestHarness({ actors: true });
let flightIds: string[];
let customerId: string;

type Doc = SyncTestDoc;

async function push(collection: string, rows: unknown[], actor: Actor = actors.customer) {
  return app.request(`/api/sync/${collection}/push`, pushInit(actor.headers(), { rows }));
}

async function pullDocs(collection: string, actor: Actor = actors.customer): Promise<Doc[]> {
  const response = await app.request(pullUrl(collection, { limit: 1000 }), {
    headers: syncHeaders(actor.headers()),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { documents: Doc[] }).documents;
}

/** A cart line document as the PWA writes it (its snapshot may be stale; only amount counts). */
const cartDoc = (flightId: string, amount: number, userId = customerId, extra: Partial<Doc> = {}) =>
  pushedCartLine(userId, flightId, amount, extra);

const favouriteDoc = (flightId: string, userId = customerId, deleted = false) =>
  pushedFavourite(userId, flightId, { _deleted: deleted });

async function countRows() {
  const [row] = await sql<
    { favourites: number; cart: number; preferences: number; drafts: number; reviews: number }[]
  >`
    SELECT (SELECT count(*) FROM favourites)::int AS favourites, (SELECT count(*) FROM cart_lines)::int AS cart,
           (SELECT count(*) FROM preferences)::int AS preferences, (SELECT count(*) FROM review_drafts)::int AS drafts,
           (SELECT count(*) FROM reviews)::int AS reviews`;
  return row;
}

beforeAll(async () => {
  customerId = actors.customer.user!.id;
  const airlineId = await insertAirline(sql);
  flightIds = await insertFlights(sql, airlineId, 12);
});

describe('writes', () => {
  test('a new cart line is written; the server summary of its flight comes with the pull, not the answer', async () => {
    const response = await push('cart', [{ newDocumentState: cartDoc(flightIds[0]!, 2) }]);
    expect(response.status).toBe(200);
    // Written with the customer's fields as sent: nothing goes back (decision 027).
    expect(await response.json()).toEqual([]);
    const pulled = await pullDocs('cart');
    expect(pulled).toEqual([
      expect.objectContaining({
        id: flightIds[0],
        amount: 2,
        airlineName: 'Test Air',
        priceCents: 15001,
      }),
    ]);
  });

  test('a push whose assumed state is current is written without conflict', async () => {
    const [current] = await pullDocs('cart');
    const response = await push('cart', [
      { newDocumentState: { ...current!, amount: 3 }, assumedMasterState: current },
    ]);
    expect(await response.json()).toEqual([]);
    expect((await pullDocs('cart'))[0]).toMatchObject({ amount: 3 });
  });

  test('a push from a stale state is a conflict: the master comes back and nothing is written', async () => {
    const [current] = await pullDocs('cart');
    const stale = { ...current!, amount: 1 };
    const response = await push('cart', [
      { newDocumentState: { ...current!, amount: 7 }, assumedMasterState: stale },
    ]);
    const conflicts = (await response.json()) as Doc[];
    expect(conflicts).toEqual([current]);
    expect((await pullDocs('cart'))[0]).toMatchObject({ amount: 3 });
  });

  test('a conflict on one row does not stop the other rows of the batch', async () => {
    const [current] = await pullDocs('cart');
    const response = await push('cart', [
      {
        newDocumentState: { ...current!, amount: 9 },
        assumedMasterState: { ...current!, amount: 2 },
      },
      { newDocumentState: cartDoc(flightIds[1]!, 1) },
    ]);
    const conflicts = (await response.json()) as Doc[];
    expect(conflicts.map((doc) => [doc.id, doc.amount])).toEqual([[flightIds[0], 3]]);
    expect((await pullDocs('cart')).find((doc) => doc.id === flightIds[1])).toMatchObject({
      amount: 1,
      _deleted: false,
    });
  });

  test('removing a cart line leaves a tombstone that a pull returns', async () => {
    const before = await pullDocs('cart');
    const line = before.find((doc) => doc.id === flightIds[1])!;
    const response = await push('cart', [
      { newDocumentState: { ...line, _deleted: true }, assumedMasterState: line },
    ]);
    expect(await response.json()).toEqual([]);
    const after = await pullDocs('cart');
    expect(after.find((doc) => doc.id === flightIds[1])).toMatchObject({ _deleted: true });
  });

  test('a line deleted on the server conflicts with an offline change made from the live state', async () => {
    const line = (await pullDocs('cart')).find((doc) => doc.id === flightIds[0])!;
    await sql`UPDATE cart_lines SET deleted = true WHERE user_id = ${customerId} AND flight_id = ${flightIds[0]!}`;
    const response = await push('cart', [
      { newDocumentState: { ...line, amount: 5 }, assumedMasterState: line },
    ]);
    const conflicts = (await response.json()) as Doc[];
    expect(conflicts).toEqual([expect.objectContaining({ id: flightIds[0], _deleted: true })]);
  });

  test('a new client re-adding a flight whose line is a tombstone simply writes it', async () => {
    const response = await push('cart', [{ newDocumentState: cartDoc(flightIds[0]!, 4) }]);
    expect(response.status).toBe(200);
    expect((await pullDocs('cart')).find((doc) => doc.id === flightIds[0])).toMatchObject({
      amount: 4,
      _deleted: false,
    });
  });

  test('favourites are added and removed; a pull gives the server summary and time', async () => {
    const sent = favouriteDoc(flightIds[2]!);
    const added = await push('favourites', [{ newDocumentState: sent }]);
    expect(await added.json()).toEqual([]);
    const stored = (await pullDocs('favourites')).find((doc) => doc.id === flightIds[2])!;
    expect(stored).toMatchObject({
      id: flightIds[2],
      airlineName: 'Test Air',
      priceCents: 15003,
      _deleted: false,
    });
    const removed = await push('favourites', [
      { newDocumentState: { ...stored, _deleted: true }, assumedMasterState: stored },
    ]);
    expect(await removed.json()).toEqual([]);
    expect((await pullDocs('favourites')).find((doc) => doc.id === flightIds[2])).toMatchObject({
      _deleted: true,
    });
  });

  test('preferences keep the theme', async () => {
    const doc = { id: customerId, userId: customerId, theme: 'dark', _deleted: false };
    expect(await (await push('preferences', [{ newDocumentState: doc }])).json()).toEqual([]);
    expect(await pullDocs('preferences')).toEqual([doc]);
  });
});

describe('bad pushes are refused whole and write nothing', () => {
  test.each([
    [
      'a wrong type',
      () => [{ newDocumentState: cartDoc(flightIds[3]!, 'three' as unknown as number) }],
    ],
    ['an amount of zero', () => [{ newDocumentState: cartDoc(flightIds[3]!, 0) }]],
    [
      'a missing field',
      () => [{ newDocumentState: { ...cartDoc(flightIds[3]!, 1), flightId: undefined } }],
    ],
    [
      'an id that is not the flight id',
      () => [{ newDocumentState: { ...cartDoc(flightIds[3]!, 1), id: flightIds[4] } }],
    ],
    [
      'the same document twice',
      () => [
        { newDocumentState: cartDoc(flightIds[3]!, 1) },
        { newDocumentState: cartDoc(flightIds[3]!, 2) },
      ],
    ],
  ])('%s → 400', async (_case, rows) => {
    const before = await countRows();
    const valid = { newDocumentState: cartDoc(flightIds[5]!, 1) };
    const response = await push('cart', [valid, ...rows()]);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'bad_request',
      message: expect.any(String),
    });
    expect(await countRows()).toEqual(before);
  });

  test('an empty push → 400', async () => {
    expect((await push('cart', [])).status).toBe(400);
  });

  test("someone else's document → 403, not even the caller's own rows are written", async () => {
    const before = await countRows();
    const other = actors.unverifiedCustomer.user!.id;
    for (const rows of [
      [
        { newDocumentState: cartDoc(flightIds[6]!, 1) },
        { newDocumentState: cartDoc(flightIds[7]!, 1, other) },
      ],
      [{ newDocumentState: favouriteDoc(flightIds[7]!, other) }],
    ]) {
      const collection = 'amount' in rows[0]!.newDocumentState ? 'cart' : 'favourites';
      const response = await push(collection, rows);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({
        code: 'forbidden',
        message: messages.notAllowed,
      });
    }
    expect(await countRows()).toEqual(before);
  });

  test(`an oversized batch (more than ${PUSH_MAX_ROWS} rows) → 413`, async () => {
    const before = await countRows();
    const rows = Array.from({ length: PUSH_MAX_ROWS + 1 }, () => ({
      newDocumentState: { id: randomUUID() },
    }));
    const response = await push('favourites', rows);
    expect(response.status).toBe(413);
    expect(await countRows()).toEqual(before);
  });

  test('malformed JSON → 400', async () => {
    const init = pushInit(actors.customer.headers(), {});
    const response = await app.request('/api/sync/cart/push', { ...init, body: '{"rows": [' });
    expect(response.status).toBe(400);
  });

  test.each([
    ['flights', 'customer', 403],
    ['orders', 'customer', 403],
    ['sales', 'airline', 403],
    ['cart', 'guest', 401],
    ['cart', 'airline', 403],
    ['cart', 'disabledUser', 401],
  ] as const)('a push to %s by the %s → %i', async (collection, actorName, status) => {
    const before = await countRows();
    const response = await push(
      collection,
      [{ newDocumentState: cartDoc(flightIds[9]!, 1) }],
      actors[actorName],
    );
    expect(response.status).toBe(status);
    expect(await countRows()).toEqual(before);
  });

  test('an outdated client cannot push (426)', async () => {
    const init = pushInit(actors.customer.headers(), {
      rows: [{ newDocumentState: cartDoc(flightIds[9]!, 1) }],
    });
    const response = await app.request('/api/sync/cart/push', {
      ...init,
      headers: { ...(init.headers as Record<string, string>), 'x-skyport-sync-version': '0' },
    });
    expect(response.status).toBe(426);
  });

  test('a cookie-authenticated push from another site is refused (CSRF)', async () => {
    const init = pushInit(actors.customer.headers('cookie'), {
      rows: [{ newDocumentState: cartDoc(flightIds[9]!, 1) }],
    });
    const response = await app.request('/api/sync/cart/push', {
      ...init,
      headers: { ...(init.headers as Record<string, string>), Origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });
});

describe('review drafts', () => {
  let orderId: string;
  const draft = (fields: Partial<Doc> = {}): Doc =>
    pushedReviewDraft(customerId, orderId, flightIds[10]!, fields);

  beforeAll(async () => {
    orderId = await insertOrder(sql, customerId, [flightIds[10]!, flightIds[11]!]);
  });

  test.each([
    ['an empty name', { name: '  ' }, messages.enterAName],
    ['no rating', { rating: null }, messages.enterARating],
    ['a rating out of range', { rating: 6 }, messages.ratingRange],
    ['an empty comment', { comment: '' }, messages.enterAComment],
    ['an order of someone else', { orderId: randomUUID() }, messages.notAllowed],
    ['a flight not in the order', { flightId: 'first flight' }, messages.notAllowed],
  ] as [string, Partial<Doc>, string][])(
    'a draft with %s comes back rejected with the reason, and no review is written',
    async (_case, fields, reason) => {
      const before = await countRows();
      const sent = draft(fields.flightId === 'first flight' ? { flightId: flightIds[0]! } : fields);
      const response = await push('reviewDrafts', [{ newDocumentState: sent }]);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([{ ...sent, status: 'rejected', reason }]);
      expect((await countRows())!.reviews).toBe(before!.reviews);
    },
  );

  test('a valid draft becomes a review and marks the order line reviewed', async () => {
    const sent = draft();
    const response = await push('reviewDrafts', [{ newDocumentState: sent }]);
    expect(await response.json()).toEqual([{ ...sent, status: 'accepted', reason: null }]);
    const reviews = await pullDocs('reviews', actors.guest);
    expect(reviews.find((review) => review.flightId === flightIds[10])).toMatchObject({
      orderId,
      rating: 4,
      name: 'Ana',
      comment: 'Smooth flight',
      moreInfo: [{ flightName: 'Test Air', origin: 'Argentina', destination: 'Chile' }],
    });
    const [order] = await pullDocs('orders');
    const lines = order!.stocks as { flightId: string; review: boolean }[];
    expect(lines.find((line) => line.flightId === flightIds[10])?.review).toBe(true);
    expect(lines.find((line) => line.flightId === flightIds[11])?.review).toBe(false);
  });

  test('a second draft for the same order line is rejected: one review per line', async () => {
    const sent = draft({ comment: 'Again' });
    expect(await (await push('reviewDrafts', [{ newDocumentState: sent }])).json()).toEqual([
      { ...sent, status: 'rejected', reason: 'This flight has already been reviewed' },
    ]);
  });

  test('a rejected draft, corrected and pushed again as pending, is accepted', async () => {
    const first = draft({ flightId: flightIds[11]!, name: '' });
    const [rejected] = (await (
      await push('reviewDrafts', [{ newDocumentState: first }])
    ).json()) as Doc[];
    expect(rejected).toMatchObject({ status: 'rejected', reason: messages.enterAName });
    const corrected = { ...rejected!, name: 'Bea', status: 'pending', reason: null };
    const [accepted] = (await (
      await push('reviewDrafts', [{ newDocumentState: corrected, assumedMasterState: rejected }])
    ).json()) as Doc[];
    expect(accepted).toMatchObject({ id: first.id, name: 'Bea', status: 'accepted', reason: null });
  });

  test('a draft changed from a state the server no longer has is a conflict; its outcome reason is not', async () => {
    const lineOrder = await insertOrder(sql, customerId, [flightIds[8]!]);
    const first = draft({ orderId: lineOrder, flightId: flightIds[8]!, comment: '' });
    const [rejected] = (await (
      await push('reviewDrafts', [{ newDocumentState: first }])
    ).json()) as Doc[];
    expect(rejected).toMatchObject({ status: 'rejected', reason: messages.enterAComment });
    // Corrected from the draft as sent, before the client saw it rejected: the status differs.
    const corrected = { ...first, comment: 'Fine' };
    expect(
      await (
        await push('reviewDrafts', [{ newDocumentState: corrected, assumedMasterState: first }])
      ).json(),
    ).toEqual([rejected]);
    const stored = () => sql`SELECT comment, status FROM review_drafts WHERE id = ${first.id}`;
    expect(await stored()).toEqual([{ comment: '', status: 'rejected' }]);
    // Assumed rejected with another reason: the reason is the server's, so no conflict.
    const assumed = { ...rejected!, reason: 'An older reason' };
    await push('reviewDrafts', [{ newDocumentState: corrected, assumedMasterState: assumed }]);
    expect(await stored()).toEqual([{ comment: 'Fine', status: 'accepted' }]);
  });

  test('a draft for an order whose payment is not captured yet is rejected', async () => {
    const pending = await insertOrder(sql, customerId, [flightIds[9]!], 'pending');
    const sent = draft({ orderId: pending, flightId: flightIds[9]! });
    expect(await (await push('reviewDrafts', [{ newDocumentState: sent }])).json()).toEqual([
      { ...sent, status: 'rejected', reason: messages.notAllowed },
    ]);
  });

  test('a client cannot declare a draft accepted', async () => {
    const before = await countRows();
    const response = await push('reviewDrafts', [
      { newDocumentState: draft({ status: 'accepted' }) },
    ]);
    expect(response.status).toBe(400);
    expect(await countRows()).toEqual(before);
  });

  test("a draft id of another customer's draft is refused", async () => {
    const other = actors.unverifiedCustomer.user!.id;
    const id = randomUUID();
    await sql`INSERT INTO review_drafts (id, user_id, order_id, flight_id, name, comment) VALUES (${id}, ${other}, ${randomUUID()}, ${flightIds[0]!}, 'x', 'y')`;
    const response = await push('reviewDrafts', [{ newDocumentState: draft({ id }) }]);
    expect(response.status).toBe(403);
    const [row] = await sql<
      { user_id: string; name: string }[]
    >`SELECT user_id, name FROM review_drafts WHERE id = ${id}`;
    expect(row).toEqual({ user_id: other, name: 'x' });
  });

  test('drafts are pulled by their owner only', async () => {
    const mine = await pullDocs('reviewDrafts');
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((doc) => doc.userId === customerId)).toBe(true);
    const theirs = await pullDocs('reviewDrafts', actors.unverifiedCustomer);
    expect(theirs.every((doc) => doc.userId !== customerId)).toBe(true);
  });
});

describe('pushed documents carry exactly their fields', () => {
  test.each([
    [
      'a field the document does not have',
      () => [{ newDocumentState: { ...cartDoc(flightIds[3]!, 1), description: 'Direct' } }],
      'rows.1.newDocumentState: Unknown field "description"',
    ],
    [
      'fields the assumed state does not have',
      () => [
        {
          newDocumentState: cartDoc(flightIds[3]!, 1),
          assumedMasterState: { ...cartDoc(flightIds[3]!, 2), price: 1, _id: 'x' },
        },
      ],
      'rows.1.assumedMasterState: Unknown fields "price", "_id"',
    ],
    [
      'a row field RxDB does not send',
      () => [{ newDocumentState: cartDoc(flightIds[3]!, 1), conflict: true }],
      'rows.1: Unknown field "conflict"',
    ],
    [
      'attachments',
      () => [
        {
          newDocumentState: {
            ...cartDoc(flightIds[3]!, 1),
            _attachments: { 'a.png': { digest: 'md5-x', length: 1, type: 'image/png' } },
          },
        },
      ],
      'rows.1.newDocumentState._attachments: Attachments are not supported',
    ],
  ])('%s → 400 naming the field, nothing written', async (_case, rows, message) => {
    const before = await countRows();
    const response = await push('cart', [
      { newDocumentState: cartDoc(flightIds[5]!, 1) },
      ...rows(),
    ]);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'bad_request', message });
    expect(await countRows()).toEqual(before);
  });

  test("RxDB's own meta fields are accepted and dropped: the documents are written as without them", async () => {
    const meta = { _meta: { lwt: Date.now() + 0.01 }, _rev: '2-abcdefghij', _attachments: {} };
    const [current] = await pullDocs('preferences');
    const doc = { id: customerId, userId: customerId, theme: 'light', _deleted: false };
    const response = await push('preferences', [
      { newDocumentState: { ...doc, ...meta }, assumedMasterState: { ...current!, ...meta } },
    ]);
    expect(response.status).toBe(200);
    // Stored exactly as sent once the meta fields are dropped: nothing to send back.
    expect(await response.json()).toEqual([]);
    expect(await pullDocs('preferences')).toEqual([doc]);

    const line = cartDoc(flightIds[8]!, 2, customerId, meta as Partial<Doc>);
    const written = await push('cart', [{ newDocumentState: line }]);
    expect(written.status).toBe(200);
    expect(await written.json()).toEqual([]);
    const stored = (await pullDocs('cart')).find((doc) => doc.id === flightIds[8]);
    expect(stored).toMatchObject({ id: flightIds[8], amount: 2 });
    for (const field of ['_meta', '_rev', '_attachments']) expect(stored).not.toHaveProperty(field);
  });

  test('documents pulled from the server go back as they are (no field of theirs is unknown)', async () => {
    for (const collection of WRITABLE_SYNC_COLLECTIONS) {
      const docs = await pullDocs(collection);
      expect(docs.length, collection).toBeGreaterThan(0);
      const rows = docs
        .slice(0, 5)
        .map((doc) => ({ newDocumentState: doc, assumedMasterState: doc }));
      const response = await push(collection, rows);
      expect(response.status, `${collection}: ${await response.clone().text()}`).toBe(200);
    }
  });
});

describe('push size: the body limit fits PUSH_MAX_ROWS full RxDB rows', () => {
  let pusher: Actor;
  let manyFlights: string[];
  let pusherId: string;
  /** 3 bytes of UTF-8 each: text at its maximum length is also at its largest. */
  const wide = (length: number) => '€'.repeat(length);
  /** RxDB's meta fields as a stored RxDB document has them, `_rev` at its longest. */
  const rxdbMeta = () => ({
    _meta: { lwt: Date.now() + 0.01 },
    _rev: `${'1'.repeat(9)}-${'a'.repeat(RXDB_REV_MAX_LENGTH - 10)}`,
    _attachments: {},
  });

  beforeAll(async () => {
    const signedIn = await insertSignedInUser(sql);
    pusherId = signedIn.id;
    pusher = { ...actors.customer, user: signedIn.user, headers: () => signedIn.headers };
    manyFlights = await insertFlights(sql, await insertAirline(sql, 'Bulk Air'), PUSH_MAX_ROWS + 1);
  });

  /** A cart row with every field at its largest, in both states. */
  function maximalCartRow(flightId: string) {
    const doc = {
      id: flightId,
      userId: pusherId,
      flightId,
      airlineId: randomUUID(),
      airlineName: wide(PUSH_SNAPSHOT_TEXT_MAX_LENGTH.airlineName!),
      origin: wide(PUSH_SNAPSHOT_TEXT_MAX_LENGTH.origin!),
      destination: wide(PUSH_SNAPSHOT_TEXT_MAX_LENGTH.destination!),
      priceCents: Number.MAX_SAFE_INTEGER,
      logo: wide(PUSH_SNAPSHOT_TEXT_MAX_LENGTH.logo!),
      departureHour: '23:59',
      arrivalHour: '23:59',
      tickets: Number.MAX_SAFE_INTEGER,
      amount: CART_LINE_MAX_AMOUNT,
      _deleted: false,
      ...rxdbMeta(),
    };
    return { newDocumentState: doc, assumedMasterState: { ...doc, amount: 1 } };
  }

  /** A review draft row with every field at its largest, in both states. */
  function maximalDraftRow() {
    const doc = {
      id: randomUUID(),
      userId: pusherId,
      orderId: randomUUID(),
      flightId: randomUUID(),
      rating: 10,
      name: wide(REVIEW_NAME_MAX_LENGTH),
      comment: wide(REVIEW_COMMENT_MAX_LENGTH),
      status: 'pending',
      reason: wide(500),
      _deleted: false,
      ...rxdbMeta(),
    };
    return { newDocumentState: doc, assumedMasterState: { ...doc, status: 'rejected' } };
  }

  const bodyBytes = (rows: unknown[]) => Buffer.byteLength(JSON.stringify({ rows }));

  test('the cart is the pushable collection with the largest rows', () => {
    const sizes = WRITABLE_SYNC_COLLECTIONS.map((name) => maxPushRowBytes(name));
    expect(Math.max(...sizes)).toBe(maxPushRowBytes('cart'));
    expect(SYNC_PUSH_MAX_BODY_BYTES).toBe(PUSH_MAX_BODY_BYTES);
    expect(MAX_BODY_BYTES).toBe(64 * 1024);
  });

  test(`${PUSH_MAX_ROWS} maximal cart rows → 200, every line written`, async () => {
    const rows = manyFlights.slice(0, PUSH_MAX_ROWS).map(maximalCartRow);
    const size = bodyBytes(rows);
    expect(size).toBeGreaterThan(MAX_BODY_BYTES * 20);
    expect(size).toBeLessThanOrEqual(PUSH_MAX_BODY_BYTES);
    const response = await app.request('/api/sync/cart/push', pushInit(pusher.headers(), { rows }));
    expect(response.status, await response.clone().text()).toBe(200);
    // Every line written as sent: nothing goes back (decision 027).
    expect(await response.json()).toEqual([]);
    const [count] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM cart_lines WHERE user_id = ${pusherId} AND NOT deleted AND amount = ${CART_LINE_MAX_AMOUNT}`;
    expect(count!.n).toBe(PUSH_MAX_ROWS);
  });

  test(`${PUSH_MAX_ROWS} maximal review draft rows → 200`, async () => {
    const rows = Array.from({ length: PUSH_MAX_ROWS }, maximalDraftRow);
    expect(bodyBytes(rows)).toBeLessThanOrEqual(PUSH_MAX_BODY_BYTES);
    const response = await app.request(
      '/api/sync/reviewDrafts/push',
      pushInit(pusher.headers(), { rows }),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    const [count] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM review_drafts WHERE user_id = ${pusherId}`;
    expect(count!.n).toBe(PUSH_MAX_ROWS);
  });

  test(`${PUSH_MAX_ROWS + 1} maximal rows → 413 "at most ${PUSH_MAX_ROWS} rows", nothing written`, async () => {
    const before =
      await sql`SELECT md5(string_agg(c::text, '|' ORDER BY flight_id)) AS h FROM cart_lines c WHERE user_id = ${pusherId}`;
    const rows = manyFlights.map(maximalCartRow);
    expect(rows).toHaveLength(PUSH_MAX_ROWS + 1);
    const response = await app.request('/api/sync/cart/push', pushInit(pusher.headers(), { rows }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      code: 'payload_too_large',
      message: `A push carries at most ${PUSH_MAX_ROWS} rows`,
    });
    expect(
      await sql`SELECT md5(string_agg(c::text, '|' ORDER BY flight_id)) AS h FROM cart_lines c WHERE user_id = ${pusherId}`,
    ).toEqual(before);
  });

  test('a push body over the limit → 413 with the limit in the message, before it is parsed', async () => {
    const body = JSON.stringify({ rows: [maximalCartRow(manyFlights[0]!)] });
    const padded = body + ' '.repeat(PUSH_MAX_BODY_BYTES + 1 - Buffer.byteLength(body));
    expect(Buffer.byteLength(padded)).toBe(PUSH_MAX_BODY_BYTES + 1);
    const init = pushInit(pusher.headers(), {});
    const response = await app.request('/api/sync/cart/push', { ...init, body: padded });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      code: 'payload_too_large',
      message: `Request body is too large: at most ${PUSH_MAX_BODY_BYTES} bytes`,
    });
    // Exactly at the limit it is read (and, padding aside, accepted).
    const exact = await app.request('/api/sync/cart/push', { ...init, body: padded.slice(0, -1) });
    expect(exact.status).toBe(200);
  });

  test(`other routes keep the ${MAX_BODY_BYTES}-byte limit`, async () => {
    const body = JSON.stringify({ lines: [], padding: 'x'.repeat(MAX_BODY_BYTES) });
    const response = await app.request('/api/cart', {
      method: 'PUT',
      headers: { ...pusher.headers(), 'Content-Type': 'application/json' },
      body,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      message: `Request body is too large: at most ${MAX_BODY_BYTES} bytes`,
    });
  });
});
