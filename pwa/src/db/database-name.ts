import { SYNC_PROTOCOL_VERSION } from '@skyport/shared';

/**
 * The local database's layout: its collections, their schemas and their indexes. Bump it with any
 * change to them. RxDB refuses to open a stored collection under another schema, and a replica is
 * quicker to pull again than to migrate, so a new layout starts a new database (and the device's
 * own state in it, a guest's cart and favourites, starts empty); the old one is deleted.
 * 2: the flights lost their IndexedDB index (db/schemas.ts).
 * 3: cart lines and favourites gained the optional `flightDeleted` (a deleted flight, issue 14).
 */
export const LOCAL_LAYOUT_VERSION = 3;

/**
 * The local database's name. The sync protocol version is part of it too, so an app whose
 * documents changed shape starts from a fresh replica instead of migrating an old one. Kept apart
 * from database.ts so that the start-up code can read it without loading RxDB.
 */
export const DEFAULT_DATABASE_NAME = `skyport-v${SYNC_PROTOCOL_VERSION}-l${LOCAL_LAYOUT_VERSION}`;
