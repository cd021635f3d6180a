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
import { validate } from '../lib/validate.ts';
import { createChangeFeed, type ChangeFeed, type ChangeListener } from './change-feed.ts';
import { resolvePartition } from './partitions.ts';
import { pullChanges } from './pull.ts';
import { pushChanges } from './push.ts';

/** Comment line sent this often on an idle stream, so proxies and the client see it alive. */
const HEARTBEAT_MS = 20_000;

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
export function syncRoutes(deps: Pick<AppDeps, 'sql' | 'logger'>) {
  const { sql } = deps;
  return new Hono<AuthEnv>()
    .use('/sync/*', requireSyncVersion)
    .get('/sync/:collection/pull', validate('query', PullQuerySchema), async (c) => {
      const collection = collectionParam(c);
      const result = await pullChanges(sql, c.get('user'), collection, c.req.valid('query'));
      c.header('Cache-Control', 'no-store');
      return c.json(result);
    })
    .post('/sync/:collection/push', async (c) => {
      const collection = collectionParam(c);
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
      return streamChanges(c, changeFeedFor(deps), wanted, true);
    })
    .get('/sync/:collection/stream', async (c) => {
      const collection = collectionParam(c);
      const partition = resolvePartition(
        c.get('user'),
        collection,
        c.req.query('partition') || undefined,
      );
      return streamChanges(c, changeFeedFor(deps), [{ collection, partition }], false);
    });
}

/**
 * Server-Sent Events of the changes of some partitions: `resync` first (whatever changed before
 * this connection is fetched by the client's own pull), then one `changes` event per batch, with
 * `collection` named when the stream carries several. A comment line every 20 s keeps it alive.
 */
function streamChanges(
  c: Context,
  feed: ChangeFeed,
  wanted: { collection: SyncCollectionName; partition: string | null }[],
  named: boolean,
) {
  c.header('Cache-Control', 'no-store');
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    const queue: string[] = [];
    let wake: (() => void) | undefined;
    let aborted = false;
    stream.onAbort(() => {
      aborted = true;
      wake?.();
    });
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
      while (!aborted) {
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
        if (timedOut && !aborted) await stream.write(': heartbeat\n\n');
      }
    } finally {
      for (const unsubscribe of unsubscribes) unsubscribe();
    }
  });
}
