import {
  PullQuerySchema,
  SYNC_COLLECTIONS,
  SYNC_PROTOCOL_VERSION,
  SYNC_UPDATE_REQUIRED_MESSAGE,
  SYNC_VERSION_HEADER,
  PUSH_REPORT_HEADER,
  SyncCollectionNameSchema,
  type SyncCollectionName,
} from '@skyport/shared';
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Sql } from '../db/client.ts';
import type { ServerDeps } from '../deps.ts';
import type { AuthEnv } from '../features/identity/guard.ts';
import { createSessionCache, type SessionCache } from '../features/identity/session-cache.ts';
import { clientIp } from '../features/identity/middleware.ts';
import {
  resolveIdentitySettings,
  type IdentitySettingsInput,
} from '../features/identity/settings.ts';
import { AppError, ErrorCode } from '../lib/errors.ts';
import type { Lifecycle } from '../lib/lifecycle.ts';
import type { Metrics } from '../lib/metrics.ts';
import { validate } from '../lib/validate.ts';
import { createAccessWatch } from './access-watch.ts';
import { createChangeFeed } from './change-feed.ts';
import { resolvePartition } from './partitions.ts';
import { pullChanges } from './pull.ts';
import { pushChanges, pushPartition } from './push.ts';
import { streamChanges } from './stream-http.ts';
import { StreamHub } from './stream.ts';
import { resolveStreamLimits, StreamSlots, type StreamLimits } from './stream-limits.ts';

export { ACCESS_ENDED_EVENT, SESSION_ENDED_EVENT } from './stream-frames.ts';

/** What the stream routes need beyond the database: the instance's drain signal and metrics. */
export type SyncRouteDeps = ServerDeps & {
  /** The identity settings (the app's, app.ts): how a client's address is read behind a proxy. */
  identity?: IdentitySettingsInput;
  lifecycle: Lifecycle;
  metrics: Metrics;
  /** Limits of the streams (sync/stream-limits.ts); main.ts passes them from the environment. */
  streams?: Partial<StreamLimits>;
};

/**
 * One `T` per database handle, made on first use: what holds the instance's LISTEN connection
 * (a handle is one instance's pool).
 */
function onePerHandle<T extends { close(): Promise<void> }>(
  create: (sql: Sql, logger: ServerDeps['logger']) => T,
) {
  const made = new WeakMap<Sql, T>();
  return {
    get(deps: ServerDeps): T {
      let value = made.get(deps.sql);
      if (!value) {
        value = create(deps.sql, deps.logger);
        made.set(deps.sql, value);
      }
      return value;
    },
    /** Closes the handle's one, if it was made; the next `get` makes a new one. */
    async close(sql: Sql): Promise<void> {
      const value = made.get(sql);
      made.delete(sql);
      await value?.close();
    },
  };
}

/** One change feed per database handle (one LISTEN connection per server instance). */
const feeds = onePerHandle(createChangeFeed);
export const changeFeedFor = feeds.get;

/** One session and access watch per database handle (on the same LISTEN connection). */
const watches = onePerHandle(createAccessWatch);
export const accessWatchFor = watches.get;

/**
 * One session cache per database handle (features/identity/session-cache.ts), kept exact by the
 * handle's access watch: app.ts resolves the sessions of sync requests through it.
 */
const sessionCaches = new WeakMap<Sql, SessionCache>();
export function sessionCacheFor(deps: ServerDeps): SessionCache {
  let cache = sessionCaches.get(deps.sql);
  if (!cache) {
    cache = createSessionCache(deps.sql, accessWatchFor(deps));
    sessionCaches.set(deps.sql, cache);
  }
  return cache;
}

/** Stops the instance's change feed and access watch (its LISTENs) on shutdown, after the streams. */
async function closeChangeFeed(sql: Sql): Promise<void> {
  await Promise.all([feeds.close(sql), watches.close(sql)]);
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
 *   (with `PUSH_REPORT_HEADER`: `{ documents, conflicts, rejected }`, the push report)
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
  const streams = new StreamHub({
    sql,
    logger: deps.logger,
    feed: () => changeFeedFor(deps),
    watch: () => accessWatchFor(deps),
    lifecycle,
    metrics,
    limits,
    slots: new StreamSlots(limits),
    clientAddress: (c) => clientIp(c, identitySettings),
  });
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
      const report = c.req.header(PUSH_REPORT_HEADER) === '1';
      const outcome = await pushChanges(sql, c.get('user'), collection, body, { report });
      // Clients that did not ask for the report read the bare array of documents.
      return c.json(report ? outcome : outcome.documents);
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
      return streamChanges(c, streams, wanted, true);
    })
    .get('/sync/:collection/stream', async (c) => {
      const collection = collectionParam(c);
      const partition = resolvePartition(
        c.get('user'),
        collection,
        c.req.query('partition') || undefined,
      );
      return streamChanges(c, streams, [{ collection, partition }], false);
    });
}
