import {
  PullQuerySchema,
  SYNC_COLLECTIONS,
  SYNC_PROTOCOL_VERSION,
  SYNC_STREAM_EVENTS,
  SYNC_UPDATE_REQUIRED_MESSAGE,
  SYNC_VERSION_HEADER,
  SyncCollectionNameSchema,
  type SyncCollectionName,
} from '@skyport/shared';
import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { streamSSE } from 'hono/streaming';
import type { AppDeps } from '../app.ts';
import type { Sql } from '../db/client.ts';
import type { AuthEnv } from '../features/identity/guard.ts';
import { clientIp } from '../features/identity/middleware.ts';
import { findSessionById } from '../features/identity/sessions.ts';
import { resolveIdentitySettings } from '../features/identity/settings.ts';
import { AppError, ErrorCode } from '../lib/errors.ts';
import type { Lifecycle } from '../lib/lifecycle.ts';
import type { Logger } from '../lib/logger.ts';
import type { Metrics } from '../lib/metrics.ts';
import { validate } from '../lib/validate.ts';
import { createAccessWatch, type AccessWatch } from './access-watch.ts';
import { createChangeFeed, type ChangeFeed, type ChangeListener } from './change-feed.ts';
import { resolvePartition } from './partitions.ts';
import { pullChanges } from './pull.ts';
import { pushChanges, pushPartition } from './push.ts';
import { resolveStreamLimits, StreamSlots, type StreamLimits } from './stream-limits.ts';

/** Comment line sent this often on an idle stream, so proxies and the client see it alive. */
const HEARTBEAT_MS = 20_000;
/** The reconnect delay a draining instance asks its streams' clients for (SSE `retry:`). */
export const DRAIN_RECONNECT_MS = 1_000;

/** The reconnect delay a stream ended for a slow reader or a failed check asks for. */
export const SLOW_READER_RECONNECT_MS = 1_000;
/**
 * The event that ends a stream whose session ended (logout, password change or reset, disable,
 * deletion) or expired: the client's reconnect then gets 401 and signs the user out.
 */
export const SESSION_ENDED_EVENT = 'session-ended';
/** The event that ends a stream whose user may no longer read one of its partitions (403 next). */
export const ACCESS_ENDED_EVENT = 'access-ended';
/** How long a stream whose session ended waits for a write in progress before it cuts the socket. */
const SESSION_END_GRACE_MS = 500;
/** setTimeout's longest delay; a session expiring later is timed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the stream routes need beyond the database: the instance's drain signal and metrics. */
export type SyncRouteDeps = Pick<AppDeps, 'sql' | 'logger' | 'identity'> & {
  lifecycle: Lifecycle;
  metrics: Metrics;
  /** Limits of the streams (sync/stream-limits.ts); main.ts passes them from the environment. */
  streams?: Partial<StreamLimits>;
};

/** One change feed per database handle (one LISTEN connection per server instance). */
const feeds = new WeakMap<Sql, ChangeFeed>();
export function changeFeedFor(deps: Pick<AppDeps, 'sql' | 'logger'>): ChangeFeed {
  let feed = feeds.get(deps.sql);
  if (!feed) {
    feed = createChangeFeed(deps.sql, deps.logger);
    feeds.set(deps.sql, feed);
  }
  return feed;
}

/** One session and access watch per database handle (on the same LISTEN connection). */
const watches = new WeakMap<Sql, AccessWatch>();
export function accessWatchFor(deps: Pick<AppDeps, 'sql' | 'logger'>): AccessWatch {
  let watch = watches.get(deps.sql);
  if (!watch) {
    watch = createAccessWatch(deps.sql, deps.logger);
    watches.set(deps.sql, watch);
  }
  return watch;
}

/** Stops the instance's change feed and access watch (its LISTENs) on shutdown, after the streams. */
async function closeChangeFeed(sql: Sql): Promise<void> {
  const feed = feeds.get(sql);
  feeds.delete(sql);
  const watch = watches.get(sql);
  watches.delete(sql);
  await Promise.all([feed?.close(), watch?.close()]);
}

/**
 * Security/compatibility: every sync request names the protocol version it speaks. Any other
 * version gets 426 "update required" before anything is read or written, so an outdated app
 * (whose service worker still serves old code) can never push documents of an older shape.
 */
const requireSyncVersion = createMiddleware(async (c, next) => {
  const sent = c.req.header(SYNC_VERSION_HEADER);
  if (sent !== String(SYNC_PROTOCOL_VERSION)) {
    throw new AppError(ErrorCode.UpgradeRequired, SYNC_UPDATE_REQUIRED_MESSAGE, {
      required: SYNC_PROTOCOL_VERSION,
      sent: sent ?? null,
    });
  }
  await next();
});

function collectionParam(c: Context): SyncCollectionName {
  const parsed = SyncCollectionNameSchema.safeParse(c.req.param('collection'));
  if (!parsed.success)
    throw new AppError(ErrorCode.NotFound, `No replicated collection ${c.req.param('collection')}`);
  return parsed.data;
}

/**
 * RxDB's replication protocol over HTTP (docs/architecture.md §4), one endpoint set per collection:
 * - `GET  /sync/{collection}/pull?revision=&id=&limit=&partition=` → `{ documents, checkpoint }`
 * - `POST /sync/{collection}/push` `{ rows: [{ newDocumentState, assumedMasterState }] }` → conflicts
 * - `GET  /sync/{collection}/stream` → Server-Sent Events `changes` and `resync` (see streamChanges)
 * - `GET  /sync/stream?collections=a,b` → the same for several collections on one connection
 * The caller is the identity middleware's `c.var.user`; partitions are checked by the same guard
 * rules as the REST routes.
 */
export function syncRoutes(deps: SyncRouteDeps) {
  const { sql, lifecycle, metrics } = deps;
  lifecycle.onShutdown('sync change feed', () => closeChangeFeed(sql));
  const limits = resolveStreamLimits(deps.streams);
  const identitySettings = resolveIdentitySettings(deps.identity);
  const stream: StreamContext = {
    sql,
    logger: deps.logger,
    feed: () => changeFeedFor(deps),
    watch: () => accessWatchFor(deps),
    lifecycle,
    metrics,
    limits,
    slots: new StreamSlots(limits),
    clientAddress: (c) => clientIp(c, identitySettings),
  };
  return new Hono<AuthEnv>()
    .use('/sync/*', requireSyncVersion)
    .get('/sync/:collection/pull', validate('query', PullQuerySchema), async (c) => {
      const collection = collectionParam(c);
      metrics.syncRequests.inc({ collection, operation: 'pull' });
      const result = await pullChanges(sql, c.get('user'), collection, c.req.valid('query'));
      c.header('Cache-Control', 'no-store');
      return c.json(result);
    })
    .post('/sync/:collection/push', async (c) => {
      const collection = collectionParam(c);
      metrics.syncRequests.inc({ collection, operation: 'push' });
      // Security: who may push is decided before the body (up to 2 MiB) is read.
      pushPartition(c.get('user'), collection);
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw new AppError(ErrorCode.BadRequest, 'Malformed JSON body');
      }
      const conflicts = await pushChanges(sql, c.get('user'), collection, body);
      return c.json(conflicts);
    })
    .get('/sync/stream', async (c) => {
      // One connection for several collections: a browser holds at most 6 HTTP/1.1
      // connections per origin, fewer than the collections a customer replicates.
      const names = (c.req.query('collections') ?? '').split(',').filter(Boolean);
      if (names.length === 0 || names.length > SYNC_COLLECTIONS.length) {
        throw new AppError(
          ErrorCode.BadRequest,
          'collections: name one or more replicated collections',
        );
      }
      const wanted = [...new Set(names)].map((name) => {
        const parsed = SyncCollectionNameSchema.safeParse(name);
        if (!parsed.success)
          throw new AppError(ErrorCode.BadRequest, `collections: no replicated collection ${name}`);
        return { collection: parsed.data, partition: resolvePartition(c.get('user'), parsed.data) };
      });
      return streamChanges(c, stream, wanted, true);
    })
    .get('/sync/:collection/stream', async (c) => {
      const collection = collectionParam(c);
      const partition = resolvePartition(
        c.get('user'),
        collection,
        c.req.query('partition') || undefined,
      );
      return streamChanges(c, stream, [{ collection, partition }], false);
    });
}

interface StreamContext {
  sql: Sql;
  logger: Logger;
  feed: () => ChangeFeed;
  watch: () => AccessWatch;
  lifecycle: Lifecycle;
  metrics: Metrics;
  limits: StreamLimits;
  slots: StreamSlots;
  clientAddress: (c: Context) => string;
}

type Wanted = { collection: SyncCollectionName; partition: string | null }[];

/**
 * Why a stream ends: the client left (`aborted`), the instance drains, the client does not read
 * (`overflow`: too much waiting; `stalled`: a write not taken in time), its session ended or
 * expired, its user lost access to a partition, or the check of that failed.
 */
type EndReason =
  | 'aborted'
  | 'draining'
  | 'overflow'
  | 'stalled'
  | 'session'
  | 'expired'
  | 'access'
  | 'check-failed';

const encoder = new TextEncoder();
const frame = (text: string) => encoder.encode(text);
const RESYNC_FRAME = frame(`event: ${SYNC_STREAM_EVENTS.resync}\ndata: {}\n\n`);
const HEARTBEAT_FRAME = frame(': heartbeat\n\n');
const DRAIN_FRAME = frame(`retry: ${DRAIN_RECONNECT_MS}\n\n`);
const SLOW_READER_FRAME = frame(
  `: too far behind; reconnect and pull\nretry: ${SLOW_READER_RECONNECT_MS}\n\n`,
);
const FINAL_FRAMES: Partial<Record<EndReason, Uint8Array>> = {
  draining: DRAIN_FRAME,
  overflow: SLOW_READER_FRAME,
  'check-failed': SLOW_READER_FRAME,
  session: frame(`event: ${SESSION_ENDED_EVENT}\ndata: {"reason":"ended"}\n\n`),
  expired: frame(`event: ${SESSION_ENDED_EVENT}\ndata: {"reason":"expired"}\n\n`),
  access: frame(`event: ${ACCESS_ENDED_EVENT}\ndata: {"reason":"access"}\n\n`),
};

/**
 * The `changes` event of a feed batch, encoded once per batch (and per form: with or without the
 * collection's name) however many streams carry it: every stream's queue and socket refer to the
 * same bytes, so a thousand readers of the flights feed cost one copy of each change.
 */
const changeFrames = new WeakMap<object, { plain?: Uint8Array; named?: Uint8Array }>();
function changesFrame(
  batch: Parameters<ChangeListener>[0],
  collection: SyncCollectionName | undefined,
): Uint8Array {
  let cached = changeFrames.get(batch);
  if (!cached) {
    cached = {};
    changeFrames.set(batch, cached);
  }
  const key = collection ? 'named' : 'plain';
  let bytes = cached[key];
  if (!bytes) {
    const data = JSON.stringify(collection ? { collection, ...batch } : batch);
    // JSON has no raw line breaks, so the data is one `data:` line (as writeSSE would write it).
    bytes = frame(`event: ${SYNC_STREAM_EVENTS.changes}\ndata: ${data}\n\n`);
    cached[key] = bytes;
  }
  return bytes;
}

/** The Node.js response under a Hono context (node-server's bindings), to cut a stalled socket. */
function nodeResponseOf(c: Context): ServerResponse | Http2ServerResponse | undefined {
  const env = c.env as
    | { outgoing?: ServerResponse | Http2ServerResponse; server?: { outgoing?: ServerResponse } }
    | undefined;
  return env?.server?.outgoing ?? env?.outgoing;
}

/**
 * Whether a stream's session still lives and still grants every partition the stream carries
 * (the same rules as opening it), and when the session expires.
 */
async function checkSession(
  sql: Sql,
  sessionId: string,
  wanted: Wanted,
): Promise<{ ended: 'session' | 'access' } | { expiresAt: Date }> {
  const found = await findSessionById(sql, sessionId);
  if (!found) return { ended: 'session' };
  for (const { collection, partition } of wanted) {
    try {
      if (resolvePartition(found.user, collection, partition ?? undefined) !== partition)
        return { ended: 'access' };
    } catch {
      return { ended: 'access' };
    }
  }
  return { expiresAt: found.session.expiresAt };
}

/**
 * Server-Sent Events of the changes of some partitions: `resync` first (whatever changed before
 * this connection is fetched by the client's own pull), then one `changes` event per batch, with
 * `collection` named when the stream carries several. A comment line every 20 s keeps it alive.
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
 *   the client pull what it missed); a write not taken within `writeTimeoutMs` cuts the socket.
 * A guest's stream has no session and is only bounded by the last point.
 *
 * Opening one takes a slot of the instance's limits (per client address and in total): 429 past
 * them.
 */
function streamChanges(c: Context<AuthEnv>, ctx: StreamContext, wanted: Wanted, named: boolean) {
  const { lifecycle, metrics, limits, logger } = ctx;
  if (lifecycle.draining.aborted)
    throw new AppError(ErrorCode.ServiceUnavailable, 'This server is shutting down; retry');
  const session = c.get('session');
  const address = ctx.clientAddress(c);
  const release = ctx.slots.acquire(address);
  let handedOver = false;
  try {
    const feed = ctx.feed();
    const watch = session ? ctx.watch() : undefined;
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    const response = streamSSE(c, async (stream) => {
      handedOver = true;
      const socket = nodeResponseOf(c);
      const queue: Uint8Array[] = [];
      let queuedBytes = 0;
      let ending: EndReason | undefined;
      let wake: (() => void) | undefined;
      /** Set while a write waits for the client: cuts that wait short. */
      let interruptWrite: (() => void) | undefined;
      const unsubscribes: (() => void)[] = [];
      const stopListening = () => {
        for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
      };

      /** Whether a write was given up on (a stalled client, or one a session end did not wait for). */
      let cutLate = false;
      /** The socket goes now; its buffers with it. */
      const cut = () => {
        socket?.destroy();
        stream.abort();
      };
      const end = (reason: EndReason) => {
        if (ending) return;
        ending = reason;
        stopListening();
        // Nothing waiting is sent after a session or access end, and a slow reader's backlog
        // is given back at once; a drain still flushes what it holds.
        if (reason !== 'draining') {
          queue.length = 0;
          queuedBytes = 0;
        }
        if (reason === 'session' || reason === 'expired' || reason === 'access') {
          const pending = interruptWrite;
          if (pending)
            setTimeout(() => interruptWrite === pending && pending(), SESSION_END_GRACE_MS);
        }
        wake?.();
      };

      /** Writes one frame; false (and the socket cut) when the client does not take it in time. */
      const send = async (
        bytes: Uint8Array,
        timeoutMs = limits.writeTimeoutMs,
      ): Promise<boolean> => {
        let timer: NodeJS.Timeout | undefined;
        const outcome = await Promise.race([
          stream.write(bytes).then(() => 'written' as const),
          new Promise<'late'>((resolve) => {
            timer = setTimeout(() => resolve('late'), timeoutMs);
            interruptWrite = () => resolve('late');
          }),
        ]);
        clearTimeout(timer);
        interruptWrite = undefined;
        if (outcome === 'written' && !stream.aborted) return true;
        if (outcome === 'late') {
          if (!ending) end('stalled');
          cut();
          cutLate = true;
        }
        return false;
      };

      stream.onAbort(() => end('aborted'));
      const onDrain = () => end('draining');
      lifecycle.draining.addEventListener('abort', onDrain);
      metrics.openStreams.inc();

      let expiryTimer: NodeJS.Timeout | undefined;
      const armExpiry = (expiresAt: Date) => {
        clearTimeout(expiryTimer);
        const left = expiresAt.getTime() - Date.now();
        if (left <= 0) end('expired');
        else expiryTimer = setTimeout(() => armExpiry(expiresAt), Math.min(left, MAX_TIMER_MS));
      };
      let checking = false;
      let checkAgain = false;
      const check = async () => {
        if (!session || ending) return;
        if (checking) {
          checkAgain = true;
          return;
        }
        checking = true;
        try {
          do {
            checkAgain = false;
            const verdict = await checkSession(ctx.sql, session.id, wanted);
            if ('ended' in verdict) end(verdict.ended);
            else armExpiry(verdict.expiresAt);
          } while (checkAgain && !ending);
        } catch (error) {
          // Fail closed: the client reconnects and is authenticated afresh.
          logger.warn({ err: error }, 'sync stream: session check failed');
          end('check-failed');
        } finally {
          checking = false;
          // Changes held back while the session was being checked go out now (if it lives).
          wake?.();
        }
      };

      try {
        if (session) {
          armExpiry(session.expiresAt);
          unsubscribes.push(await watch!.watch(session.userId, () => void check()));
          // What committed between the request's authentication and the LISTEN is seen here.
          await check();
        }
        for (const { collection, partition } of wanted) {
          if (ending) break;
          const listener: ChangeListener = (batch) => {
            if (ending) return;
            const bytes = changesFrame(batch, named ? collection : undefined);
            if (
              queue.length > 0 &&
              (queue.length >= limits.queueMaxEvents ||
                queuedBytes + bytes.byteLength > limits.queueMaxBytes)
            ) {
              end('overflow');
              return;
            }
            queue.push(bytes);
            queuedBytes += bytes.byteLength;
            wake?.();
          };
          unsubscribes.push(await feed.subscribe(collection, partition, listener));
        }
        if (ending) stopListening();
        else if (!(await send(RESYNC_FRAME))) return;
        while (!ending) {
          // Security: while a notice about this user's access is being checked, nothing is
          // sent: a change committed after a session ended must not reach that session's stream.
          const next = checking ? undefined : queue.shift();
          if (next !== undefined) {
            queuedBytes -= next.byteLength;
            if (!(await send(next))) return;
            continue;
          }
          const timedOut = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), HEARTBEAT_MS);
            wake = () => {
              clearTimeout(timer);
              resolve(false);
            };
          });
          wake = undefined;
          if (timedOut && !ending && !(await send(HEARTBEAT_FRAME))) return;
        }
        if (ending === 'draining') {
          // Whatever the feed still queued goes out first; then the client is told when to return.
          for (let next = queue.shift(); next !== undefined; next = queue.shift())
            if (!(await send(next))) return;
        }
        const last = FINAL_FRAMES[ending];
        const security = ending === 'session' || ending === 'expired' || ending === 'access';
        if (last && !stream.aborted)
          await send(last, security ? SESSION_END_GRACE_MS : limits.writeTimeoutMs);
      } catch (error) {
        // The database failed while the stream was set up (LISTEN or first reads): the stream
        // ends and the client reconnects.
        logger.error({ err: error }, 'sync stream failed');
      } finally {
        // Logged here, in the request's own context (a feed's listener runs in another's).
        if (ending === 'overflow' || cutLate)
          logger.info(
            { address, reason: ending, cut: cutLate },
            'sync stream ended: the client does not read',
          );
        else if (ending && ending !== 'aborted')
          logger.debug({ reason: ending }, 'sync stream ended by the server');
        metrics.streamsEnded.inc({ reason: cutLate ? 'write-timeout' : (ending ?? 'error') });
        clearTimeout(expiryTimer);
        lifecycle.draining.removeEventListener('abort', onDrain);
        metrics.openStreams.dec();
        stopListening();
        queue.length = 0;
        release();
        if (socket && !stream.aborted) {
          // The stream is closing; a client that never takes the rest does not keep the socket.
          const timer = setTimeout(() => {
            if (!socket.writableFinished) socket.destroy();
          }, limits.writeTimeoutMs);
          timer.unref();
          socket.once('close', () => clearTimeout(timer));
        }
      }
    });
    return response;
  } finally {
    if (!handedOver) release();
  }
}
