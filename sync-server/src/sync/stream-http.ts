import { ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type { AuthEnv } from '../features/identity/guard.ts';
import { AppError, ErrorCode } from '../lib/errors.ts';
import { SyncStream, type StreamHub, type StreamOutput, type Wanted } from './stream.ts';

/** Opening a sync stream on an HTTP request, and the outputs a stream writes its bytes to. */

/** Bytes a stream's web body (the fallback output, see WebOutput) holds before it counts as behind. */
const WEB_HIGH_WATER_BYTES = 16 * 1024;

/** The Node.js response under a Hono context (node-server's bindings); HTTP/1.1 only. */
function nodeResponseOf(c: Context): ServerResponse | undefined {
  const env = c.env as { outgoing?: unknown; server?: { outgoing?: unknown } } | undefined;
  const outgoing = env?.server?.outgoing ?? env?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : undefined;
}

/** node-server's mark of an answer the handler wrote itself ("x-hono-already-sent"). */
const ALREADY_SENT_HEADERS = Object.fromEntries(RESPONSE_ALREADY_SENT.headers);
const [ALREADY_SENT_HEADER = 'x-hono-already-sent'] = Object.keys(ALREADY_SENT_HEADERS);

/**
 * An answer node-server leaves alone (it carries the "already sent" mark) that still gathers the
 * headers of the request so far (c.header, the request id) and those the middleware adds after the
 * handler (security headers); the stream writes its head from it. It is a standard Response
 * (clone()): node-server writes its own light-weight responses without looking at the mark.
 */
function alreadySentAnswer(c: Context): Response {
  return c.body(null, 200, ALREADY_SENT_HEADERS).clone();
}

/** The head of the answer the app built (with every middleware's headers), for writeHead. */
function headOf(answer: Response): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of answer.headers)
    if (name !== ALREADY_SENT_HEADER && name !== 'content-length' && name !== 'set-cookie')
      headers[name] = value;
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

/**
 * Server-Sent Events of the changes of some partitions: `resync` first (whatever changed before
 * this connection is fetched by the client's own pull), then one `changes` event per batch, with
 * `collection` named when the stream carries several. An idle stream gets a comment line every
 * 10 to 20 s.
 *
 * It ends, with a last word the client understands, when:
 * - the instance drains (SIGTERM): a `retry:` hint; the client reconnects, through the load
 *   balancer, to an instance that stays;
 * - its session ends (every way of ending one notifies `skyport_access`, see access-watch.ts) or
 *   expires: `session-ended`; or its user may no longer read a partition it carries:
 *   `access-ended`. Nothing queued is sent after that, and a socket that does not take the last
 *   word within half a second is cut. The client reconnects and gets 401 or 403;
 * - the client reads too slowly: more than `queueMaxBytes` (or `queueMaxEvents`) waiting ends the
 *   stream with a `retry:` hint and the queue is dropped at once (the reconnect's `resync` makes
 *   the client pull what it missed); a client that takes nothing for `writeTimeoutMs` while
 *   bytes wait for it has its socket cut.
 * A guest's stream has no session and is only bounded by the last point.
 *
 * Opening one takes a slot of the instance's limits (per client address and in total): 429 past
 * them.
 */
export function streamChanges(
  c: Context<AuthEnv>,
  hub: StreamHub,
  wanted: Wanted,
  named: boolean,
): Response {
  const { lifecycle, slots } = hub.deps;
  if (lifecycle.draining.aborted)
    throw new AppError(ErrorCode.ServiceUnavailable, 'This server is shutting down; retry');
  const address = hub.deps.clientAddress(c);
  const release = slots.acquire(address);
  const session = c.get('session');
  const requestId = (c.var as { requestId?: string }).requestId;
  const stream = new SyncStream(hub, {
    wanted,
    named,
    session: session && { id: session.id, userId: session.userId, expiresAt: session.expiresAt },
    address,
    requestId,
    release,
  });
  c.header('Content-Type', 'text/event-stream');
  c.header('Cache-Control', 'no-store');
  c.header('X-Accel-Buffering', 'no');

  const res = nodeResponseOf(c);
  if (!res) {
    // Not under node-server's HTTP/1.1 (app.request in tests, another runtime): a web body.
    const out = new WebOutput(stream);
    void stream.start(out);
    return c.body(out.body, 200);
  }
  const answer = alreadySentAnswer(c);
  // The head goes out once the middleware chain is done with the answer: the request id and the
  // security headers are added after the handler returns, synchronously in its promise chain,
  // so they are all there by the next turn of the event loop.
  setImmediate(() => {
    if (res.destroyed) {
      stream.closed(); // the client left already
      return;
    }
    if (res.headersSent || c.res.headers.get(ALREADY_SENT_HEADER) === null) {
      hub.deps.logger.warn(
        { requestId },
        'sync stream: the app answered the stream request itself; a middleware replaced its answer',
      );
      stream.closed();
      return;
    }
    res.writeHead(200, headOf(c.res));
    res.flushHeaders();
    void stream.start(new NodeOutput(res, stream));
  });
  return answer;
}

/**
 * The HTTP/1.1 chunk (`<size>\r\n<frame>\r\n`) of a frame, made once per frame whatever the
 * number of streams that carry it.
 */
const chunks = new WeakMap<Uint8Array, Buffer>();
function chunkOf(frame: Uint8Array): Buffer {
  let chunk = chunks.get(frame);
  if (!chunk) {
    chunk = Buffer.concat([
      Buffer.from(`${frame.byteLength.toString(16)}\r\n`, 'latin1'),
      frame,
      Buffer.from('\r\n', 'latin1'),
    ]);
    chunks.set(frame, chunk);
  }
  return chunk;
}

/**
 * A stream's output on node-server's HTTP/1.1 response. With chunked transfer encoding (every
 * HTTP/1.1 client), a frame goes to the socket as one ready-made chunk, shared by every stream:
 * one socket write, where `res.write` would frame each write anew in four corked writes and a
 * deferred flush, which at ten thousand streams is most of a change's delivery time. The response
 * itself only wrote the head (flushed before the first frame) and writes the last chunk
 * (`res.end()`). A response without chunked encoding (an HTTP/1.0 client) takes plain
 * `res.write`s.
 *
 * Built apart from the request's handler so that its listeners' closures hold the stream only,
 * not the request's Hono context.
 */
class NodeOutput implements StreamOutput {
  readonly #res: ServerResponse;
  readonly #socket: Socket | null;

  constructor(res: ServerResponse, stream: SyncStream) {
    this.#res = res;
    this.#socket = res.chunkedEncoding ? res.socket : null;
    const drained = () => stream.drained();
    const socket = this.#socket;
    // The socket outlives the response (keep-alive): its listener goes with the response.
    (socket ?? res).on('drain', drained);
    res.once('close', () => {
      socket?.off('drain', drained);
      stream.closed();
    });
  }

  write(frame: Uint8Array): boolean {
    return this.#socket ? this.#socket.write(chunkOf(frame)) : this.#res.write(frame);
  }

  end(): void {
    this.#res.end();
  }

  destroy(): void {
    this.#res.destroy();
  }
}

/**
 * A stream's output as a web ReadableStream body, where there is no Node.js response to write
 * to. The same rules hold: past WEB_HIGH_WATER_BYTES unread the client counts as behind, and a
 * cancelled body is a client that left.
 */
class WebOutput implements StreamOutput {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #done = false;

  constructor(private readonly stream: SyncStream) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => stream.drained(),
        cancel: () => {
          this.#done = true;
          stream.closed();
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: WEB_HIGH_WATER_BYTES }),
    );
  }

  write(bytes: Uint8Array): boolean {
    if (this.#done) return true;
    this.#controller.enqueue(bytes);
    return (this.#controller.desiredSize ?? 0) > 0;
  }

  end(): void {
    if (this.#done) return;
    this.#done = true;
    this.#controller.close();
    this.stream.closed();
  }

  destroy(): void {
    if (this.#done) return;
    this.#done = true;
    this.#controller.error(new Error('sync stream cut'));
    this.stream.closed();
  }
}
