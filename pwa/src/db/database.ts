import {
  addRxPlugin,
  createRxDatabase,
  type RxCollection,
  type RxDatabase,
  type RxStorage,
} from 'rxdb';
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import {
  SYNC_COLLECTIONS,
  SYNC_COLLECTION_INFO,
  type SyncCollectionName,
  type SyncDoc,
} from '@skyport/shared';
import { useBulkReads } from './bulk-reads.ts';
import { DEFAULT_DATABASE_NAME } from './database-name.ts';
import { rxSchemaOf } from './schemas.ts';
import { withWholeRangeReads } from './whole-range-reads.ts';

/**
 * The browser's local database (DESIGN §4): RxDB on IndexedDB through the Dexie storage, one
 * collection per replicated collection. Created outside React; the data provider hands it to
 * the screens. Nine collections: within the free RxDB's limit of 13 open collections per page.
 *
 * Besides the collections, a few local documents (RxDB's key-value store, not replicated) keep
 * what belongs to this device rather than to an account: the guest's cart and favourite
 * attempts and the theme chosen before login (see local-state.ts).
 */

export type SkyportCollections = { [C in SyncCollectionName]: RxCollection<SyncDoc<C>> };
export type SkyportDatabase = RxDatabase<SkyportCollections>;

/** The collections that hold one customer's or one airline's data, cleared at logout. */
export const PERSONAL_COLLECTIONS = SYNC_COLLECTIONS.filter(
  (name) => SYNC_COLLECTION_INFO[name].partition !== 'public',
) as readonly SyncCollectionName[];

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
}

let devModeAdded = false;
let localDocumentsAdded = false;

/**
 * Dev-mode adds RxDB's API checks and needs a schema validator; both cost build size and speed, and
 * dev-mode loads a page from the internet, so they are loaded only in development builds
 * (dynamic imports that a production build drops).
 */
async function storageFor(
  options: CreateDatabaseOptions,
  devMode: boolean,
): Promise<RxStorage<unknown, unknown>> {
  const dexie = withWholeRangeReads(
    getRxStorageDexie({
      ...(options.indexedDB
        ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange }
        : {}),
      onCreate: useBulkReads,
    }),
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
  if (!localDocumentsAdded) {
    addRxPlugin(RxDBLocalDocumentsPlugin);
    localDocumentsAdded = true;
  }
  const name = options.name ?? DEFAULT_DATABASE_NAME;
  const db = await createRxDatabase<SkyportCollections>({
    name,
    storage: await storageFor(options, devMode),
    multiInstance: options.multiInstance ?? true,
    localDocuments: true,
    // Queries are re-run on change with event-reduce; keep results of screens in memory.
    eventReduce: true,
    // The replica is rebuilt from the server if ever needed; no need to wait for idle on close.
    closeDuplicates: true,
  });
  await db.addCollections(
    Object.fromEntries(
      SYNC_COLLECTIONS.map((name) => [name, { schema: rxSchemaOf(name) }]),
    ) as never,
  );
  const factory = options.indexedDB ?? globalThis.indexedDB;
  if (name === DEFAULT_DATABASE_NAME && factory) void deleteOlderLayouts(factory);
  return db;
}

/**
 * Deletes the IndexedDB databases of the app's earlier database names (older layouts, older sync
 * protocols): nobody opens them again, and a replica of the catalogue is megabytes.
 */
async function deleteOlderLayouts(factory: IDBFactory): Promise<void> {
  // The Dexie storage names each collection's database `rxdb-dexie-{database}--{version}--{name}`.
  const ours = `rxdb-dexie-${DEFAULT_DATABASE_NAME}--`;
  try {
    for (const { name } of await factory.databases()) {
      if (name?.startsWith('rxdb-dexie-skyport-v') && !name.startsWith(ours))
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
