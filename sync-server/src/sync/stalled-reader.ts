// Test helper (imported by *.test.ts only): a sync stream client that stops reading.
import { connect, type Socket } from 'node:net';
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';

export interface StalledReader {
  socket: Socket;
  /**
   * Reads again until the server ends the stream, or `ms` pass: `ended` when the response ended
   * (its last chunk; the connection may stay open for keep-alive) or the connection was closed,
   * `cut` when it was closed without that last chunk, `hinted` when a `retry:` came before.
   */
  resumeAndWait(ms: number): Promise<{ ended: boolean; cut: boolean; hinted: boolean }>;
}

const LAST_CHUNK = '\r\n0\r\n\r\n';
const HINT_TO_END_MS = 10_000;

/**
 * A raw HTTP/1.1 connection that asks for a stream, reads the answer's first bytes (the stream is
 * open) and then reads nothing more: the kernel's buffers fill and the server must cope. The
 * connection comes from `localAddress` (any 127.x.y.z on Linux), so many readers can be many
 * client addresses.
 */
export function openStalledReader(
  origin: URL,
  options: { path?: string; localAddress?: string; headers?: Record<string, string> } = {},
): Promise<StalledReader> {
  const path = options.path ?? '/api/sync/flights/stream';
  return new Promise((resolve, reject) => {
    let closed = false;
    let tail = '';
    const socket = connect({
      host: origin.hostname,
      port: Number(origin.port),
      localAddress: options.localAddress,
    });
    socket.on('error', () => (closed = true));
    socket.on('close', () => (closed = true));
    socket.once('connect', () => {
      const headers = Object.entries({
        Host: origin.host,
        [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION),
        Accept: 'text/event-stream',
        ...options.headers,
      })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`GET ${path} HTTP/1.1\r\n${headers}\r\n`);
    });
    socket.once('data', (chunk: Buffer) => {
      if (!chunk.toString().startsWith('HTTP/1.1 200')) {
        reject(new Error(`stalled reader refused: ${chunk.toString().split('\r\n')[0]}`));
        socket.destroy();
        return;
      }
      socket.pause();
      resolve({
        socket,
        async resumeAndWait(ms) {
          socket.on('data', (more: Buffer) => {
            tail = (tail + more.toString('latin1')).slice(-4096);
          });
          socket.on('end', () => (closed = true));
          socket.resume();
          const finished = () => closed || tail.endsWith(LAST_CHUNK);
          const hinted = () => tail.includes('retry:');
          // The stream's end follows its hint: once the hint is here, a busy machine gets up to
          // HINT_TO_END_MS more for the end, so that a hinted stream is never reported as open.
          for (
            let waited = 0;
            !finished() && (waited < ms || (hinted() && waited < ms + HINT_TO_END_MS));
            waited += 50
          )
            await new Promise((wait) => setTimeout(wait, 50));
          const ended = finished();
          return {
            ended,
            cut: closed && !tail.endsWith(LAST_CHUNK),
            hinted: hinted(),
          };
        },
      });
    });
    socket.once('error', reject);
  });
}
