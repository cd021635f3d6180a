import { randomUUID } from 'node:crypto';
import type { Sql } from '../db/client.ts';
import type { Logger } from './logger.ts';
import type { UrgentWork } from './urgent-work.ts';

/** Where instances say that their urgent work (a checkout) started or ended. */
export const URGENT_CHANNEL = 'skyport_urgent';

export interface UrgentSignal {
  /** Stops telling and listening (shutdown). */
  close(): Promise<void>;
}

/**
 * Shares `urgent` with the other instances on the same database, so that their sync pushes step
 * back for this instance's checkouts and this instance's for theirs: a checkout's round trips
 * compete with every instance's push transactions for PostgreSQL's cores, not only its own
 * instance's (docs/decisions/024-urgent-work-cluster-wide.md).
 *
 * Each change of this instance's state goes out as a notification `<instance> 1|0` on
 * `URGENT_CHANNEL`, one statement at a time and in order: a change made while one is in flight is
 * sent after it, and changes that cancel out meanwhile are not sent at all. So an instance sends at
 * most one statement at a time however many checkouts it runs, and none while its state stays.
 * What the others hear goes to their `UrgentWork.elsewhere`, which believes a start for at most
 * `URGENT_WAIT_MAX_MS`: a lost notice, a failed send or a dead instance costs a push that much
 * waiting, never more.
 */
export function shareUrgentWork(
  urgent: UrgentWork,
  sql: Sql,
  logger: Logger,
  instance: string = randomUUID(),
): UrgentSignal {
  /** What the others were last told (or, after a failed send, what they were meant to be). */
  let told = false;
  let sending: Promise<void> | undefined;
  let closed = false;

  function tellIfChanged(): void {
    if (sending || closed || urgent.runningHere === told) return;
    const running = urgent.runningHere;
    sending = sql`SELECT pg_notify(${URGENT_CHANNEL}, ${`${instance} ${running ? 1 : 0}`})`
      .then(
        () => undefined,
        (error: unknown) => logger.warn({ err: error }, 'urgent work notice failed'),
      )
      .finally(() => {
        // Not retried: the others forget a start on their own, and the next change goes out.
        told = running;
        sending = undefined;
        tellIfChanged();
      });
  }
  const stopTelling = urgent.onChangeHere(tellIfChanged);

  const listening = sql
    .listen(URGENT_CHANNEL, (payload) => {
      const [source, state] = payload.split(' ');
      if (!source || source === instance) return;
      urgent.elsewhere(source, state === '1');
    })
    .catch((error: unknown) => {
      logger.warn({ err: error }, 'urgent work notices: LISTEN failed');
      return undefined;
    });

  return {
    async close() {
      closed = true;
      stopTelling();
      await sending;
      await (await listening)?.unlisten();
    },
  };
}
