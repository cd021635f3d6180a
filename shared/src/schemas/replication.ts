import { z } from 'zod';
import { text } from './text.ts';
import { AirlineSchema } from './airline.ts';
import { CartLineSchema } from './cart.ts';
import { IdSchema } from './common.ts';
import { FavouriteSchema } from './favourite.ts';
import { FlightSchema } from './flight.ts';
import { OrderSchema } from './order.ts';
import { ThemeSchema } from './preferences.ts';
import { ReviewSchema } from './review.ts';
import { SaleFlightSchema, SaleSchema } from './sale.ts';
import { PULL_DEFAULT_BATCH, PULL_MAX_BATCH, PUSH_MAX_ROWS } from '../sync-protocol.ts';
import { IMAGE_URL_MAX_LENGTH } from './auth.ts';
import { FLIGHT_LOGO_MAX_LENGTH } from './flight-form.ts';
import { maxJsonBytes } from './json-size.ts';

/**
 * Local-first replication (docs/architecture.md §4): the wire format of RxDB's replication protocol between the
 * PWA and `/api/sync/{collection}/{pull|push|stream}`, and the document of every replicated
 * collection. The server parses pushes with these schemas; the PWA derives its RxDB collection
 * schemas from them, so both sides agree on every field.
 */

/** Longest name and comment a review draft may carry (bounds the stored row, not the rules). */
export const REVIEW_NAME_MAX_LENGTH = 100;
export const REVIEW_COMMENT_MAX_LENGTH = 2000;

/** The replicated collections, as named in URLs and in the PWA's local database. */
export const SYNC_COLLECTIONS = [
  'flights',
  'airlines',
  'reviews',
  'favourites',
  'cart',
  'preferences',
  'reviewDrafts',
  'orders',
  'sales',
] as const;
export type SyncCollectionName = (typeof SYNC_COLLECTIONS)[number];
export const SyncCollectionNameSchema = z.enum(SYNC_COLLECTIONS);

/**
 * Who a collection's documents belong to: everybody (read-only catalogue data), one customer, or
 * one airline. A pull or push outside the caller's own partition is refused.
 */
export type SyncPartitionKind = 'public' | 'customer' | 'airline';

export interface SyncCollectionInfo {
  readonly partition: SyncPartitionKind;
  /** Whether clients may push to it; the others are pull-only. */
  readonly writable: boolean;
}

export const SYNC_COLLECTION_INFO: Readonly<Record<SyncCollectionName, SyncCollectionInfo>> = {
  flights: { partition: 'public', writable: false },
  airlines: { partition: 'public', writable: false },
  reviews: { partition: 'public', writable: false },
  favourites: { partition: 'customer', writable: true },
  cart: { partition: 'customer', writable: true },
  preferences: { partition: 'customer', writable: true },
  reviewDrafts: { partition: 'customer', writable: true },
  orders: { partition: 'customer', writable: false },
  sales: { partition: 'airline', writable: false },
};

/**
 * Where a pull stopped: the position of the last document sent, `(tx, revision)` (the transaction
 * that last wrote it and its revision, both server-assigned), and its id. The server sends a row
 * only once every transaction that could still commit a smaller position has ended (sync-server's
 * 010 migration), so "everything after this position" never skips a row committed later. A
 * checkpoint without `tx` (written before positions had one) is position (0, revision). Never a
 * client clock.
 */
export const ReplicationCheckpointSchema = z.object({
  tx: z.number().int().nonnegative().optional(),
  revision: z.number().int().nonnegative(),
  id: text().max(100),
});
export type ReplicationCheckpoint = z.infer<typeof ReplicationCheckpointSchema>;

// --- documents -------------------------------------------------------------------------------

/** A flight of the public catalogue. Sold-out flights replicate too (`tickets` 0). */
export const FlightDocSchema = FlightSchema;
export type FlightDoc = z.infer<typeof FlightDocSchema>;

export const AirlineDocSchema = AirlineSchema;

export const ReviewDocSchema = ReviewSchema;
export type ReviewDoc = z.infer<typeof ReviewDocSchema>;

/** A customer's favourite; its id is the flight id (one favourite per flight and customer). */
export const FavouriteDocSchema = FavouriteSchema.extend({ id: IdSchema, userId: IdSchema });
export type FavouriteDoc = z.infer<typeof FavouriteDocSchema>;

/**
 * A line of a customer's cart; its id is the flight id. Only `amount` is the customer's: the
 * flight snapshot is refreshed by the server from its own data whenever the line is written.
 */
export const CartDocSchema = CartLineSchema.extend({ id: IdSchema, userId: IdSchema });
export type CartDoc = z.infer<typeof CartDocSchema>;

/** A customer's preferences; one document, whose id is the user id. */
export const PreferencesDocSchema = z.object({
  id: IdSchema,
  userId: IdSchema,
  theme: ThemeSchema,
});
export type PreferencesDoc = z.infer<typeof PreferencesDocSchema>;

/**
 * Where a review draft stands: written (possibly offline) and waiting for the server, turned into
 * a review, or refused with `reason` (a §5/§8 message the review modal shows).
 */
export const REVIEW_DRAFT_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export const ReviewDraftStatusSchema = z.enum(REVIEW_DRAFT_STATUSES);
export type ReviewDraftStatus = z.infer<typeof ReviewDraftStatusSchema>;

/**
 * A review written from an order line (spec §2 review modal), queued locally and pushed when
 * online. Its fields are only bounded here: an empty name or a missing rating is a valid draft that
 * the server rejects with the spec's message, so the customer sees why.
 */
export const ReviewDraftDocSchema = z.object({
  /** Generated by the client (a UUID), so a draft written offline has its identity at once. */
  id: IdSchema,
  userId: IdSchema,
  orderId: IdSchema,
  flightId: IdSchema,
  rating: z.number().int().min(0).max(10).nullable(),
  name: text().max(REVIEW_NAME_MAX_LENGTH),
  comment: text().max(REVIEW_COMMENT_MAX_LENGTH),
  status: ReviewDraftStatusSchema,
  reason: text().max(500).nullable(),
});
export type ReviewDraftDoc = z.infer<typeof ReviewDraftDocSchema>;

export const OrderDocSchema = OrderSchema;
export type OrderDoc = z.infer<typeof OrderDocSchema>;

/**
 * A sale of the caller's airline, with `flight`: its flight's route and departure as they were
 * when it was sold (the order line's snapshot, sync-server's 016 migration), so that the sales
 * screen names the flight offline and after the flight was edited or deleted (issue 16). The
 * server always sends it; it is optional because documents stored by a device before it existed
 * lack it until they are pulled again (pwa/src/db/layout.ts `SERVER_FILLED_FIELDS`).
 */
export const SaleDocSchema = SaleSchema.extend({ flight: SaleFlightSchema.optional() });
export type SaleDoc = z.infer<typeof SaleDocSchema>;

/** The document schema of each collection (without the `_deleted` flag). */
export const SYNC_DOC_SCHEMAS = {
  flights: FlightDocSchema,
  airlines: AirlineDocSchema,
  reviews: ReviewDocSchema,
  favourites: FavouriteDocSchema,
  cart: CartDocSchema,
  preferences: PreferencesDocSchema,
  reviewDrafts: ReviewDraftDocSchema,
  orders: OrderDocSchema,
  sales: SaleDocSchema,
} as const satisfies Record<SyncCollectionName, z.ZodObject>;

export type SyncDocSchemas = typeof SYNC_DOC_SCHEMAS;
/** The document type of a collection. */
export type SyncDoc<C extends SyncCollectionName> = z.infer<SyncDocSchemas[C]>;
/** A document as replicated: with RxDB's `_deleted` tombstone flag. */
export type WithDeletedFlag<T> = T & { _deleted: boolean };

/** The replicated form of a collection's document schema: the document plus `_deleted`. */
export function replicatedDocSchema<C extends SyncCollectionName>(collection: C) {
  return SYNC_DOC_SCHEMAS[collection].extend({ _deleted: z.boolean() });
}

// --- pull ------------------------------------------------------------------------------------

/** A whole number from a query string ("3") or from code (3). */
function queryInt(min: number, max: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z.number({ error: 'Must be a whole number' }).int().min(min).max(max),
  );
}

/**
 * `GET /api/sync/{collection}/pull?tx=&revision=&id=&limit=&partition=`: the checkpoint's fields.
 * Without `revision` the pull starts from the beginning; without `tx`, from transaction 0. `partition` names whose documents are wanted (a user id or an airline
 * id); it defaults to the caller's own and any other value is refused with 403.
 */
export const PullQuerySchema = z
  .object({
    tx: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
    revision: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
    id: text().max(100).optional(),
    limit: queryInt(1, PULL_MAX_BATCH).default(PULL_DEFAULT_BATCH),
    partition: IdSchema.optional(),
  })
  .strict();
export type PullQuery = z.output<typeof PullQuerySchema>;

/** The answer of a pull: documents after the checkpoint, oldest revision first, and where it stopped. */
export interface PullResponse<T> {
  documents: WithDeletedFlag<T>[];
  /** The checkpoint after the last document; the request's own checkpoint when nothing is new. */
  checkpoint: ReplicationCheckpoint | null;
  /**
   * For the collections devices push to: each document's revision (server-assigned, larger for a
   * later state of the same row), in the order of `documents`. A device drops a pulled state
   * older than the revision a push of its own was accepted at (`pushReportSchema`'s `revisions`): the late
   * echo of an earlier push. Absent from older servers.
   */
  revisions?: number[];
}

/** Revisions as the server sends them (`PullResponse.revisions`, `pushReportSchema`'s `revisions`). */
export const RevisionSchema = z.number().int().nonnegative();

export function pullResponseSchema<C extends SyncCollectionName>(collection: C) {
  return z.object({
    documents: z.array(replicatedDocSchema(collection)),
    checkpoint: ReplicationCheckpointSchema.nullable(),
    revisions: z.array(RevisionSchema).optional(),
  });
}

// --- push ------------------------------------------------------------------------------------

/** The collections clients may push to (`SYNC_COLLECTION_INFO[…].writable`). */
export const WRITABLE_SYNC_COLLECTIONS = [
  'favourites',
  'cart',
  'preferences',
  'reviewDrafts',
] as const satisfies readonly SyncCollectionName[];
export type WritableSyncCollectionName = (typeof WRITABLE_SYNC_COLLECTIONS)[number];

/** Longest `_rev` accepted: RxDB writes `{height}-{10 letters}`. */
export const RXDB_REV_MAX_LENGTH = 128;
/**
 * The size the push limit allows for a document's `_meta` (its last write time and a few plugin
 * tags). `_meta` is RxDB's and is dropped unread, so its inside is not checked; only this budget
 * of the body limit is planned for it.
 */
export const RXDB_META_JSON_BYTES = 512;

/**
 * RxDB's own fields of a stored document, besides the `_deleted` flag every replicated document
 * carries: `_meta` (last write time, plugin tags), `_rev` (revision) and `_attachments`.
 * RxDB's replication leaves them out of what it pushes (unless `keepMeta` is set), and our
 * collections have no attachments; a push that carries them anyway is accepted, their shape is
 * checked, and they are dropped. Any other field a document schema does not know is refused.
 */
const RxdbMetaShape = {
  _meta: z.looseObject({ lwt: z.number() }).optional(),
  _rev: text()
    .max(RXDB_REV_MAX_LENGTH)
    .regex(/^\d+-[A-Za-z0-9_-]+$/, 'Not an RxDB revision')
    .optional(),
  _attachments: z.strictObject({}, { error: 'Attachments are not supported' }).optional(),
};

/**
 * Bounds of the text fields a pushed document carries that its document schema leaves open: the
 * flight snapshot of a cart line or favourite, which the server replaces with its own data. They
 * only bound the size of a push, far above anything the server stores (airline names have at most
 * `NAME_MAX_LENGTH` characters, country names 52, logos `FLIGHT_LOGO_MAX_LENGTH`), so no document
 * the server sent is ever refused when it comes back. Only pushes use them: the RxDB collection
 * schemas (and so the local database's layout) stay as they are.
 */
export const PUSH_SNAPSHOT_TEXT_MAX_LENGTH: Readonly<Record<string, number>> = {
  airlineName: 200,
  origin: 200,
  destination: 200,
  logo: Math.max(FLIGHT_LOGO_MAX_LENGTH, IMAGE_URL_MAX_LENGTH),
  departureHour: 5,
  arrivalHour: 5,
};

/** "Unknown field x" for the fields of a pushed object its schema does not name. */
function unknownFields(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'unrecognized_keys') return undefined;
  const keys = (issue as { keys?: string[] }).keys ?? [];
  return `Unknown field${keys.length === 1 ? '' : 's'} ${keys.map((key) => `"${key}"`).join(', ')}`;
}

/** A pushable collection's document fields, the open snapshot texts bounded. */
function pushDocShape(collection: WritableSyncCollectionName) {
  const shape: Record<string, z.ZodType> = { ...SYNC_DOC_SCHEMAS[collection].shape };
  for (const [key, field] of Object.entries(shape)) {
    const bound = PUSH_SNAPSHOT_TEXT_MAX_LENGTH[key];
    if (bound !== undefined && field instanceof z.ZodString && field.maxLength === null)
      shape[key] = field.max(bound);
  }
  return { ...shape, _deleted: z.boolean() };
}

/**
 * A document as a push may carry it: exactly the collection's fields and `_deleted`, RxDB's meta
 * fields allowed and dropped (`RxdbMetaShape`), any other field refused with "Unknown field".
 * Every text field is bounded here, so a push has a largest size (`PUSH_MAX_BODY_BYTES`).
 */
export function pushDocSchema<C extends WritableSyncCollectionName>(collection: C) {
  return z
    .strictObject({ ...pushDocShape(collection), ...RxdbMetaShape }, { error: unknownFields })
    .transform(({ _meta, _rev, _attachments, ...doc }) => doc as WithDeletedFlag<SyncDoc<C>>);
}

/**
 * One row of a push: the document as the client wrote it, and the server state it was derived
 * from (absent for a document the client created). The server writes the row only when that
 * assumed state is still the current one; otherwise the row is a conflict.
 */
export function pushRowSchema<C extends WritableSyncCollectionName>(collection: C) {
  const doc = pushDocSchema(collection);
  return z.strictObject(
    { newDocumentState: doc, assumedMasterState: doc.nullish() },
    { error: unknownFields },
  );
}

/**
 * `POST /api/sync/{collection}/push`: RxDB's rows. The body is the JSON array RxDB's push handler
 * receives, wrapped as `{ rows }`. More than `PUSH_MAX_ROWS` rows is refused whole (413).
 */
export function pushBodySchema<C extends WritableSyncCollectionName>(collection: C) {
  // Built once per collection: zod compiles a schema on its first parse, and the server parses
  // every push with it.
  let schema = pushBodySchemas.get(collection) as PushBodySchema<C> | undefined;
  if (!schema) {
    schema = z.strictObject(
      { rows: z.array(pushRowSchema(collection)).min(1) },
      { error: unknownFields },
    );
    pushBodySchemas.set(collection, schema);
  }
  return schema;
}
type PushBodySchema<C extends WritableSyncCollectionName> = z.ZodObject<
  { rows: z.ZodArray<ReturnType<typeof pushRowSchema<C>>> },
  z.core.$strict
>;
const pushBodySchemas = new Map<WritableSyncCollectionName, unknown>();

/**
 * The largest push row of a collection, in bytes of JSON: both states at their largest, every
 * text at its maximum length in 3-byte characters, with RxDB's meta fields.
 */
export function maxPushRowBytes(collection: WritableSyncCollectionName): number {
  const doc = z.strictObject({ ...pushDocShape(collection), ...RxdbMetaShape });
  const row = z.strictObject({ newDocumentState: doc, assumedMasterState: doc });
  return maxJsonBytes(row, { _meta: RXDB_META_JSON_BYTES });
}

/**
 * The body limit of `POST /api/sync/{collection}/push`: `PUSH_MAX_ROWS` of the largest rows of
 * any pushable collection (`maxPushRowBytes`), a tenth more for margin, rounded up to 256 KiB
 * (2 MiB with today's schemas). Other routes keep the API's small default limit.
 */
export const PUSH_MAX_BODY_BYTES = /* @__PURE__ */ (() => {
  const largestRow = Math.max(...WRITABLE_SYNC_COLLECTIONS.map(maxPushRowBytes));
  const body = '{"rows":[]}'.length + PUSH_MAX_ROWS * (largestRow + 1);
  const step = 256 * 1024;
  return Math.ceil((body * 1.1) / step) * step;
})();

/**
 * Answer of a push: the current server state of every row that was not written (a conflict, a
 * refused row) or was stored otherwise than sent (a review draft accepted or rejected). The client
 * replaces its local document with it. What the server adds to a written favourite or cart line
 * comes with the change stream's echo (docs/decisions/027-push-answers-what-was-not-written.md).
 */
export function pushResponseSchema<C extends SyncCollectionName>(collection: C) {
  return z.array(replicatedDocSchema(collection));
}

/** A pushed row the server refused, and why (a §5/§8 message or the refusal's message). */
export const PushRejectionSchema = z.object({ id: IdSchema, reason: text().max(500) });
export type PushRejection = z.infer<typeof PushRejectionSchema>;

/**
 * Answer of a push that asked for the report (`PUSH_REPORT_HEADER`):
 * - `documents`: as the array answer, the server's current document of every row not written as
 *   sent (conflicts, completed rows, and refused rows the server has a document for);
 * - `conflicts`: the ids of the rows not written because the client's assumed master state was no
 *   longer the server's (their server document is in `documents`);
 * - `rejected`: the rows the server refused, with the reason: a cart line or favourite of a flight
 *   no longer in the catalogue (not written), a review draft that could not become a review
 *   (stored `rejected` with the same reason, in `documents`);
 * - `revisions`: for favourites, cart and preferences, the revision each row neither refused nor a
 *   conflict has now (written, or already as sent), by id (absent from older servers).
 */
export function pushReportSchema<C extends SyncCollectionName>(collection: C) {
  return z.object({
    documents: z.array(replicatedDocSchema(collection)),
    conflicts: z.array(IdSchema),
    rejected: z.array(PushRejectionSchema),
    revisions: z.record(IdSchema, RevisionSchema).optional(),
  });
}

// --- stream ----------------------------------------------------------------------------------

/**
 * Server-Sent Events of `GET /api/sync/{collection}/stream`:
 * - `event: changes`, data `{ documents, checkpoint }`: documents committed since the last event
 *   (with `revisions`, as a pull's, for the collections devices push to);
 * - `event: resync`, data `{}`: sent when the stream (re)connects, so the client pulls from its
 *   checkpoint whatever it missed while not connected (RxDB's `'RESYNC'`).
 */
export const SYNC_STREAM_EVENTS = { changes: 'changes', resync: 'resync' } as const;

/** Message of the 426 answer to an outdated client. */
export const SYNC_UPDATE_REQUIRED_MESSAGE =
  'Update required: reload the app to get the new version';
