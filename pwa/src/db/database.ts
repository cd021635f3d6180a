import {
  addRxPlugin,
  createRevision,
  createRxDatabase,
  flatCloneDocWithMeta,
  getAllCollectionDocuments,
  now,
  overwritable,
  type MigrationStrategies,
  type RxCollection,
  type RxDatabase,
  type RxJsonSchema,
  type RxStorage,
} from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { SYNC_COLLECTION_INFO, type SyncCollectionName, type SyncDoc } from '@skyport/shared';
import { catalogueReplicaName, DEFAULT_DATABASE_NAME } from './database-name.ts';
import {
  LOCAL_COLLECTIONS,
  MIGRATIONS,
  type DocumentMigration,
  type LocalCollectionName,
} from './layout.ts';
import { rxSchemaOf } from './schemas.ts';
import { withSteppedCreation } from './stepped-creation.ts';

/**
 * The browser's local database (docs/architecture.md §4): RxDB on IndexedDB through the Dexie
 * storage, one collection per replicated collection but the catalogue, which has a replica of its
 * own (db/catalogue-replica.ts). Created outside React; the data provider hands it to the
 * screens. Eight collections: within the free RxDB's limit of 13 open collections per page.
 *
 * Besides the collections, a few local documents (RxDB's key-value store, not replicated) keep
 * what belongs to this device rather than to an account: the guest's cart and favourite
 * attempts and the theme chosen before login (see local-state.ts).
 *
 * A change of layout (a collection's schema or indexes) keeps the database: the collection gets a
 * new schema version and RxDB migrates the device's own collections in place, unpushed changes
 * included, while public replicas are dropped and pulled again (db/layout.ts).
 */

export type SkyportCollections = { [C in LocalCollectionName]: RxCollection<SyncDoc<C>> };
export type SkyportDatabase = RxDatabase<SkyportCollections>;

/** The collections that hold one customer's or one airline's data, cleared at logout. */
export const PERSONAL_COLLECTIONS = LOCAL_COLLECTIONS.filter(
  (name) => SYNC_COLLECTION_INFO[name].partition !== 'public',
);

/** One schema per collection: a layout of the database. */
export type SkyportSchemas = { [C in LocalCollectionName]: RxJsonSchema<SyncDoc<C>> };

export interface CreateDatabaseOptions {
  /** Database name; by default the app's (database-name.ts), and older layouts of it are deleted. */
  name?: string;
  /** The IndexedDB implementation (fake-indexeddb in tests); the browser's by default. */
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  /** Dev-mode checks and schema validation in a development build (default on); never in production. */
  devMode?: boolean;
  /** Several tabs sharing the database (leader election for replication); default true. */
  multiInstance?: boolean;
  /** The collections' schemas; by default the app's layout (tests open older layouts). */
  schemas?: SkyportSchemas;
  /**
   * Awaited between the steps of the opening (building the schemas, opening the database,
   * adding the collections): the app yields to the browser there, so that the opening runs as
   * several short tasks instead of one long one.
   */
  betweenSteps?: () => Promise<void>;
}

let devModeAdded = false;
let pluginsAdded = false;

/**
 * Dev-mode adds RxDB's API checks and needs a schema validator; both cost build size and speed, and
 * dev-mode loads a page from the internet, so they are loaded only in development builds
 * (dynamic imports that a production build drops).
 */
async function storageFor(
  options: CreateDatabaseOptions,
  devMode: boolean,
  betweenSteps: () => Promise<void>,
): Promise<RxStorage<unknown, unknown>> {
  const dexie = withSteppedCreation(
    getRxStorageDexie(
      options.indexedDB ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange } : {},
    ),
    betweenSteps,
  ) as RxStorage<unknown, unknown>;
  if (!import.meta.env.DEV) return dexie;
  // Dev-mode is global to the page once added, and then requires validation everywhere.
  if (!devMode && !devModeAdded) return dexie;
  const [{ RxDBDevModePlugin, disableWarnings }, { wrappedValidateAjvStorage }] = await Promise.all(
    [import('rxdb/plugins/dev-mode'), import('rxdb/plugins/validate-ajv')],
  );
  if (!devModeAdded) {
    disableWarnings();
    addRxPlugin(RxDBDevModePlugin);
    devModeAdded = true;
  }
  return wrappedValidateAjvStorage({ storage: dexie }) as RxStorage<unknown, unknown>;
}

/** Opens (or creates) the local database with every collection. */
export async function createLocalDatabase(
  options: CreateDatabaseOptions = {},
): Promise<SkyportDatabase> {
  // `import.meta.env.DEV` is a build-time constant: a production build drops dev-mode entirely.
  const devMode = import.meta.env.DEV && (options.devMode ?? true);
  const betweenSteps = options.betweenSteps ?? (() => Promise.resolve());
  if (!pluginsAdded) {
    // The tab it elects runs every replication, the catalogue's too (sync/catalogue-replication.ts).
    addRxPlugin(RxDBLeaderElectionPlugin);
    addRxPlugin(RxDBLocalDocumentsPlugin);
    addRxPlugin(RxDBMigrationSchemaPlugin);
    pluginsAdded = true;
  }
  const name = options.name ?? DEFAULT_DATABASE_NAME;
  const schemas = options.schemas ?? (await layoutSchemas(betweenSteps));
  const db = await createRxDatabase<SkyportCollections>({
    name,
    storage: await storageFor(options, devMode, betweenSteps),
    multiInstance: options.multiInstance ?? true,
    localDocuments: true,
    // Queries are re-run on change with event-reduce; keep results of screens in memory.
    eventReduce: true,
    // The replica is rebuilt from the server if ever needed; no need to wait for idle on close.
    closeDuplicates: true,
  });
  await betweenSteps();
  await dropOutdatedReplicas(db, schemas);
  await betweenSteps();
  // A collection stored under an older version is migrated before it opens (RxDB's autoMigrate).
  // One collection per step: all at once were one task of 100-200 ms on a slow phone.
  for (const collection of LOCAL_COLLECTIONS) {
    await db.addCollections({
      [collection]: {
        schema: schemas[collection],
        migrationStrategies: migrationStrategiesOf(collection, schemas[collection].version),
      },
    } as never);
    await betweenSteps();
  }
  const factory = options.indexedDB ?? globalThis.indexedDB;
  if (name === DEFAULT_DATABASE_NAME && factory) void deleteOlderLayouts(factory);
  return db;
}

/** The app's layout: every collection's schema, built one per step (each is a few ms). */
async function layoutSchemas(betweenSteps: () => Promise<void>): Promise<SkyportSchemas> {
  const schemas: Partial<Record<LocalCollectionName, RxJsonSchema<unknown>>> = {};
  for (const collection of LOCAL_COLLECTIONS) {
    schemas[collection] = rxSchemaOf(collection) as RxJsonSchema<unknown>;
    await betweenSteps();
  }
  return schemas as SkyportSchemas;
}

const isReplica = (collection: SyncCollectionName) =>
  SYNC_COLLECTION_INFO[collection].partition === 'public';

/** A public replica's documents are never migrated (see dropOutdatedReplicas). */
const notMigrated: DocumentMigration = () => null;

/**
 * RxDB's strategies up to `version`: db/layout.ts's for the device's own collections (each
 * version must have one), none needed for the public replicas, which are dropped instead.
 */
function migrationStrategiesOf(
  collection: LocalCollectionName,
  version: number,
): MigrationStrategies {
  const strategies: MigrationStrategies = {};
  const own = (MIGRATIONS as Record<string, Readonly<Record<number, DocumentMigration>>>)[
    collection
  ];
  for (let to = 1; to <= version; to++) {
    const strategy = isReplica(collection) ? notMigrated : own?.[to];
    if (!strategy) throw new Error(`${collection}: no migration to version ${to} in db/layout.ts`);
    strategies[to] = strategy;
  }
  return strategies;
}

/**
 * Drops the public replicas (airlines, reviews) stored under an older schema version than this
 * layout's, and those this layout no longer holds (the flights, layout 6), with their
 * replication's records: they are pulled again from scratch (db/layout.ts). Only the outdated
 * versions go: a tab that opened the new layout first keeps what it has pulled since.
 */
async function dropOutdatedReplicas(db: SkyportDatabase, schemas: SkyportSchemas): Promise<void> {
  const stored = await getAllCollectionDocuments(db.internalStore);
  for (const doc of stored) {
    const collection = doc.data.name as SyncCollectionName;
    if (!(collection in SYNC_COLLECTION_INFO) || !isReplica(collection)) continue;
    // Kept when this layout holds it at that version or later.
    const held = (schemas as Partial<Record<SyncCollectionName, { version: number }>>)[collection];
    if (held && doc.data.version >= held.version) continue;
    for (const storage of [
      { collectionName: collection, schema: doc.data.schema },
      ...doc.data.connectedStorages,
    ]) {
      const instance = await db.storage.createStorageInstance({
        databaseInstanceToken: db.token,
        databaseName: db.name,
        collectionName: storage.collectionName,
        schema: storage.schema,
        options: {},
        multiInstance: db.multiInstance,
        password: db.password,
        devMode: overwritable.isDevMode(),
      });
      await instance.remove();
    }
    const removed = flatCloneDocWithMeta(doc);
    removed._deleted = true;
    removed._meta.lwt = now();
    removed._rev = createRevision(db.token, doc);
    await db.internalStore.bulkWrite(
      [{ previous: doc, document: removed }],
      'skyport-drop-outdated-replica',
    );
  }
}

/**
 * Deletes the IndexedDB databases of the app's earlier database names (older layouts, older sync
 * protocols), and their catalogue replicas: nobody opens them again, and a replica of the
 * catalogue is megabytes.
 */
async function deleteOlderLayouts(factory: IDBFactory): Promise<void> {
  // The Dexie storage names each collection's database `rxdb-dexie-{database}--{version}--{name}`.
  const ours = `rxdb-dexie-${DEFAULT_DATABASE_NAME}--`;
  const isOlderCatalogue = (name: string) =>
    name.startsWith('skyport-v') &&
    name.endsWith('-catalogue') &&
    name !== catalogueReplicaName(DEFAULT_DATABASE_NAME);
  try {
    for (const { name } of await factory.databases()) {
      if (!name) continue;
      if (
        (name.startsWith('rxdb-dexie-skyport-v') && !name.startsWith(ours)) ||
        isOlderCatalogue(name)
      )
        factory.deleteDatabase(name);
    }
  } catch {
    // `databases()` is missing in old browsers: the old data stays, nothing else happens.
  }
}

/**
 * Empties the personal collections (cart, favourites, preferences, drafts, orders, sales): every
 * document goes, tombstones included, so that nothing of the last user stays on the device and
 * nothing of theirs can be pushed under the next user's session. Replication of these
 * collections must be stopped (and its metadata removed) before.
 */
export async function clearPersonalCollections(db: SkyportDatabase): Promise<void> {
  for (const name of PERSONAL_COLLECTIONS) {
    const collection = db.collections[name] as RxCollection<unknown>;
    await collection.find().remove();
    // Purge the tombstones too: storage-level cleanup of everything deleted until now.
    await collection.storageInstance.cleanup(0);
  }
}
