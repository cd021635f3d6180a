import {
  createLocalDatabase,
  type CreateDatabaseOptions,
  type SkyportDatabase,
} from '../db/database.ts';
import {
  createSyncEngine,
  type SyncEngine,
  type SyncEngineOptions,
  type SyncUser,
} from '../sync/engine.ts';
import type { SyncTransport } from '../sync/http.ts';
import { openCatalogueReplica, type CatalogueReplica } from '../db/catalogue-replica.ts';
import { catalogueReplicaName } from '../db/database-name.ts';

/**
 * The local-first data layer of the app: the local database, the catalogue's replica beside it
 * (db/catalogue-replica.ts) and the sync engine, created once outside React (main.tsx / app
 * start-up) and handed to the screens by `LocalDataProvider`.
 */
export interface LocalData {
  db: SkyportDatabase;
  catalogue: CatalogueReplica;
  engine: SyncEngine;
}

export interface CreateLocalDataOptions {
  database?: CreateDatabaseOptions;
  transport?: SyncTransport;
  sync?: Omit<SyncEngineOptions, 'db' | 'catalogue' | 'transport'>;
  /** Start replicating at once (default true). */
  start?: boolean;
}

/** Opens the local database and starts replicating the public collections. */
export async function createLocalData(options: CreateLocalDataOptions = {}): Promise<LocalData> {
  const db = await createLocalDatabase(options.database);
  const catalogue = await openCatalogueReplica(catalogueReplicaName(db.name), {
    indexedDB: options.database?.indexedDB,
    IDBKeyRange: options.database?.IDBKeyRange,
  });
  const engine = createSyncEngine({
    db,
    catalogue,
    transport: options.transport ?? { baseUrl: '/api' },
    ...options.sync,
  });
  if (options.start !== false) engine.start();
  return { db, catalogue, engine };
}

/**
 * Follows the app's session: `subscribe` is the session store's "user changed" hook (for the
 * app, `onSessionUserChange` of app/session.ts). Login starts the user's replication and merges
 * the guest cart; logout stops it and clears the personal data.
 */
export function followSession(
  data: LocalData,
  subscribe: (listener: (user: SyncUser | null) => void) => () => void,
): () => void {
  return subscribe((user) => {
    void data.engine.setUser(
      user ? { id: user.id, role: user.role, airlineId: user.airlineId } : null,
    );
  });
}

/** Stops replication and closes the database (tests, hot reload). */
export async function closeLocalData(data: LocalData): Promise<void> {
  await data.engine.stop();
  data.catalogue.close();
  await data.db.close();
}
