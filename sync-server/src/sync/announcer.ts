import type { Sql } from '../db/client.ts';
import type { Logger } from '../lib/logger.ts';

/** Retries of a failed announcement start after this long and double up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 50;
const RETRY_MAX_MS = 2_000;

/**
 * The notifications of committed sync pushes, sent after their transactions (the 018 migration,
 * docs/decisions/021-announce-after-commit.md).
 *
 * A push's transaction says `skyport.announce = after_commit`, so its row triggers skip pg_notify
 * and its commit never queues on PostgreSQL's notification lock. Once it has committed, the push
 * hands its payload (`<table>:<partition>`, what the trigger would have sent) to the instance's
 * announcer. The announcer sends what is waiting in one statement of its own, one at a time:
 * payloads that arrive meanwhile wait for the next, and repeats of a payload go once. Under a
 * storm that is a notification transaction per round trip per instance, not one per push.
 *
 * Delivery is what a notification at commit gave, a few hundred microseconds later: every
 * listening instance's change feed is woken and reads the rows past its cursor. A failed send is
 * retried with the same payloads until it goes through. What a crash of this instance between a
 * push's commit and its announcement loses is the wake-up, not the change: the rows are committed
 * and are read by the next pull, stream reconnect or notification of the same partition (the
 * feeds treat a lost notification the same way, change-feed.ts).
 */
export interface Announcer {
  /** Announces a committed change; returns at once. */
  announce(payload: string): void;
  /** Sends what is waiting (one last try) and stops. */
  close(): Promise<void>;
}

/** Sends a set of payloads as one notification transaction. */
export type SendAnnouncements = (payloads: string[]) => Promise<unknown>;

/** The 018 migration's function, as a statement of its own (an implicit transaction). */
export function sendWith(sql: Sql): SendAnnouncements {
  return (payloads) => sql`SELECT announce_replication_changes(${payloads}::text[])`;
}

export function createAnnouncer(send: SendAnnouncements, logger: Logger): Announcer {
  let waiting = new Set<string>();
  let sending: Promise<void> | undefined;
  let retryMs = RETRY_FIRST_MS;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  async function sendWaiting(): Promise<void> {
    while (waiting.size > 0) {
      const payloads = waiting;
      waiting = new Set();
      try {
        await send([...payloads]);
        retryMs = RETRY_FIRST_MS;
      } catch (error) {
        // Kept for the next try; a newer payload of the same partition merges with them.
        for (const payload of payloads) waiting.add(payload);
        if (closed) throw error;
        logger.warn({ err: error, retryMs }, 'sync announcement failed; retrying');
        retry = setTimeout(start, retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        return;
      }
    }
  }

  function start(): void {
    retry = undefined;
    sending = sendWaiting().finally(() => {
      sending = undefined;
    });
    sending.catch(() => undefined);
  }

  return {
    announce(payload) {
      waiting.add(payload);
      // One statement in flight at a time; a pending retry sends these too.
      if (!sending && !retry && !closed) start();
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      retry = undefined;
      await sending?.catch(() => undefined);
      if (waiting.size === 0) return;
      await sendWaiting().catch((error: unknown) =>
        logger.warn({ err: error }, 'sync announcements lost at shutdown'),
      );
    },
  };
}
