import { SYNC_STREAM_EVENTS, type SyncCollectionName } from '@skyport/shared';
import type { ChangeListener } from './change-feed.ts';

/** The bytes of the sync streams' Server-Sent Events, each encoded once for every stream. */

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

/**
 * Why a stream ends: the client left (`aborted`), the instance drains, the client does not read
 * (`overflow`: too much waiting; `stalled`: a write not taken in time), its session ended or
 * expired, its user lost access to a partition, the check of that failed, or the database failed
 * while the stream was set up (`error`).
 */
export type EndReason =
  | 'aborted'
  | 'draining'
  | 'overflow'
  | 'stalled'
  | 'session'
  | 'expired'
  | 'access'
  | 'check-failed'
  | 'error';

const frame = (text: string): Buffer => Buffer.from(text, 'utf8');

export const RESYNC_FRAME = frame(`event: ${SYNC_STREAM_EVENTS.resync}\ndata: {}\n\n`);
export const HEARTBEAT_FRAME = frame(': heartbeat\n\n');
const DRAIN_FRAME = frame(`retry: ${DRAIN_RECONNECT_MS}\n\n`);
const SLOW_READER_FRAME = frame(
  `: too far behind; reconnect and pull\nretry: ${SLOW_READER_RECONNECT_MS}\n\n`,
);

/** The last word of a stream, by why it ends (none: the client left, or the socket is cut). */
export const FINAL_FRAMES: Partial<Record<EndReason, Buffer>> = {
  draining: DRAIN_FRAME,
  overflow: SLOW_READER_FRAME,
  'check-failed': SLOW_READER_FRAME,
  session: frame(`event: ${SESSION_ENDED_EVENT}\ndata: {"reason":"ended"}\n\n`),
  expired: frame(`event: ${SESSION_ENDED_EVENT}\ndata: {"reason":"expired"}\n\n`),
  access: frame(`event: ${ACCESS_ENDED_EVENT}\ndata: {"reason":"access"}\n\n`),
};

export type ChangeBatch = Parameters<ChangeListener>[0];

/**
 * The `changes` event of a feed batch, encoded once per batch (and per form: with or without the
 * collection's name) however many streams carry it: every stream's queue and socket refer to the
 * same bytes, so ten thousand readers of the flights feed cost one copy of each change and one
 * JSON.stringify. The checkpoint is passed through as the feed made it (its fields are the feed's).
 */
const changeFrames = new WeakMap<ChangeBatch, { plain?: Buffer; named?: Buffer }>();
export function changesFrame(
  batch: ChangeBatch,
  collection: SyncCollectionName | undefined,
): Buffer {
  let cached = changeFrames.get(batch);
  if (!cached) {
    cached = {};
    changeFrames.set(batch, cached);
  }
  const key = collection ? 'named' : 'plain';
  let bytes = cached[key];
  if (!bytes) {
    const data = JSON.stringify(collection ? { collection, ...batch } : batch);
    // JSON has no raw line breaks, so the data is one `data:` line.
    bytes = frame(`event: ${SYNC_STREAM_EVENTS.changes}\ndata: ${data}\n\n`);
    cached[key] = bytes;
  }
  return bytes;
}
