import { COLLECTION_VERSIONS } from '../../../db/layout.ts';
import { CATALOGUE_REPLICA_NAME, DEFAULT_DATABASE_NAME } from '../../../db/database-name.ts';

/**
 * Set once this device has the whole catalogue locally (per copy of it: a new database, or a new
 * layout of the flights, starts empty).
 */
export const CATALOGUE_SYNCED_KEY = `skyport:catalogue-synced:${CATALOGUE_REPLICA_NAME}`;

/**
 * Set once this device has every review locally (per copy of them, as for the catalogue: a new
 * layout of the reviews drops them, db/layout.ts), so that a flight's detail shows its airline's
 * average offline, where the reviews' first pull of the visit cannot finish.
 */
const REVIEWS_SYNCED_KEY = `skyport:reviews-synced:${DEFAULT_DATABASE_NAME}-reviews${COLLECTION_VERSIONS.reviews}`;

function flagSet(key: string): boolean {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

function setFlag(key: string) {
  try {
    localStorage.setItem(key, '1');
  } catch {
    // Storage blocked: the next visit waits for the first pull again, nothing worse.
  }
}

/** Whether this device has pulled the whole catalogue before (so the home page reads it locally). */
export function catalogueSyncedBefore(): boolean {
  return flagSet(CATALOGUE_SYNCED_KEY);
}

export function rememberCatalogueSynced() {
  setFlag(CATALOGUE_SYNCED_KEY);
}

/** Whether this device has pulled every review before (so they are all here, online or not). */
export function reviewsSyncedBefore(): boolean {
  return flagSet(REVIEWS_SYNCED_KEY);
}

export function rememberReviewsSynced() {
  setFlag(REVIEWS_SYNCED_KEY);
}
