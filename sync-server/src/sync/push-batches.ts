import { setImmediate } from 'node:timers/promises';
import type { Sql } from '../db/client.ts';
import { inPipelinedTransaction } from '../db/pipelined-transaction.ts';
import type { Slots } from '../lib/urgent-work.ts';

/**
 * Group commit of sync pushes (docs/decisions/023-push-group-commit.md).
 *
 * A push to favourites, cart or preferences is one call of `sync_push` (decision 019; its answer
 * names the rows it did not write, decision 027). Pushes that wait for a slot (push.ts: the
 * instance's push slots) are sent together when one frees: one transaction for the batch, its
 * partition locks taken first in one order (`lock_partitions`, 021 migration), then each push's
 * call in arrival order, then one `COMMIT`. PostgreSQL pays one transaction, one commit record and
 * one round trip per batch instead of per push, and this process one `BEGIN`/`COMMIT` and one
 * socket write. A push that finds a slot free at once is a batch of one: the same transaction as
 * before.
 *
 * Every push keeps its own outcome: `sync_push` refuses a push by writing nothing of it and
 * answering, never by raising. If a statement fails anyway (a row a table refuses, a deadlock, a
 * lost connection), the whole batch rolled back and each of its pushes is run again alone, in
 * order, so a failure is one push's answer and never its neighbours'.
 */

/** A push ready for `sync_push`: its rows already in the function's shape (push.ts). */
export interface BatchedPush {
  collection: 'favourites' | 'cart' | 'preferences';
  partition: string;
  /** `sync_push`'s `rows` argument. */
  rows: readonly object[];
  perRow: boolean;
}

/** What `sync_push` decided for one push: the rows it did not write, and why. */
export interface BatchedAnswer {
  refused: string[];
  conflicts: string[];
  /**
   * The revision each accepted row has after the push (024 migration; absent when the push was
   * refused whole).
   */
  revisions?: Record<string, number>;
}

export interface BatchLimits {
  /** Pushes in one transaction at most. */
  pushes: number;
  /** Rows in one transaction at most (a push carries up to `PUSH_MAX_ROWS`; one always goes). */
  rows: number;
}

/** About 10 ms of PostgreSQL time per batch here; a partition lock is held no longer than that. */
export const DEFAULT_BATCH_LIMITS: BatchLimits = { pushes: 32, rows: 400 };

/**
 * One answer per turn of the event loop: what each push does with its answer (the HTTP response)
 * then alternates with other I/O, such as a checkout's next round trip, instead of a batch's
 * answers holding the loop for all of them at once.
 */
async function handBack(batch: readonly Waiting[], answers: readonly BatchedAnswer[]) {
  for (const [index, waiting] of batch.entries()) {
    waiting.resolve(answers[index]!);
    await setImmediate();
  }
}

interface Waiting {
  push: BatchedPush;
  resolve: (answer: BatchedAnswer) => void;
  reject: (error: unknown) => void;
}

export class PushBatches {
  readonly #sql: Sql;
  readonly #limits: BatchLimits;
  /** Whether the batch's transaction says `skyport.announce = after_commit` (announcer.ts). */
  readonly #announceAfterCommit: boolean;
  #waiting: Waiting[] = [];

  constructor(sql: Sql, announceAfterCommit: boolean, limits: BatchLimits = DEFAULT_BATCH_LIMITS) {
    this.#sql = sql;
    this.#announceAfterCommit = announceAfterCommit;
    this.#limits = limits;
  }

  /** Runs `push` in the next batch that a slot of `slots` starts. */
  run(push: BatchedPush, slots: Slots): Promise<BatchedAnswer> {
    return new Promise<BatchedAnswer>((resolve, reject) => {
      this.#waiting.push({ push, resolve, reject });
      // One slot request per push: when it comes, its push may already have gone with an
      // earlier batch, and the slot is handed on at once.
      void slots(() => this.#sendWaiting());
    });
  }

  async #sendWaiting(): Promise<void> {
    const batch = this.#take();
    if (batch.length === 0) return;
    try {
      const answers = await this.#transaction(batch.map((waiting) => waiting.push));
      void handBack(batch, answers);
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // Nothing of the batch was kept (or, if the connection was lost at COMMIT, perhaps all of
      // it: a push run again then finds its own rows, and the answer names them as they stand).
      // Each push again on its own, with its own answer.
      for (const waiting of batch) {
        try {
          const [answer] = await this.#transaction([waiting.push]);
          waiting.resolve(answer!);
        } catch (alone) {
          waiting.reject(alone);
        }
      }
    }
  }

  /** The oldest waiting pushes, as many as the limits allow (at least one). */
  #take(): Waiting[] {
    let rows = 0;
    let count = 0;
    for (const waiting of this.#waiting) {
      rows += waiting.push.rows.length;
      if (count > 0 && (count === this.#limits.pushes || rows > this.#limits.rows)) break;
      count++;
    }
    const batch = this.#waiting.slice(0, count);
    this.#waiting = this.#waiting.slice(count);
    return batch;
  }

  /** One transaction, one round trip: the locks, each push's call, `COMMIT`. */
  #transaction(pushes: readonly BatchedPush[]): Promise<BatchedAnswer[]> {
    const partitions = [...new Set(pushes.map((push) => push.partition))];
    return inPipelinedTransaction(this.#sql, async (tx, commit) => {
      const [, , answers] = await Promise.all([
        this.#announceAfterCommit && tx`SET LOCAL skyport.announce = after_commit`.execute(),
        // Each `sync_push` takes its own lock again (a no-op then); a batch of one needs no more.
        partitions.length > 1 && tx`SELECT lock_partitions(${partitions})`.execute(),
        Promise.all(
          pushes.map(async (push) => {
            const [row] = await tx<{ outcome: BatchedAnswer }[]>`
              SELECT sync_push(${push.collection}, ${push.partition},
                ${tx.json(push.rows as never)}, ${push.perRow}) AS outcome`.execute();
            return row!.outcome;
          }),
        ),
        commit(),
      ]);
      return answers;
    });
  }
}
