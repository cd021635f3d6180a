import { ApiError, apiRequest } from '../../../api/api-client.ts';
import { createDeferredLogout, localStoragePendingLogout } from './deferred-logout.ts';

/** How long `POST /api/auth/logout` may take before it is left for later. */
const LOGOUT_REQUEST_TIMEOUT_MS = 5000;

/**
 * Ends the session whose cookie the browser holds. An answer of the server that says the request
 * itself cannot succeed (4xx other than 408 and 429) also settles it: there is no session to end
 * by sending it again. Offline, no answer in time, or a server error: tried again later.
 */
export async function endServerSession(): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false)
    throw new ApiError(0, 'OFFLINE', 'offline');
  try {
    await apiRequest('/auth/logout', {
      method: 'POST',
      body: {},
      signal: AbortSignal.timeout(LOGOUT_REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const final =
      error instanceof ApiError &&
      error.status >= 400 &&
      error.status < 500 &&
      error.status !== 408 &&
      error.status !== 429;
    if (!final) throw error;
  }
}

/** The app's pending logout (localStorage flag, retried on the window's `online` event). */
export const deferredLogout = createDeferredLogout({
  store: localStoragePendingLogout(),
  endServerSession,
  onOnline(listener) {
    if (typeof window === 'undefined') return () => {};
    window.addEventListener('online', listener);
    return () => window.removeEventListener('online', listener);
  },
});
