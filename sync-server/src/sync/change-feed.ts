import type { ReplicationCheckpoint, SyncCollectionName } from '@skyport/shared';
import { SYNC_COLLECTIONS } from '@skyport/shared';
import type { Sql } from '../db/client.ts';
import type { Logger } from '../lib/logger.ts';
import {
  COLLECTION_TABLES,
  selectChanges,
  selectHead,
  type ChangeBatch,
  type ReplicationPosition,
} from './documents.ts';

/** The channel the 006 migration's triggers notify on. */
export const SYNC_CHANNEL = 'skyport_sync';
/** Documents read per query while a feed catches up. */
const FEED_BATCH = 500;
/**
 * When rows wait for the replication watermark, the feed reads again after this long, doubling up
 * to HELD_BACK_MAX_MS: the transaction holding the watermark may write no replicated row, so no
 * notification would say that it ended.
 */
const HELD_BACK_FIRST_MS = 10;
const HELD_BACK_MAX_MS = 1_000;

export type ChangeListener = (batch: {
  documents: ChangeBatch<SyncCollectionName>['documents'];
  checkpoint: ReplicationCheckpoint;
  /** Each document's revision, for the collections devices push to (documents.ts). */
  revisions?: number[];
}) => void;

/**
 * Live changes for the sync streams of one server instance, fed by PostgreSQL LISTEN/NOTIFY so
 * that a write through any instance reaches the streams of every instance.
 *
 * Streams of the same collection and partition share one feed: one cursor (the position of the
 * last row it sent) and one query per wake-up, whatever the number of connected clients. A
 * notification only says "this partition changed"; the feed then reads every settled row past its
 * cursor (documents.ts: rows below the replication watermark), so reading "past the cursor" never
 * skips a row, and a lost or coalesced notification only delays rows until the next one (after a
 * reconnect of the LISTEN connection every feed reads once). Rows held back by the watermark are
 * read again shortly, without waiting for a notification.
 */
export interface ChangeFeed {
  /** Listens to a partition's changes from now on; returns the unsubscribe function. */
  subscribe(
    collection: SyncCollectionName,
    partition: string | null,
    listener: ChangeListener,
  ): Promise<() => void>;
  /** Stops listening (the database handle stays open). */
  close(): Promise<void>;
}

interface Feed {
  collection: SyncCollectionName;
  partition: string | null;
  listeners: Set<ChangeListener>;
  /** Resolves once the cursor is at the partition's head. */
  ready: Promise<void>;
  cursor: ReplicationPosition;
  running: boolean;
  dirty: boolean;
  /** The pending re-read of rows held back by the watermark, and its current delay. */
  retry?: NodeJS.Timeout;
  retryMs: number;
}

const COLLECTION_OF_TABLE = new Map<string, SyncCollectionName>(
  SYNC_COLLECTIONS.map((collection) => [COLLECTION_TABLES[collection], collection]),
);

export function createChangeFeed(sql: Sql, logger: Logger): ChangeFeed {
  const feeds = new Map<string, Feed>();
  const keyOf = (collection: SyncCollectionName, partition: string | null) =>
    `${collection}:${partition ?? ''}`;
  let closed = false;

  async function run(feed: Feed): Promise<void> {
    if (feed.running) {
      feed.dirty = true;
      return;
    }
    feed.running = true;
    clearTimeout(feed.retry);
    feed.retry = undefined;
    let heldBack = false;
    try {
      await feed.ready;
      do {
        feed.dirty = false;
        let batch: ChangeBatch<SyncCollectionName>;
        do {
          batch = await selectChanges(
            sql,
            feed.collection,
            feed.partition,
            feed.cursor,
            FEED_BATCH,
          );
          heldBack = batch.heldBack;
          if (batch.last === null) break;
          feed.cursor = { tx: batch.last.tx ?? 0, revision: batch.last.revision };
          const event = {
            documents: batch.documents,
            checkpoint: batch.last,
            ...(batch.revisions && { revisions: batch.revisions }),
          };
          for (const listener of feed.listeners) listener(event);
        } while (batch.documents.length === FEED_BATCH && !closed);
      } while (feed.dirty && !closed);
    } catch (error) {
      logger.error({ err: error, collection: feed.collection }, 'sync feed query failed');
      // The next notification retries from the same cursor.
    } finally {
      feed.running = false;
    }
    if (heldBack && !closed && feeds.get(keyOf(feed.collection, feed.partition)) === feed) {
      feed.retry = setTimeout(() => void run(feed), feed.retryMs);
      feed.retryMs = Math.min(feed.retryMs * 2, HELD_BACK_MAX_MS);
    } else {
      feed.retryMs = HELD_BACK_FIRST_MS;
    }
  }

  function onNotify(payload: string): void {
    const separator = payload.indexOf(':');
    const collection = COLLECTION_OF_TABLE.get(payload.slice(0, separator));
    if (!collection) return;
    const partition = payload.slice(separator + 1) || null;
    const feed = feeds.get(keyOf(collection, partition));
    if (feed) void run(feed);
  }

  let listening: Promise<{ unlisten: () => Promise<void> }> | undefined;
  function ensureListening(): Promise<unknown> {
    listening ??= sql.listen(SYNC_CHANNEL, onNotify, () => {
      // Called on the first LISTEN and after every reconnect: notifications sent while the
      // connection was down are lost, so every feed reads once.
      for (const feed of feeds.values()) void run(feed);
    });
    return listening;
  }

  return {
    async subscribe(collection, partition, listener) {
      await ensureListening();
      const key = keyOf(collection, partition);
      let feed = feeds.get(key);
      if (!feed) {
        const created: Feed = {
          collection,
          partition,
          listeners: new Set(),
          cursor: { tx: 0, revision: 0 },
          ready: Promise.resolve(),
          running: false,
          dirty: false,
          retryMs: HELD_BACK_FIRST_MS,
        };
        created.ready = selectHead(sql, collection, partition).then((head) => {
          created.cursor = head;
        });
        feeds.set(key, created);
        feed = created;
        // Rows committed before this feed existed but still held back by the watermark had
        // their notification already: read once now, so that the feed notices them and reads
        // again until they settle (a client's pull stopped before them).
        void run(created);
      }
      feed.listeners.add(listener);
      await feed.ready;
      const joined = feed;
      return () => {
        joined.listeners.delete(listener);
        if (joined.listeners.size === 0 && feeds.get(key) === joined) {
          feeds.delete(key);
          clearTimeout(joined.retry);
        }
      };
    },
    async close() {
      closed = true;
      for (const feed of feeds.values()) clearTimeout(feed.retry);
      feeds.clear();
      if (listening) await (await listening).unlisten();
    },
  };
}
