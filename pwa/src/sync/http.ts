import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';

/**
 * How the sync client reaches the server: the API base ('/api' on the app's own origin), the
 * fetch to use (the browser's; tests pass Node's) and extra headers (tests authenticate with a
 * Bearer token; the browser sends its session cookie by itself).
 */
export interface SyncTransport {
  baseUrl: string;
  fetch?: typeof fetch;
  headers?: () => Record<string, string>;
}

/** A failed sync request: `status` 0 means the server could not be reached (offline). */
export class SyncHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'SyncHttpError';
  }

  get offline(): boolean {
    return this.status === 0;
  }

  /** The app is too old for the server (426): only an update helps. */
  get updateRequired(): boolean {
    return this.status === 426;
  }

  /**
   * The server refused the request itself (bad document, not yours, too large): sending it again
   * cannot succeed. 401 (signed out), 426, 429 and 5xx are not permanent.
   */
  get permanent(): boolean {
    return this.status === 400 || this.status === 403 || this.status === 404 || this.status === 413;
  }
}

export function syncHeaders(transport: SyncTransport): Record<string, string> {
  return { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION), ...(transport.headers?.() ?? {}) };
}

/** Sends a sync request and returns its JSON body; any failure is a SyncHttpError. */
export async function syncRequest(
  transport: SyncTransport,
  path: string,
  init: {
    method?: 'GET' | 'POST';
    body?: unknown;
    signal?: AbortSignal;
    headers?: Record<string, string>;
  } = {},
): Promise<unknown> {
  // While the browser says it is offline, do not try: the request could only fail (or, through a
  // service worker, leave with the device's network state unknown to us). The 'online' event
  // restarts replication at once.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    throw new SyncHttpError(0, 'The server cannot be reached');
  }
  const doFetch = transport.fetch ?? globalThis.fetch.bind(globalThis);
  let response: Response;
  try {
    response = await doFetch(`${transport.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...syncHeaders(transport),
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
      cache: 'no-store',
      signal: init.signal,
    });
  } catch (cause) {
    if (init.signal?.aborted) throw cause;
    throw new SyncHttpError(0, 'The server cannot be reached');
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = (body ?? {}) as { code?: string; message?: string; details?: unknown };
    throw new SyncHttpError(
      response.status,
      error.message ?? response.statusText,
      error.code,
      error.details,
    );
  }
  return body;
}
