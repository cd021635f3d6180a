// A minimal EventSource over fetch for tests of live streams (sync/*.test.ts, the cluster tests):
// records events, comments and the end.

/** `ended().reason` when the server (or a proxy) closed the stream cleanly. */
export const CLOSED_BY_SERVER = 'server closed the stream';

export interface SseEvent {
  event: string;
  data: string;
  /** performance.now() when the event was complete. */
  at: number;
}

export interface SseClient {
  /** The response (status, headers) once the headers arrived. */
  response: Promise<Response>;
  events: SseEvent[];
  /** Comment lines (`: heartbeat`) with the time they arrived. */
  comments: { text: string; at: number }[];
  /** Whether the stream has ended (server or proxy closed it, or `close()`), and how. */
  ended(): false | { at: number; reason: string };
  /** `ended()` once the stream has ended, or after `timeoutMs` with it still open. */
  endedWithin(timeoutMs: number): Promise<false | { at: number; reason: string }>;
  /**
   * The first event matching `predicate`, once it arrived; fails when the stream ends without it
   * or after `timeoutMs` (default 10 s: what is waited for comes in milliseconds, and a failure
   * is an event that never comes, so the bound only needs to hold on a busy machine).
   */
  waitFor(predicate: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): Promise<void>;
}

export function openSse(url: string, headers: Record<string, string>): SseClient {
  const controller = new AbortController();
  const events: SseEvent[] = [];
  const comments: { text: string; at: number }[] = [];
  const waiters = new Set<() => void>();
  let end: false | { at: number; reason: string } = false;
  const wakeAll = () => {
    for (const wake of waiters) wake();
    waiters.clear();
  };
  const response = fetch(url, { headers, signal: controller.signal });
  const done = (async () => {
    let reason = CLOSED_BY_SERVER;
    try {
      const res = await response;
      if (!res.ok || !res.body) {
        reason = `status ${res.status}`;
        return;
      }
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push({ text: line, at: performance.now() });
            else if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          if (data.length > 0) events.push({ event, data: data.join('\n'), at: performance.now() });
          wakeAll();
        }
      }
    } catch (error) {
      reason = controller.signal.aborted ? 'closed by the client' : (error as Error).message;
    } finally {
      end = { at: performance.now(), reason };
      wakeAll();
    }
  })();
  return {
    response,
    events,
    comments,
    ended: () => end,
    async endedWithin(timeoutMs) {
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
      return end;
    },
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const found = events.find(predicate);
        if (found) return found;
        if (end) throw new Error(`stream ended (${end.reason}) without the awaited event`);
        const left = deadline - performance.now();
        if (left <= 0)
          throw new Error(
            `no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`,
          );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 250));
          waiters.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}
