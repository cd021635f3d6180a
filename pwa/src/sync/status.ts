import { createStore } from '../lib/store.ts';

/**
 * The sync status a screen shows (an offline badge, a spinner, an error toast), as a small
 * external store: `getSnapshot` / `subscribe` for React's useSyncExternalStore, no React here.
 *
 * - `offline`: the browser says so, or the server cannot be reached;
 * - `error`: a request failed for another reason (the last message is kept), or the app is too old
 *   for the server (`updateRequired`: the UI offers to reload);
 * - `syncing`: some collection is pulling or pushing;
 * - `upToDate`: none is, and the last requests succeeded.
 *
 * Apart from the phase, how fresh the local catalogue's prices are (docs/architecture.md §4.9):
 * `live` while the live stream is connected and the server reachable (every change reaches the
 * device as it happens), else `catalogueFreshAt`, the last moment the catalogue is known to have
 * matched the server's: its last successful pull, or when the device stopped being live.
 */
export type SyncPhase = 'syncing' | 'upToDate' | 'offline' | 'error';

/** A local change the server refused for good (the change was rolled back locally). */
export interface RejectedChange {
  collection: string;
  id: string;
  message: string;
}

export interface SyncStatus {
  phase: SyncPhase;
  /** The last error message while `phase` is `error`. */
  error: string | null;
  /** The server answered 426: the app must be reloaded to get the new version. */
  updateRequired: boolean;
  /** Changes the server refused (most recent last, at most 20). */
  rejected: readonly RejectedChange[];
  /**
   * Changes made on this device that the server has not acknowledged yet, over the collections
   * this device pushes (unsent-changes.ts); null while no count is known (nothing is pushed, or
   * another tab of this browser runs the replication).
   */
  unsent: number | null;
  /** The live stream is connected, the browser online and the server reachable. */
  live: boolean;
  /**
   * When the local catalogue (`flights`) last matched the server's, in ms since the epoch: its
   * last successful pull, or the moment the device stopped being live; null when unknown.
   */
  catalogueFreshAt: number | null;
}

/** The collection whose pulls date the catalogue's prices. */
const CATALOGUE = 'flights';

export interface SyncStatusStore {
  getSnapshot(): SyncStatus;
  subscribe(listener: () => void): () => void;
  setActive(collection: string, active: boolean): void;
  /** A request of this collection succeeded: its error is cleared and the server is reachable. */
  reportSuccess(collection: string): void;
  reportError(
    collection: string,
    error: { message: string; offline?: boolean; updateRequired?: boolean },
  ): void;
  reportRejected(change: RejectedChange): void;
  /** How many of this collection's changes wait to be sent (null: unknown). */
  reportUnsent(collection: string, count: number | null): void;
  setBrowserOnline(online: boolean): void;
  /** A pull of this collection succeeded: the catalogue is as fresh as this moment. */
  reportPulled(collection: string): void;
  /** The live stream is open (its `resync` arrived), or it was lost. */
  setStreamConnected(connected: boolean): void;
  /** A freshness saved by an earlier session; kept only if newer than what is known. */
  restoreCatalogueFreshAt(at: number | null): void;
  /** Forgets a collection (its replication stopped). */
  forget(collection: string): void;
}

export function createSyncStatusStore(
  initiallyOnline = true,
  now: () => number = Date.now,
): SyncStatusStore {
  const active = new Set<string>();
  const errors = new Map<string, string>();
  const unreachable = new Set<string>();
  let browserOnline = initiallyOnline;
  let updateRequired = false;
  let rejected: RejectedChange[] = [];
  const unsentByCollection = new Map<string, number>();
  let streamConnected = false;
  let catalogueFreshAt: number | null = null;
  const status = createStore(compute());

  function compute(): SyncStatus {
    const lastError = [...errors.values()].at(-1) ?? null;
    let phase: SyncPhase;
    if (!browserOnline || unreachable.size > 0) phase = 'offline';
    else if (updateRequired || errors.size > 0) phase = 'error';
    else if (active.size > 0) phase = 'syncing';
    else phase = 'upToDate';
    const unsent =
      unsentByCollection.size === 0
        ? null
        : [...unsentByCollection.values()].reduce((sum, count) => sum + count, 0);
    const live = streamConnected && browserOnline && unreachable.size === 0;
    return {
      phase,
      error: phase === 'error' ? lastError : null,
      updateRequired,
      rejected,
      unsent,
      live,
      catalogueFreshAt,
    };
  }

  function update() {
    let next = compute();
    const current = status.get();
    if (current.live && !next.live) {
      // Fresh until now: every change reached the device while it was live.
      catalogueFreshAt = Math.max(catalogueFreshAt ?? 0, now());
      next = compute();
    }
    if (
      next.phase === current.phase &&
      next.error === current.error &&
      next.updateRequired === current.updateRequired &&
      next.rejected === current.rejected &&
      next.unsent === current.unsent &&
      next.live === current.live &&
      next.catalogueFreshAt === current.catalogueFreshAt
    ) {
      return;
    }
    status.set(next);
  }

  return {
    getSnapshot: status.get,
    subscribe: status.subscribe,
    setActive(collection, isActive) {
      if (isActive) active.add(collection);
      else active.delete(collection);
      update();
    },
    reportSuccess(collection) {
      errors.delete(collection);
      unreachable.delete(collection);
      update();
    },
    reportError(collection, error) {
      if (error.updateRequired) updateRequired = true;
      if (error.offline) {
        unreachable.add(collection);
      } else {
        unreachable.delete(collection);
        errors.set(collection, error.message);
      }
      update();
    },
    reportRejected(change) {
      rejected = [...rejected, change].slice(-20);
      update();
    },
    reportUnsent(collection, count) {
      if (count === null) unsentByCollection.delete(collection);
      else unsentByCollection.set(collection, count);
      update();
    },
    setBrowserOnline(online) {
      browserOnline = online;
      if (online) unreachable.clear();
      update();
    },
    reportPulled(collection) {
      if (collection !== CATALOGUE) return;
      catalogueFreshAt = Math.max(catalogueFreshAt ?? 0, now());
      update();
    },
    setStreamConnected(connected) {
      streamConnected = connected;
      update();
    },
    restoreCatalogueFreshAt(at) {
      if (at === null || (catalogueFreshAt !== null && catalogueFreshAt >= at)) return;
      catalogueFreshAt = at;
      update();
    },
    forget(collection) {
      active.delete(collection);
      errors.delete(collection);
      unreachable.delete(collection);
      unsentByCollection.delete(collection);
      update();
    },
  };
}
