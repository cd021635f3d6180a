import { SYNC_COLLECTIONS, type SyncCollectionName } from '@skyport/shared';

/**
 * The local database's layout: its collections, their schemas (db/schemas.ts, from the shared
 * document schemas) and their indexes. A change to any of them is a new layout, and RxDB refuses
 * to open a stored collection under a schema other than the one it was created with. So every
 * collection carries a schema version, and a change to a collection bumps its version here
 * (db/layout.test.ts fails until it is done, and records the new layout in db/layouts/):
 *
 * - the collections this device writes to (cart, favourites, preferences, review drafts, and
 *   with them orders and sales) are migrated in place by RxDB, one strategy per version below:
 *   documents not yet pushed stay in the queue, with the replication's own records of what the
 *   server had (RxDB migrates those too), so they are pushed as they would have been;
 * - the replicas of public data (airlines, reviews) are dropped and pulled again: they
 *   hold nothing of the device's own, and a catalogue is quicker to pull than to migrate (RxDB
 *   would copy it twice, its documents and its replication records, before the app could read it).
 *
 * The device's own state outside the collections (the guest's cart, favourite attempts and theme,
 * RxDB local documents) is not affected by collection versions.
 *
 * Layouts:
 * 1. database `skyport-v1`: flights with an `[airlineId, priceCents]` index.
 * 2. database `skyport-v1-l2`: flights without an index. The last layout that started a new
 *    database (and lost what the old one had not pushed); the name has not changed since.
 * 3. cart lines and favourites gained the optional `flightDeleted` (issue 14): cart and
 *    favourites version 1, documents unchanged.
 * 4. sales gained the optional `flight`, the route and departure of the flight as sold
 *    (issue 16): sales version 1, documents unchanged; a stored sale without it is pulled
 *    again (`SERVER_FILLED_FIELDS`).
 * 5. order lines gained the optional `ticket`, the line's signed e-ticket (issue 17): orders
 *    version 1, documents unchanged (the server gives every order that gets its tickets a new
 *    revision, so they arrive by the ordinary pull).
 * 6. the flights left the database for a replica of their own (db/catalogue-replica.ts, decision
 *    031): the stored collection is dropped with its replication's records (database.ts
 *    `dropOutdatedReplicas`), and the catalogue is loaded again into the new replica.
 */
export const LOCAL_LAYOUT = 6;

/**
 * The collections the RxDB database holds: every replicated one but the catalogue, which has a
 * replica of its own (db/catalogue-replica.ts).
 */
export type LocalCollectionName = Exclude<SyncCollectionName, 'flights'>;
export const LOCAL_COLLECTIONS: readonly LocalCollectionName[] = SYNC_COLLECTIONS.filter(
  (name): name is LocalCollectionName => name !== 'flights',
);

/** The schema version of each collection in the current layout. */
export const COLLECTION_VERSIONS: Readonly<Record<LocalCollectionName, number>> = {
  airlines: 0,
  reviews: 0,
  favourites: 1,
  cart: 1,
  preferences: 0,
  reviewDrafts: 0,
  orders: 1,
  sales: 1,
};

/**
 * Fields a layout added that only the server fills in, per collection the device only pulls: a
 * stored document without its field was pulled before the field existed. Such a collection is
 * pulled again from its start once, when its replication starts and finds one (sync/replication.ts):
 * the documents stay readable meanwhile, and the server's copies then replace them.
 */
export const SERVER_FILLED_FIELDS: Readonly<Partial<Record<LocalCollectionName, string>>> = {
  sales: 'flight',
};

/** A document of the previous version in, the document of this version out (null: drop it). */
export type DocumentMigration = (doc: Record<string, unknown>) => Record<string, unknown> | null;

/** An added optional field, an index, a bound: the documents stay as they are. */
const unchanged: DocumentMigration = (doc) => doc;

/**
 * RxDB migration strategies of the collections the device writes to: for each version above 0,
 * how a document of the version before becomes one of this version. (The public replicas are
 * dropped instead, see above.)
 */
export const MIGRATIONS: Readonly<
  Record<
    'favourites' | 'cart' | 'preferences' | 'reviewDrafts' | 'orders' | 'sales',
    Readonly<Record<number, DocumentMigration>>
  >
> = {
  favourites: { 1: unchanged },
  cart: { 1: unchanged },
  preferences: {},
  reviewDrafts: {},
  orders: { 1: unchanged },
  sales: { 1: unchanged },
};
