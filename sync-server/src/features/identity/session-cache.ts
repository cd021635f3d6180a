import type { Sql } from '../../db/client.ts';
import { findSessionByHash, type LiveSession } from './sessions.ts';
import { hashTokenBase64, isWellFormedToken } from './tokens.ts';

/**
 * Where a session cache learns that sessions or users changed: the instance's LISTEN on the
 * access channel (sync/access-watch.ts implements it), which the 007 and 015 migrations' triggers
 * notify in the changing transaction, so at its commit.
 */
export interface SessionChangeSource {
  /**
   * Calls `listener` with a user's id for every committed change of that user's sessions or
   * access, and with '*' when every user must be checked again (all sessions truncated, or the
   * LISTEN connection came back after a loss, during which notifications were lost).
   */
  onChange(listener: (userId: string) => void): () => void;
  /**
   * The time (`performance.now()`) up to which every committed change is known to have been
   * delivered to `onChange`, or undefined when unknown (not listening, or the connection is
   * down). Asking keeps it fresh: the source proves delivery by notifying itself while asked.
   */
  deliveredUpTo(): number | undefined;
}

export interface SessionCacheOptions {
  /**
   * The longest time a revoked session (logout, password change, disabled account, changed role
   * or airline) may still be accepted: an entry is used only while every change committed more
   * than this long ago is known to have been delivered. Normally a revocation arrives within a
   * few milliseconds and drops the entry at once; this bounds the case of a slow or lost LISTEN
   * connection, when lookups go to the database instead.
   */
  maxStalenessMs?: number;
  /**
   * An entry is read again from the database after this long even when nothing notified it (a
   * change no trigger covers, and the clock difference at a session's expiry, are never older
   * than this). Every field of the user kept here notifies when it changes (007, 015 and 022
   * migrations).
   */
  entryTtlMs?: number;
  /** Entries kept at most (the oldest go first). */
  maxEntries?: number;
}

export const SESSION_CACHE_DEFAULTS = {
  maxStalenessMs: 500,
  entryTtlMs: 30_000,
  maxEntries: 20_000,
} as const;

interface Entry {
  found: LiveSession;
  userId: string;
  /** When it was read (`performance.now()`), for `entryTtlMs`. */
  readAt: number;
}

export interface SessionCache {
  /** The live session and user a token stands for (cached, or read), or undefined. */
  find(token: string): Promise<LiveSession | undefined>;
  /** Lookups answered from the cache and from the database, since the cache was made. */
  stats(): { hits: number; misses: number; bypassed: number; entries: number };
}

/**
 * A per-instance cache of session lookups (`findSession`), for the sync requests that every
 * signed-in device makes many times a minute: a push then costs no session query.
 *
 * Correctness (docs/decisions/018-push-throughput.md):
 * - Every way a session ends or its user's access changes notifies the access channel at commit
 *   (triggers, so no code path can forget it); the notification drops that user's entries on
 *   every instance. '*' (and a LISTEN reconnect) drops all of them.
 * - A lookup that was in flight when any change arrived is not stored (a generation counter): its
 *   snapshot may predate the change, whose notification has already passed.
 * - An entry is used only while the change source proves that every change committed more than
 *   `maxStalenessMs` ago has been delivered; otherwise (no LISTEN, a lost or slow connection) the
 *   lookup goes to the database. So a revoked session is accepted at most `maxStalenessMs` after
 *   its revocation commits, whatever happens to the notifications.
 * - Expired sessions are refused from the cache too; unknown tokens are never cached.
 */
export function createSessionCache(
  sql: Sql,
  source: SessionChangeSource,
  options: SessionCacheOptions & {
    /** How a token's hash is looked up; default `findSessionByHash` on `sql`. */
    lookup?: (tokenHash: Buffer) => Promise<LiveSession | undefined>;
  } = {},
): SessionCache {
  const lookup = options.lookup ?? ((tokenHash: Buffer) => findSessionByHash(sql, tokenHash));
  const { maxStalenessMs, entryTtlMs, maxEntries } = { ...SESSION_CACHE_DEFAULTS, ...options };
  const entries = new Map<string, Entry>();
  const keysOfUser = new Map<string, Set<string>>();
  let generation = 0;
  let hits = 0;
  let misses = 0;
  let bypassed = 0;

  function drop(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    const keys = keysOfUser.get(entry.userId);
    keys?.delete(key);
    if (keys?.size === 0) keysOfUser.delete(entry.userId);
  }

  source.onChange((userId) => {
    generation += 1;
    if (userId === '*') {
      entries.clear();
      keysOfUser.clear();
      return;
    }
    for (const key of keysOfUser.get(userId) ?? []) entries.delete(key);
    keysOfUser.delete(userId);
  });

  function store(key: string, found: LiveSession, readAt: number): void {
    drop(key);
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next();
      if (!oldest.done) drop(oldest.value);
    }
    entries.set(key, { found, userId: found.user.id, readAt });
    let keys = keysOfUser.get(found.user.id);
    if (!keys) {
      keys = new Set();
      keysOfUser.set(found.user.id, keys);
    }
    keys.add(key);
  }

  return {
    async find(token) {
      if (!isWellFormedToken(token)) return undefined;
      // The token's hash in base64 is the key; its bytes are made only for a database read.
      const key = hashTokenBase64(token);
      const now = performance.now();
      const delivered = source.deliveredUpTo();
      // Security: only while every revocation older than the bound is known to have arrived.
      const trusted = delivered !== undefined && now - delivered <= maxStalenessMs;
      const entry = entries.get(key);
      if (entry && trusted) {
        if (
          now - entry.readAt <= entryTtlMs &&
          entry.found.session.expiresAt.getTime() > Date.now()
        ) {
          hits += 1;
          return entry.found;
        }
        drop(key);
      }
      if (trusted) misses += 1;
      else bypassed += 1;
      const started = generation;
      const found = await lookup(Buffer.from(key, 'base64'));
      // A change that arrived meanwhile may be newer than what this read saw: not kept.
      if (found && trusted && generation === started) store(key, found, now);
      return found;
    },
    stats: () => ({ hits, misses, bypassed, entries: entries.size }),
  };
}
