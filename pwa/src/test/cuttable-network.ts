import { Subject } from 'rxjs';

/** What a test does to a request before it goes out (delay it, hold it until `signal` aborts). */
export type BeforeSend = (url: URL, signal: AbortSignal) => Promise<void>;

/**
 * A network for the sync tests that can be cut like a cable: while it is off, requests fail at
 * once, and cutting or restoring it drops the open ones (the event stream, a push left hanging).
 * `online$` plays the browser's online and offline events (the sync engine's `onlineEvents`).
 */
export function cuttableNetwork(beforeSend?: BeforeSend) {
  let online = true;
  const online$ = new Subject<boolean>();
  const open = new Set<AbortController>();
  /** Every request that went out, in order: `METHOD /path`. */
  const sent: string[] = [];

  const networkFetch: typeof fetch = async (input, init) => {
    if (!online) throw new TypeError('fetch failed (offline)');
    const controller = new AbortController();
    open.add(controller);
    init?.signal?.addEventListener('abort', () => controller.abort());
    controller.signal.addEventListener('abort', () => open.delete(controller));
    const url = new URL(String(input));
    let streaming = false;
    try {
      await beforeSend?.(url, controller.signal);
      if (!online) throw new TypeError('fetch failed (offline)');
      sent.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      const response = await fetch(input, { ...init, signal: controller.signal });
      // An event stream goes on after its headers: it stays open, to drop with the cable.
      streaming = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
      return response;
    } finally {
      if (!streaming) open.delete(controller);
    }
  };

  return {
    fetch: networkFetch,
    online$,
    sent,
    isOnline: () => online,
    /** Cuts or restores the network; open requests drop. `announce`: the browser's event fires. */
    setOnline(value: boolean, announce = true) {
      online = value;
      for (const controller of open) controller.abort();
      if (announce) online$.next(value);
    },
  };
}
