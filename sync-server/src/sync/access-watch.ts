import { randomUUID } from 'node:crypto';
import type { Sql } from '../db/client.ts';
import type { SessionChangeSource } from '../features/identity/session-cache.ts';
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
/**
 * While someone asks how fresh the notifications are (`deliveredUpTo`), the instance notifies
 * itself on the channel this often (`ping:<instance>:<n>`), and stops after `PING_IDLE_MS`
 * without a question. Notifications reach a listener in commit order, so receiving its own ping
 * proves that every change committed before the ping was sent has been received.
 */
export const ACCESS_PING_MS = 100;
const PING_IDLE_MS = 5_000;
const PING_PREFIX = 'ping:';

export interface AccessWatch extends SessionChangeSource {
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
  /** `onChange` listeners (the session cache): every user's changes. */
  const everyone = new Set<(userId: string) => void>();

  const notifyAll = () => {
    for (const listener of everyone) listener('*');
    for (const set of watchers.values()) for (const onChange of set) onChange();
  };

  // Delivery proofs: this instance's pings, by number, with the time each was sent.
  const instance = randomUUID();
  const pingPrefix = `${PING_PREFIX}${instance}:`;
  const pingsSent = new Map<number, number>();
  let pingNumber = 0;
  let deliveredUpTo: number | undefined;
  let pinger: NodeJS.Timeout | undefined;
  let pingInFlight = false;
  let askedAt = 0;
  let closed = false;

  function onPing(payload: string): void {
    if (!payload.startsWith(pingPrefix)) return; // another instance's
    const number = Number(payload.slice(pingPrefix.length));
    const sentAt = pingsSent.get(number);
    if (sentAt === undefined) return;
    for (const earlier of pingsSent.keys()) if (earlier <= number) pingsSent.delete(earlier);
    deliveredUpTo = Math.max(deliveredUpTo ?? sentAt, sentAt);
  }

  function ping(): void {
    if (performance.now() - askedAt > PING_IDLE_MS) {
      clearInterval(pinger);
      pinger = undefined;
      return;
    }
    // One at a time: a slow pool must not pile pings up (delivery just looks older meanwhile).
    if (!listening) {
      ensureListening().then(ping, (error: unknown) =>
        logger.warn({ err: error }, 'access notifications: LISTEN failed'),
      );
      return;
    }
    if (pingInFlight) return;
    pingInFlight = true;
    const number = ++pingNumber;
    pingsSent.set(number, performance.now());
    // Pings that never came back (the LISTEN connection is down) are forgotten, oldest first.
    if (pingsSent.size > 50) pingsSent.delete(pingsSent.keys().next().value!);
    sql`SELECT pg_notify(${ACCESS_CHANNEL}, ${pingPrefix + number})`
      .catch((error: unknown) => {
        pingsSent.delete(number);
        logger.warn({ err: error }, 'access ping failed');
      })
      .finally(() => {
        pingInFlight = false;
      });
  }

  function onNotify(payload: string): void {
    if (payload.startsWith(PING_PREFIX)) {
      onPing(payload);
      return;
    }
    if (payload === '*') {
      notifyAll();
      return;
    }
    for (const listener of everyone) listener(payload);
    const set = watchers.get(payload);
    if (set) for (const onChange of set) onChange();
  }

  let listens = 0;
  let listening: Promise<{ unlisten: () => Promise<void> }> | undefined;
  function ensureListening(): Promise<unknown> {
    listening ??= sql
      .listen(ACCESS_CHANNEL, onNotify, () => {
        // The first call is the first LISTEN; later ones follow a reconnect. Either way
        // nothing proves what was delivered before it: the session cache starts over.
        listens += 1;
        deliveredUpTo = undefined;
        pingsSent.clear();
        if (listens > 1) {
          logger.warn('access notifications resumed after a reconnect: checking every stream');
          notifyAll();
        } else {
          for (const listener of everyone) listener('*');
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
    onChange(listener) {
      everyone.add(listener);
      return () => everyone.delete(listener);
    },
    deliveredUpTo() {
      if (closed) return undefined;
      askedAt = performance.now();
      if (!pinger) {
        pinger = setInterval(ping, ACCESS_PING_MS);
        pinger.unref();
        ping();
      }
      return deliveredUpTo;
    },
    async close() {
      closed = true;
      clearInterval(pinger);
      pinger = undefined;
      deliveredUpTo = undefined;
      watchers.clear();
      const current = listening;
      listening = undefined;
      if (current) await (await current).unlisten();
    },
  };
}
