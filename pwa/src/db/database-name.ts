import { SYNC_PROTOCOL_VERSION } from '@skyport/shared';

/**
 * The local database's name: the sync protocol version, and `l2`, the last local layout that
 * started a new database. Layouts since are schema versions of the collections inside it,
 * migrated in place (db/layout.ts), so that a layout change keeps what the device has not pushed
 * and the guest's cart; the name changes only with the sync protocol (documents of another
 * shape: a fresh replica). The app deletes the databases of other names once this one is open.
 * Kept apart from database.ts so that the start-up code can read it without loading RxDB.
 */
export const DEFAULT_DATABASE_NAME = `skyport-v${SYNC_PROTOCOL_VERSION}-l2`;

/** The catalogue's replica (db/catalogue-replica.ts) beside the RxDB database `databaseName`. */
export function catalogueReplicaName(databaseName: string): string {
  return `${databaseName}-catalogue`;
}

/** The device's copy of the catalogue. */
export const CATALOGUE_REPLICA_NAME = catalogueReplicaName(DEFAULT_DATABASE_NAME);
