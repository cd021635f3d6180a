import { SYNC_PROTOCOL_VERSION } from '@skyport/shared';

/** Set once this device has the whole catalogue locally (per sync protocol, like the database). */
export const CATALOGUE_SYNCED_KEY = `skyport:catalogue-synced:v${SYNC_PROTOCOL_VERSION}`;

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
