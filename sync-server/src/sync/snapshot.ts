import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import {
  SYNC_COLLECTION_INFO,
  SYNC_PROTOCOL_VERSION,
  SYNC_UPDATE_REQUIRED_MESSAGE,
  SYNC_VERSION_HEADER,
  SyncCollectionNameSchema,
  type ReplicationCheckpoint,
  type SyncCollectionName,
} from '@skyport/shared';
import { Hono } from 'hono';
import type { Sql } from '../db/client.ts';
import type { AuthEnv } from '../features/identity/guard.ts';
import { AppError, ErrorCode } from '../lib/errors.ts';
import type { Metrics } from '../lib/metrics.ts';
import { selectChanges, type ChangeBatch } from './documents.ts';

/**
 * A public collection's whole replica in one cacheable, compressed answer
 * (`GET /api/sync/{collection}/snapshot`), for a device that has none yet: instead of one pull per
 * 2,000 flights, each waiting for the one before (50 round trips and 50 queries for 100,000
 * flights), the PWA downloads the snapshot once, writes it from a worker, and goes on with the
 * ordinary pulls from the snapshot's checkpoint (docs/architecture.md §4).
 *
 * The body is newline-delimited JSON, so that it can be read and written while it downloads:
 *
 *     {"collection":"flights","protocol":1}                       header
 *     {"id":"…","airlineId":"…",…,"_deleted":false}               one line per document, exactly
 *     …                                                            as the collection's pull sends it
 *     {"checkpoint":{…},"count":100000}                            trailer: where to pull on from
 *
 * The documents are `selectChanges`' (documents.ts), read page by page from no checkpoint; a
 * document written while the snapshot is built can come twice, the later line is the newer
 * version. The trailer's checkpoint is the last document's, opaque to the client like every
 * checkpoint; a truncated body has no trailer and is refused.
 *
 * A snapshot is built once and kept, compressed (brotli and gzip), until the collection has moved
 * on by `SNAPSHOT_MAX_TAIL` documents or more: a snapshot a little behind is as good as a fresh one,
 * since the client pulls what came after its checkpoint anyway. So the answer is the same for
 * everybody for a while: a weak ETag (the body's hash) answers revalidations with 304, and
 * `Cache-Control: public` lets the browser and shared caches keep it.
 */

/** Documents per query while a snapshot is built. */
export const SNAPSHOT_PAGE = 5000;
/**
 * A kept snapshot is rebuilt once this many documents or more were written after its
 * checkpoint (one pull of the catalogue's batch brings fewer up to date).
 */
export const SNAPSHOT_MAX_TAIL = 2000;
/** A kept snapshot is checked against the database at most this often. */
const RECHECK_MS = 5_000;
/** And rebuilt at most this often (a busy catalogue must not keep the server compressing). */
const MIN_REBUILD_MS = 30_000;
/** How long browsers and shared caches may reuse an answer without asking (seconds). */
const MAX_AGE_SECONDS = 60;
export const SNAPSHOT_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

const gunzip = promisify(zlib.gunzip);

/** The collections that have snapshots: the public ones (the same for every caller). */
export function hasSnapshot(collection: SyncCollectionName): boolean {
  return SYNC_COLLECTION_INFO[collection].partition === 'public';
}

export interface CollectionSnapshot {
  collection: SyncCollectionName;
  /** The checkpoint of the last document (null: the collection is empty). */
  checkpoint: ReplicationCheckpoint | null;
  /** Document lines (a document written during the build may count twice). */
  count: number;
  /** Weak ETag of the body (its SHA-256, whatever the encoding). */
  etag: string;
  /** Uncompressed size of the body. */
  bytes: number;
  gzip: Buffer;
  /**
   * Brotli, once made: compressed in the background after the build (zlib's thread pool; seconds
   * of CPU at 100,000 flights), so the first answers are gzip.
   */
  br?: Buffer;
  builtAt: number;
}

/** Brotli at quality 5 compresses NDJSON flights about 8:1 at tens of MB/s; 11 would take minutes. */
const BROTLI_OPTIONS: zlib.BrotliOptions = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
    [zlib.constants.BROTLI_PARAM_LGWIN]: 22,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};

/** Compresses the body with gzip as it is written (with backpressure), and hashes it. */
class SnapshotWriter {
  private readonly hash = createHash('sha256');
  private readonly gzip = zlib.createGzip({ level: 6 });
  private readonly gzipChunks: Buffer[] = [];
  /** The body itself, kept until brotli has had it (see `buildSnapshot`). */
  readonly chunks: Buffer[] = [];
  bytes = 0;

  constructor() {
    this.gzip.on('data', (chunk: Buffer) => this.gzipChunks.push(chunk));
  }

  async write(text: string): Promise<void> {
    const chunk = Buffer.from(text, 'utf8');
    this.bytes += chunk.length;
    this.hash.update(chunk);
    this.chunks.push(chunk);
    if (!this.gzip.write(chunk)) await once(this.gzip, 'drain');
  }

  async end(): Promise<{ etag: string; gzip: Buffer }> {
    const done = once(this.gzip, 'end');
    this.gzip.end();
    await done;
    return {
      etag: `W/"${this.hash.digest('base64url').slice(0, 32)}"`,
      gzip: Buffer.concat(this.gzipChunks),
    };
  }
}

/** Compresses the chunks with brotli, off the event loop (zlib's thread pool), a chunk at a time. */
async function brotli(chunks: readonly Buffer[]): Promise<Buffer> {
  const stream = zlib.createBrotliCompress(BROTLI_OPTIONS);
  const out: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => out.push(chunk));
  const done = once(stream, 'end');
  for (const chunk of chunks) if (!stream.write(chunk)) await once(stream, 'drain');
  stream.end();
  await done;
  return Buffer.concat(out);
}

/** Reads a public collection from its first document to its last, compressed as one snapshot. */
export async function buildSnapshot(
  sql: Sql,
  collection: SyncCollectionName,
  pageSize = SNAPSHOT_PAGE,
): Promise<CollectionSnapshot> {
  const writer = new SnapshotWriter();
  await writer.write(`${JSON.stringify({ collection, protocol: SYNC_PROTOCOL_VERSION })}\n`);
  let checkpoint: ReplicationCheckpoint | null = null;
  let count = 0;
  for (;;) {
    const batch: ChangeBatch<SyncCollectionName> = await selectChanges(
      sql,
      collection,
      null,
      checkpoint,
      pageSize,
    );
    if (batch.documents.length > 0) {
      let lines = '';
      for (const document of batch.documents) lines += `${JSON.stringify(document)}\n`;
      await writer.write(lines);
      count += batch.documents.length;
    }
    checkpoint = batch.last ?? checkpoint;
    // A short page: caught up (rows still held back come with the client's next pulls).
    if (batch.documents.length < pageSize) break;
  }
  await writer.write(`${JSON.stringify({ checkpoint, count })}\n`);
  const { etag, gzip } = await writer.end();
  const snapshot: CollectionSnapshot = {
    collection,
    checkpoint,
    count,
    etag,
    bytes: writer.bytes,
    gzip,
    builtAt: Date.now(),
  };
  void brotli(writer.chunks).then(
    (br) => (snapshot.br = br),
    () => undefined,
  );
  return snapshot;
}

interface Kept {
  snapshot?: CollectionSnapshot;
  building?: Promise<CollectionSnapshot>;
  checkedAt: number;
  checking?: Promise<void>;
}

/**
 * The snapshots of one server instance: built on first demand, kept, rebuilt in the background
 * once the collection has moved on by `maxTail` documents (the kept one is served meanwhile).
 */
export function createSnapshotStore(
  sql: Sql,
  options: { maxTail?: number; recheckMs?: number; minRebuildMs?: number; pageSize?: number } = {},
) {
  const maxTail = options.maxTail ?? SNAPSHOT_MAX_TAIL;
  const recheckMs = options.recheckMs ?? RECHECK_MS;
  const minRebuildMs = options.minRebuildMs ?? MIN_REBUILD_MS;
  const kept = new Map<SyncCollectionName, Kept>();

  function build(collection: SyncCollectionName, entry: Kept): Promise<CollectionSnapshot> {
    entry.building ??= buildSnapshot(sql, collection, options.pageSize)
      .then((snapshot) => {
        entry.snapshot = snapshot;
        entry.checkedAt = Date.now();
        return snapshot;
      })
      .finally(() => {
        entry.building = undefined;
      });
    return entry.building;
  }

  /** Starts a rebuild when the kept snapshot is too far behind (without waiting for it). */
  function recheck(collection: SyncCollectionName, entry: Kept, snapshot: CollectionSnapshot) {
    entry.checkedAt = Date.now();
    entry.checking ??= selectChanges(sql, collection, null, snapshot.checkpoint, maxTail)
      .then((tail) => {
        if (tail.documents.length >= maxTail) void build(collection, entry).catch(() => undefined);
      })
      .catch(() => undefined)
      .finally(() => {
        entry.checking = undefined;
      });
  }

  return {
    /** The collection's snapshot: the kept one (possibly a little behind), else a new one. */
    async get(collection: SyncCollectionName): Promise<CollectionSnapshot> {
      let entry = kept.get(collection);
      if (!entry) {
        entry = { checkedAt: 0 };
        kept.set(collection, entry);
      }
      const snapshot = entry.snapshot;
      if (!snapshot) return build(collection, entry);
      const now = Date.now();
      if (
        !entry.building &&
        now - entry.checkedAt >= recheckMs &&
        now - snapshot.builtAt >= minRebuildMs
      )
        recheck(collection, entry, snapshot);
      return snapshot;
    },
  };
}

export type SnapshotStore = ReturnType<typeof createSnapshotStore>;

/** The encodings the client accepts (`Accept-Encoding`, weights above 0). */
function acceptedEncodings(acceptEncoding: string | undefined): (name: string) => boolean {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) : 1);
  }
  return (name) => (weights.get(name) ?? weights.get('*') ?? 0) > 0;
}

/** Whether `If-None-Match` names this ETag (weak comparison, as GET revalidation uses). */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

export interface SnapshotRouteDeps {
  sql: Sql;
  metrics?: Metrics;
  /** The instance's snapshots; a store of its own by default. */
  snapshots?: SnapshotStore;
}

/**
 * `GET /sync/{collection}/snapshot` for the public collections (404 for the others: a personal
 * replica is small, and its answer must not be shared by caches). Like every sync request it must
 * name the protocol version (426 otherwise).
 */
export function snapshotRoutes(deps: SnapshotRouteDeps) {
  const snapshots = deps.snapshots ?? createSnapshotStore(deps.sql);
  return new Hono<AuthEnv>().get('/sync/:collection/snapshot', async (c) => {
    const sent = c.req.header(SYNC_VERSION_HEADER);
    if (sent !== String(SYNC_PROTOCOL_VERSION)) {
      throw new AppError(ErrorCode.UpgradeRequired, SYNC_UPDATE_REQUIRED_MESSAGE, {
        required: SYNC_PROTOCOL_VERSION,
        sent: sent ?? null,
      });
    }
    const parsed = SyncCollectionNameSchema.safeParse(c.req.param('collection'));
    if (!parsed.success || !hasSnapshot(parsed.data))
      throw new AppError(ErrorCode.NotFound, `No snapshot of ${c.req.param('collection')}`);
    const collection = parsed.data;
    deps.metrics?.syncRequests.inc({ collection, operation: 'snapshot' });
    const snapshot = await snapshots.get(collection);
    const headers: Record<string, string> = {
      'Cache-Control': `public, max-age=${MAX_AGE_SECONDS}`,
      ETag: snapshot.etag,
      Vary: `Accept-Encoding, ${SYNC_VERSION_HEADER}`,
    };
    if (matchesEtag(c.req.header('if-none-match'), snapshot.etag))
      return c.body(null, 304, headers);
    // Brotli where it is accepted and made, else gzip; without either, the body as it is.
    const accepts = acceptedEncodings(c.req.header('accept-encoding'));
    const encoding = accepts('br') && snapshot.br ? 'br' : accepts('gzip') ? 'gzip' : null;
    const body =
      encoding === 'br'
        ? snapshot.br!
        : encoding === 'gzip'
          ? snapshot.gzip
          : await gunzip(snapshot.gzip);
    if (encoding) headers['Content-Encoding'] = encoding;
    headers['Content-Type'] = SNAPSHOT_CONTENT_TYPE;
    headers['Content-Length'] = String(body.length);
    // zlib's buffers are backed by plain ArrayBuffers.
    return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
  });
}
