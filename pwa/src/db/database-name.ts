import { SYNC_PROTOCOL_VERSION } from '@skyport/shared';
import { COLLECTION_VERSIONS } from './layout.ts';

/**
 * The local database's name: the sync protocol version, and `l2`, the last local layout that
 * started a new database. Layouts since are schema versions of the collections inside it,
 * migrated in place (db/layout.ts), so that a layout change keeps what the device has not pushed
 * and the guest's cart; the name changes only with the sync protocol (documents of another
 * shape: a fresh replica). The app deletes the databases of other names once this one is open.
 * Kept apart from database.ts so that the start-up code can read it without loading RxDB.
 */
export const DEFAULT_DATABASE_NAME = `skyport-v${SYNC_PROTOCOL_VERSION}-l2`;

/**
 * The device's copy of the catalogue: the database, and the flights' layout when it is not the
 * first (a new flights layout drops the replica, which is pulled again, see db/layout.ts).
 */
export const CATALOGUE_REPLICA_NAME =
  COLLECTION_VERSIONS.flights === 0
    ? DEFAULT_DATABASE_NAME
    : `${DEFAULT_DATABASE_NAME}-flights${COLLECTION_VERSIONS.flights}`;
