import { expect, test } from 'vitest';
import { REVIEW_INPUT_COMMENT_MAX_LENGTH } from './review-input.ts';
import { PULL_DEFAULT_BATCH, PULL_MAX_BATCH } from '../sync-protocol.ts';
import {
  PullQuerySchema,
  REVIEW_COMMENT_MAX_LENGTH,
  SYNC_COLLECTIONS,
  SYNC_COLLECTION_INFO,
  SYNC_DOC_SCHEMAS,
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

test('every replicated collection has a document schema and a partition', () => {
  expect(Object.keys(SYNC_DOC_SCHEMAS).sort()).toEqual([...SYNC_COLLECTIONS].sort());
  expect(Object.keys(SYNC_COLLECTION_INFO).sort()).toEqual([...SYNC_COLLECTIONS].sort());
  for (const name of SYNC_COLLECTIONS) expect(SYNC_DOC_SCHEMAS[name].shape).toHaveProperty('id');
  expect(SYNC_COLLECTIONS.length).toBeLessThanOrEqual(13);
});

test('only personal collections are writable, and the catalogue is public', () => {
  const writable = SYNC_COLLECTIONS.filter((name) => SYNC_COLLECTION_INFO[name].writable);
  expect(writable.sort()).toEqual(['cart', 'favourites', 'preferences', 'reviewDrafts']);
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
  const base = {
    id,
    userId,
    orderId: id,
    flightId: id,
    rating: null,
    name: '',
    comment: '',
    status: 'pending',
    reason: null,
    _deleted: false,
  };
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
