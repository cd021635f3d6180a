import { describe, expect, test } from 'vitest';
import { REVIEW_INPUT_COMMENT_MAX_LENGTH } from './review-input.ts';
import { messages } from '../messages.ts';
import { PULL_DEFAULT_BATCH, PULL_MAX_BATCH, PUSH_MAX_ROWS } from '../sync-protocol.ts';
import {
  PUSH_MAX_BODY_BYTES,
  PUSH_SNAPSHOT_TEXT_MAX_LENGTH,
  PullQuerySchema,
  REVIEW_COMMENT_MAX_LENGTH,
  REVIEW_NAME_MAX_LENGTH,
  SYNC_COLLECTIONS,
  SYNC_COLLECTION_INFO,
  SYNC_DOC_SCHEMAS,
  WRITABLE_SYNC_COLLECTIONS,
  maxPushRowBytes,
  pullResponseSchema,
  pushBodySchema,
  replicatedDocSchema,
} from './replication.ts';

const id = '3f1c2b9e-8a4d-4c1e-9b7a-2d5e6f7a8b9c';
const userId = '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d';

const cartDoc = {
  id,
  userId,
  flightId: id,
  airlineId: userId,
  airlineName: 'Andes Sky',
  origin: 'Chile',
  destination: 'Peru',
  priceCents: 15_000,
  logo: '/logos/andes-sky.svg',
  departureHour: '08:30',
  arrivalHour: '10:45',
  tickets: 12,
  amount: 2,
  _deleted: false,
};

/** A complete review draft as the PWA pushes it; tests override what they check. */
const reviewDraftDoc = {
  id,
  userId,
  orderId: id,
  flightId: id,
  rating: 4,
  name: 'Ana',
  comment: 'Fine',
  status: 'pending',
  reason: null,
  _deleted: false,
};

test('every replicated collection has a document schema and a partition', () => {
  expect(Object.keys(SYNC_DOC_SCHEMAS).sort()).toEqual([...SYNC_COLLECTIONS].sort());
  expect(Object.keys(SYNC_COLLECTION_INFO).sort()).toEqual([...SYNC_COLLECTIONS].sort());
  for (const name of SYNC_COLLECTIONS) expect(SYNC_DOC_SCHEMAS[name].shape).toHaveProperty('id');
  expect(SYNC_COLLECTIONS.length).toBeLessThanOrEqual(13);
});

test('only personal collections are writable, and the catalogue is public', () => {
  const writable = SYNC_COLLECTIONS.filter((name) => SYNC_COLLECTION_INFO[name].writable);
  expect(writable.sort()).toEqual(['cart', 'favourites', 'preferences', 'reviewDrafts']);
  expect([...WRITABLE_SYNC_COLLECTIONS].sort()).toEqual(writable);
  for (const name of writable) expect(SYNC_COLLECTION_INFO[name].partition).toBe('customer');
  expect(SYNC_COLLECTION_INFO.flights.partition).toBe('public');
  expect(SYNC_COLLECTION_INFO.sales.partition).toBe('airline');
});

test('a pull query comes from a query string, with a default and a maximum batch', () => {
  expect(PullQuerySchema.parse({})).toEqual({ limit: PULL_DEFAULT_BATCH });
  expect(PullQuerySchema.parse({ revision: '12', id, limit: '50' })).toEqual({
    revision: 12,
    id,
    limit: 50,
  });
  expect(PullQuerySchema.safeParse({ limit: String(PULL_MAX_BATCH + 1) }).success).toBe(false);
  expect(PullQuerySchema.safeParse({ revision: '-1' }).success).toBe(false);
  expect(PullQuerySchema.safeParse({ partition: 'not-a-uuid' }).success).toBe(false);
  expect(PullQuerySchema.safeParse({ other: '1' }).success).toBe(false);
});

test('a push row carries a whole document with its tombstone flag', () => {
  const schema = pushBodySchema('cart');
  expect(schema.safeParse({ rows: [{ newDocumentState: cartDoc }] }).success).toBe(true);
  expect(
    schema.safeParse({
      rows: [{ newDocumentState: cartDoc, assumedMasterState: { ...cartDoc, amount: 1 } }],
    }).success,
  ).toBe(true);
  expect(
    schema.safeParse({ rows: [{ newDocumentState: { ...cartDoc, amount: 0 } }] }).success,
  ).toBe(false);
  expect(
    schema.safeParse({ rows: [{ newDocumentState: { ...cartDoc, _deleted: undefined } }] }).success,
  ).toBe(false);
  expect(schema.safeParse({ rows: [] }).success).toBe(false);
  expect(schema.safeParse({ rows: [{ newDocumentState: cartDoc }], extra: true }).success).toBe(
    false,
  );
});

test('a review draft is only bounded: incomplete drafts are valid documents the server rejects with a reason', () => {
  const draft = replicatedDocSchema('reviewDrafts');
  const base = { ...reviewDraftDoc, rating: null, name: '', comment: '' };
  expect(draft.safeParse(base).success).toBe(true);
  expect(draft.safeParse({ ...base, status: 'approved' }).success).toBe(false);
  expect(
    draft.safeParse({ ...base, comment: 'x'.repeat(REVIEW_COMMENT_MAX_LENGTH + 1) }).success,
  ).toBe(false);
  expect(REVIEW_COMMENT_MAX_LENGTH).toBe(REVIEW_INPUT_COMMENT_MAX_LENGTH);
});

test('a pull answer is documents and a checkpoint', () => {
  const schema = pullResponseSchema('cart');
  expect(
    schema.parse({ documents: [cartDoc], checkpoint: { revision: 3, id } }).documents,
  ).toHaveLength(1);
  expect(schema.safeParse({ documents: [], checkpoint: null }).success).toBe(true);
  expect(schema.safeParse({ documents: [], checkpoint: { revision: 1.5, id } }).success).toBe(
    false,
  );
});

describe('pushed documents carry exactly their fields', () => {
  const schema = pushBodySchema('cart');
  const issuesOf = (body: unknown) =>
    schema.safeParse(body).error?.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));

  test('a field the document does not have is refused, naming it', () => {
    expect(issuesOf({ rows: [{ newDocumentState: { ...cartDoc, description: 'x' } }] })).toEqual([
      { path: 'rows.0.newDocumentState', message: 'Unknown field "description"' },
    ]);
    expect(
      issuesOf({
        rows: [
          { newDocumentState: cartDoc, assumedMasterState: { ...cartDoc, price: 1, note: '' } },
        ],
      }),
    ).toEqual([{ path: 'rows.0.assumedMasterState', message: 'Unknown fields "price", "note"' }]);
    expect(issuesOf({ rows: [{ newDocumentState: cartDoc, checkpoint: 1 }] })).toEqual([
      { path: 'rows.0', message: 'Unknown field "checkpoint"' },
    ]);
  });

  test("RxDB's own meta fields are accepted and dropped", () => {
    const meta = { _meta: { lwt: 1_700_000_000_000.01 }, _rev: '3-abcdefghij', _attachments: {} };
    const parsed = schema.parse({
      rows: [
        { newDocumentState: { ...cartDoc, ...meta }, assumedMasterState: { ...cartDoc, ...meta } },
      ],
    });
    expect(parsed.rows[0]).toEqual({ newDocumentState: cartDoc, assumedMasterState: cartDoc });
  });

  test('meta fields of the wrong shape are refused', () => {
    for (const meta of [
      { _rev: 'not a revision' },
      { _rev: 3 },
      { _meta: 'x' },
      { _meta: {} },
      { _attachments: { 'photo.png': { digest: 'x', length: 1, type: 'image/png' } } },
      { _deleted: 'no' },
    ]) {
      expect(
        schema.safeParse({ rows: [{ newDocumentState: { ...cartDoc, ...meta } }] }).success,
      ).toBe(false);
    }
  });

  test('text a database cannot store is refused in any text field', () => {
    const draft = pushBodySchema('reviewDrafts');
    for (const fields of [{ name: 'A\u0000' }, { comment: '\u0000' }, { reason: '\uD800' }]) {
      const doc = { ...reviewDraftDoc, ...fields };
      const result = draft.safeParse({ rows: [{ newDocumentState: doc }] });
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        messages.textNotStorable,
      ]);
    }
    expect(
      issuesOf({ rows: [{ newDocumentState: { ...cartDoc, airlineName: 'A\u0000' } }] }),
    ).toEqual([{ path: 'rows.0.newDocumentState.airlineName', message: messages.textNotStorable }]);
  });

  test('the flight snapshot a cart line carries is bounded in a push only', () => {
    const longest = PUSH_SNAPSHOT_TEXT_MAX_LENGTH.airlineName!;
    const at = (length: number) => ({
      rows: [{ newDocumentState: { ...cartDoc, airlineName: 'x'.repeat(length) } }],
    });
    expect(schema.safeParse(at(longest)).success).toBe(true);
    expect(schema.safeParse(at(longest + 1)).success).toBe(false);
    // The document schema (and so the local database's layout) has no such bound.
    expect(SYNC_DOC_SCHEMAS.cart.shape.airlineName.maxLength).toBeNull();
  });
});

describe('the push body limit fits PUSH_MAX_ROWS of the largest rows', () => {
  /** UTF-8 bytes of a string, counted without the code under test. */
  const bytes = (value: string) => encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, 'x').length;
  const wide = (length: number) => '€'.repeat(length); // 3 bytes of UTF-8 each
  const meta = { _meta: { lwt: 1_700_000_000_000.01 }, _rev: '123-abcdefghij', _attachments: {} };

  test('a maximal cart row and a maximal review draft row are within their computed size', () => {
    const cart = {
      ...cartDoc,
      airlineName: wide(PUSH_SNAPSHOT_TEXT_MAX_LENGTH.airlineName!),
      origin: wide(PUSH_SNAPSHOT_TEXT_MAX_LENGTH.origin!),
      destination: wide(PUSH_SNAPSHOT_TEXT_MAX_LENGTH.destination!),
      logo: wide(PUSH_SNAPSHOT_TEXT_MAX_LENGTH.logo!),
      priceCents: Number.MAX_SAFE_INTEGER,
      tickets: Number.MAX_SAFE_INTEGER,
      amount: 1000,
      ...meta,
    };
    const draft = {
      ...reviewDraftDoc,
      rating: 10,
      name: wide(REVIEW_NAME_MAX_LENGTH),
      comment: wide(REVIEW_COMMENT_MAX_LENGTH),
      status: 'rejected',
      reason: wide(500),
      ...meta,
    };
    for (const [collection, doc] of [
      ['cart', cart],
      ['reviewDrafts', draft],
    ] as const) {
      const row = { newDocumentState: doc, assumedMasterState: doc };
      expect(pushBodySchema(collection).safeParse({ rows: [row] }).success).toBe(true);
      const size = bytes(JSON.stringify(row));
      expect(size).toBeLessThanOrEqual(maxPushRowBytes(collection));
      // The computation is close, not wildly generous.
      expect(size).toBeGreaterThan(maxPushRowBytes(collection) * 0.9);
    }
  });

  test('the limit holds PUSH_MAX_ROWS of the largest rows of any pushable collection', () => {
    const largest = Math.max(...WRITABLE_SYNC_COLLECTIONS.map(maxPushRowBytes));
    expect(largest).toBe(Math.max(maxPushRowBytes('cart'), maxPushRowBytes('favourites')));
    expect(PUSH_MAX_BODY_BYTES).toBeGreaterThanOrEqual(PUSH_MAX_ROWS * (largest + 1) + 20);
    expect(PUSH_MAX_BODY_BYTES).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(PUSH_MAX_BODY_BYTES % (256 * 1024)).toBe(0);
  });
});

test('a sale document carries its flight as sold; one stored before it did stays valid', () => {
  const sale = {
    id,
    airlineId: userId,
    idFlight: '5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b',
    priceCents: 12_345,
    amount: 2,
    createdAt: 1_900_000_000_000,
    _deleted: false,
  };
  const flight = {
    origin: 'Iceland',
    destination: 'Mongolia',
    departureDate: '2027-02-06',
    departureHour: '08:15',
  };
  const schema = replicatedDocSchema('sales');
  expect(schema.parse({ ...sale, flight })).toEqual({ ...sale, flight });
  expect(schema.parse(sale)).toEqual(sale);
  expect(
    schema.safeParse({ ...sale, flight: { ...flight, departureDate: '6/2/2027' } }).success,
  ).toBe(false);
});
