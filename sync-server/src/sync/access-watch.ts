import type { Sql } from '../db/client.ts';
import type { Logger } from '../lib/logger.ts';

/**
 * The channel the 007 migration's triggers notify on, with a user's id as the payload, whenever
 * one of that user's sessions ends or what the user may read changes ('*': check everyone).
 */
export const ACCESS_CHANNEL = 'skyport_access';

/**
 * Tells an instance's sync streams when their session or their user's access may have changed,
 * through PostgreSQL LISTEN/NOTIFY, so that a logout through one instance ends the user's
 * streams on every instance. A notification only says "check again": the stream asks the
 * database whether its session is still live and still grants what it carries.
 *
 * It uses the pool's one LISTEN connection (postgres.js shares it with the change feed). After that
 * connection comes back from a loss, every watcher checks once: notifications sent meanwhile are
 * lost.
 */
export interface AccessWatch {
  /**
   * Calls `onChange` whenever a change for `userId` commits, from the moment the returned promise
   * resolves (the caller checks once itself after that, to cover what committed just before).
   * Returns the function that stops watching.
   */
  watch(userId: string, onChange: () => void): Promise<() => void>;
  /** Stops listening (the database handle stays open). */
  close(): Promise<void>;
}

export function createAccessWatch(sql: Sql, logger: Logger): AccessWatch {
  const watchers = new Map<string, Set<() => void>>();

  const notifyAll = () => {
    for (const set of watchers.values()) for (const onChange of set) onChange();
  };

  function onNotify(payload: string): void {
    if (payload === '*') {
      notifyAll();
      return;
    }
    const set = watchers.get(payload);
    if (set) for (const onChange of set) onChange();
  }

  let listens = 0;
  let listening: Promise<{ unlisten: () => Promise<void> }> | undefined;
  function ensureListening(): Promise<unknown> {
    listening ??= sql
      .listen(ACCESS_CHANNEL, onNotify, () => {
        // The first call is the first LISTEN; later ones follow a reconnect.
        listens += 1;
        if (listens > 1) {
          logger.warn('access notifications resumed after a reconnect: checking every stream');
          notifyAll();
        }
      })
      .catch((error: unknown) => {
        listening = undefined;
        throw error;
      });
    return listening;
  }

  return {
    async watch(userId, onChange) {
      await ensureListening();
      let set = watchers.get(userId);
      if (!set) {
        set = new Set();
        watchers.set(userId, set);
      }
      set.add(onChange);
      const joined = set;
      return () => {
        joined.delete(onChange);
        if (joined.size === 0 && watchers.get(userId) === joined) watchers.delete(userId);
      };
    },
    async close() {
      watchers.clear();
      const current = listening;
      listening = undefined;
      if (current) await (await current).unlisten();
    },
  };
}
