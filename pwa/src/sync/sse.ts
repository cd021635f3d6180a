import { Observable } from 'rxjs';
import { syncHeaders, SyncHttpError, type SyncTransport } from './http.ts';

/** One Server-Sent Event. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * How long a stream may stay silent before it counts as lost. The server writes something at
 * least every 20 s (a heartbeat comment when there is nothing else), but a connection that died
 * without a word (a network that stopped routing, a laptop waking up) may never end on its own:
 * without this the device would keep believing its prices live (docs/architecture.md §4.9).
 */
export const STREAM_SILENCE_MS = 45_000;

/**
 * Server-Sent Events over fetch (not EventSource, which cannot send the version header or a
 * Bearer token). The observable errors when the connection fails, ends or stays silent for
 * `silenceMs`, so that the caller decides when to reconnect; unsubscribing closes the connection.
 */
export function serverSentEvents(
  transport: SyncTransport,
  path: string,
  silenceMs: number = STREAM_SILENCE_MS,
): Observable<ServerSentEvent> {
  return new Observable<ServerSentEvent>((subscriber) => {
    const controller = new AbortController();
    const doFetch = transport.fetch ?? globalThis.fetch.bind(globalThis);
    void (async () => {
      let response: Response;
      try {
        response = await doFetch(`${transport.baseUrl}${path}`, {
          headers: { ...syncHeaders(transport), Accept: 'text/event-stream' },
          credentials: 'same-origin',
          cache: 'no-store',
          signal: controller.signal,
        });
      } catch {
        if (!controller.signal.aborted)
          subscriber.error(new SyncHttpError(0, 'The server cannot be reached'));
        return;
      }
      if (!response.ok || !response.body) {
        let message = response.statusText;
        let code: string | undefined;
        try {
          const body = (await response.json()) as { message?: string; code?: string };
          message = body.message ?? message;
          code = body.code;
        } catch {
          // no JSON body
        }
        subscriber.error(new SyncHttpError(response.status, message, code));
        return;
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      let silence: ReturnType<typeof setTimeout> | undefined;
      const listen = () => {
        clearTimeout(silence);
        silence = setTimeout(() => {
          controller.abort();
          subscriber.error(new SyncHttpError(0, 'The live connection went silent'));
        }, silenceMs);
      };
      controller.signal.addEventListener('abort', () => clearTimeout(silence));
      try {
        for (;;) {
          listen();
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = parseBlock(block);
            if (event) subscriber.next(event);
          }
        }
        if (!controller.signal.aborted)
          subscriber.error(new SyncHttpError(0, 'The live connection ended'));
      } catch {
        if (!controller.signal.aborted)
          subscriber.error(new SyncHttpError(0, 'The live connection was lost'));
      } finally {
        clearTimeout(silence);
      }
    })();
    return () => controller.abort();
  });
}

function parseBlock(block: string): ServerSentEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length > 0 ? { event, data: data.join('\n') } : null;
}
