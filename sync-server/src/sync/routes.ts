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
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { streamSSE } from 'hono/streaming';
import type { AppDeps } from '../app.ts';
import type { Sql } from '../db/client.ts';
import type { AuthEnv } from '../features/identity/guard.ts';
import { AppError, ErrorCode } from '../lib/errors.ts';
import type { Lifecycle } from '../lib/lifecycle.ts';
import type { Metrics } from '../lib/metrics.ts';
import { validate } from '../lib/validate.ts';
import { createChangeFeed, type ChangeFeed, type ChangeListener } from './change-feed.ts';
import { resolvePartition } from './partitions.ts';
import { pullChanges } from './pull.ts';
import { pushChanges } from './push.ts';

/** Comment line sent this often on an idle stream, so proxies and the client see it alive. */
const HEARTBEAT_MS = 20_000;
/** The reconnect delay a draining instance asks its streams' clients for (SSE `retry:`). */
export const DRAIN_RECONNECT_MS = 1_000;

/** What the stream routes need beyond the database: the instance's drain signal and metrics. */
export type SyncRouteDeps = Pick<AppDeps, 'sql' | 'logger'> & {
  lifecycle: Lifecycle;
  metrics: Metrics;
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

/** Stops the instance's change feed (its LISTEN) on shutdown, after the streams have ended. */
async function closeChangeFeed(sql: Sql): Promise<void> {
  const feed = feeds.get(sql);
  feeds.delete(sql);
  await feed?.close();
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
 * RxDB's replication protocol over HTTP (DESIGN §4), one endpoint set per collection:
 * - `GET  /sync/{collection}/pull?revision=&id=&limit=&partition=` → `{ documents, checkpoint }`
 * - `POST /sync/{collection}/push` `{ rows: [{ newDocumentState, assumedMasterState }] }` → conflicts
 * - `GET  /sync/{collection}/stream` → Server-Sent Events `changes` and `resync`
 * - `GET  /sync/stream?collections=a,b` → the same for several collections on one connection
 * The caller is the identity middleware's `c.var.user`; partitions are checked by the same guard
 * rules as the REST routes.
 */
export function syncRoutes(deps: SyncRouteDeps) {
  const { sql, lifecycle, metrics } = deps;
  lifecycle.onShutdown('sync change feed', () => closeChangeFeed(sql));
  const stream = { feed: () => changeFeedFor(deps), lifecycle, metrics };
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

/**
 * Server-Sent Events of the changes of some partitions: `resync` first (whatever changed before
 * this connection is fetched by the client's own pull), then one `changes` event per batch, with
 * `collection` named when the stream carries several. A comment line every 20 s keeps it alive.
 * When the instance drains (SIGTERM), the stream ends with a `retry:` hint: the client reconnects
 * a moment later, through the load balancer, to an instance that stays.
 */
function streamChanges(
  c: Context,
  {
    feed: feedOf,
    lifecycle,
    metrics,
  }: { feed: () => ChangeFeed } & Omit<SyncRouteDeps, 'sql' | 'logger'>,
  wanted: { collection: SyncCollectionName; partition: string | null }[],
  named: boolean,
) {
  if (lifecycle.draining.aborted)
    throw new AppError(ErrorCode.ServiceUnavailable, 'This server is shutting down; retry');
  const feed = feedOf();
  c.header('Cache-Control', 'no-store');
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    const queue: string[] = [];
    let wake: (() => void) | undefined;
    let aborted = false;
    let draining = false;
    stream.onAbort(() => {
      aborted = true;
      wake?.();
    });
    const onDrain = () => {
      draining = true;
      wake?.();
    };
    lifecycle.draining.addEventListener('abort', onDrain);
    metrics.openStreams.inc();
    const unsubscribes: (() => void)[] = [];
    try {
      for (const { collection, partition } of wanted) {
        const listener: ChangeListener = (batch) => {
          queue.push(JSON.stringify(named ? { collection, ...batch } : batch));
          wake?.();
        };
        unsubscribes.push(await feed.subscribe(collection, partition, listener));
      }
      await stream.writeSSE({ event: SYNC_STREAM_EVENTS.resync, data: '{}' });
      while (!aborted && !draining) {
        const data = queue.shift();
        if (data !== undefined) {
          await stream.writeSSE({ event: SYNC_STREAM_EVENTS.changes, data });
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
        if (timedOut && !aborted && !draining) await stream.write(': heartbeat\n\n');
      }
      if (draining && !aborted) {
        // Whatever the feed still queued goes out first; then the client is told when to return.
        for (let data = queue.shift(); data !== undefined; data = queue.shift())
          await stream.writeSSE({ event: SYNC_STREAM_EVENTS.changes, data });
        await stream.write(`retry: ${DRAIN_RECONNECT_MS}\n\n`);
      }
    } finally {
      lifecycle.draining.removeEventListener('abort', onDrain);
      metrics.openStreams.dec();
      for (const unsubscribe of unsubscribes) unsubscribe();
    }
  });
}
