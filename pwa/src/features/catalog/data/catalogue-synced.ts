import { CATALOGUE_REPLICA_NAME } from '../../../db/database-name.ts';

/**
 * Set once this device has the whole catalogue locally (per copy of it: a new database, or a new
 * layout of the flights, starts empty).
 */
export const CATALOGUE_SYNCED_KEY = `skyport:catalogue-synced:${CATALOGUE_REPLICA_NAME}`;

/** Whether this device has pulled the whole catalogue before (so the home page reads it locally). */
export function catalogueSyncedBefore(): boolean {
  try {
    return localStorage.getItem(CATALOGUE_SYNCED_KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberCatalogueSynced() {
  try {
    localStorage.setItem(CATALOGUE_SYNCED_KEY, '1');
  } catch {
    // Storage blocked: the next visit shows the server's first page again, nothing worse.
  }
}
