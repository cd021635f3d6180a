/**
 * A logout the server has not heard of yet. A logout made offline wipes the device at once, but
 * the session stays open on the server and its HttpOnly cookie stays in the browser (only the
 * server's answer clears it). A flag (localStorage in the app) remembers that
 * `POST /api/auth/logout` must still go out with that cookie; it goes out when the connection
 * returns, at the next start (before `GET /api/auth/me`, so the still-valid cookie is not taken
 * for a signed-in user) and every `retryMs` while it is pending.
 *
 * A sign-in meanwhile ends the old session itself (the server's login rotates the session the
 * request carries), so a successful sign-in drops the flag: the deferred logout must never end
 * the new session. While a sign-in runs no deferred logout is sent (its answer, clearing the
 * cookie, could land after the new cookie), and one in flight is awaited first.
 */
export interface PendingLogoutStore {
  isPending(): boolean;
  setPending(): void;
  clear(): void;
}

export const PENDING_LOGOUT_KEY = 'skyport:pending-logout';

/** The app's store: survives reloads and restarts, shared by the tabs of the origin. */
export function localStoragePendingLogout(key = PENDING_LOGOUT_KEY): PendingLogoutStore {
  return {
    isPending() {
      try {
        return localStorage.getItem(key) !== null;
      } catch {
        return false;
      }
    },
    setPending() {
      try {
        localStorage.setItem(key, JSON.stringify({ since: Date.now() }));
      } catch {
        // No storage: the session ends when it expires on the server.
      }
    },
    clear() {
      try {
        localStorage.removeItem(key);
      } catch {
        // Nothing stored.
      }
    },
  };
}

/** In memory (tests). */
export function memoryPendingLogout(): PendingLogoutStore {
  let pending = false;
  return {
    isPending: () => pending,
    setPending: () => {
      pending = true;
    },
    clear: () => {
      pending = false;
    },
  };
}

export interface DeferredLogoutOptions {
  store: PendingLogoutStore;
  /**
   * Ends the server session this browser holds (the app: `POST /api/auth/logout` with the cookie).
   * Resolves when it is over (ended, or nothing left to end); throws to be tried again later.
   */
  endServerSession(): Promise<void>;
  /** Calls the listener when the connection returns (the app: the window's `online` event). */
  onOnline?: (listener: () => void) => () => void;
  /** Tries again this often while a logout is pending (0: only on `online`); default 30 s. */
  retryMs?: number;
}

export interface DeferredLogout {
  /** Whether a logout is waiting to reach the server. */
  readonly pending: boolean;
  /** Remembers that the server session must still be ended, and watches for the connection. */
  defer(): void;
  /** Tries now when a logout is pending; resolves true when none is pending any more. */
  settle(): Promise<boolean>;
  /** Runs a sign-in (see above); a successful one drops the pending logout. */
  signIn<T>(run: () => Promise<T>): Promise<T>;
  /** Stops watching (tests). */
  dispose(): void;
}

export function createDeferredLogout(options: DeferredLogoutOptions): DeferredLogout {
  const { store } = options;
  const retryMs = options.retryMs ?? 30_000;
  let attempt: Promise<boolean> | null = null;
  let signingIn = 0;
  let stopWatching: (() => void) | null = null;

  function watch() {
    if (stopWatching) return;
    const unsubscribe = options.onOnline?.(() => void settle());
    const interval = retryMs > 0 ? setInterval(() => void settle(), retryMs) : undefined;
    stopWatching = () => {
      unsubscribe?.();
      if (interval !== undefined) clearInterval(interval);
      stopWatching = null;
    };
  }

  function done() {
    store.clear();
    stopWatching?.();
  }

  function settle(): Promise<boolean> {
    if (!store.isPending()) {
      stopWatching?.();
      return Promise.resolve(true);
    }
    watch();
    if (signingIn > 0) return Promise.resolve(false);
    attempt ??= options
      .endServerSession()
      .then(
        () => {
          // A sign-in may have started meanwhile: it waits for this attempt, then owns the flag.
          done();
          return true;
        },
        () => false,
      )
      .finally(() => {
        attempt = null;
      });
    return attempt;
  }

  return {
    get pending() {
      return store.isPending();
    },
    defer() {
      store.setPending();
      watch();
    },
    settle,
    async signIn(run) {
      signingIn += 1;
      try {
        if (attempt) await attempt;
        const result = await run();
        done();
        return result;
      } finally {
        signingIn -= 1;
      }
    },
    dispose() {
      stopWatching?.();
    },
  };
}
