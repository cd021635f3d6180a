import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import { pullResponseSchema, type ReplicationCheckpoint } from '@skyport/shared';
import type { CatalogueReplica, PulledFlight } from '../db/catalogue-replica.ts';
import { SyncHttpError, syncRequest, type SyncTransport } from './http.ts';
import { PULL_BATCH, pullPath } from './pull-request.ts';
import { backoffMs, DEFAULT_RETRY, type RetryPolicy, type StreamedChanges } from './replication.ts';
import type { SyncStatusStore } from './status.ts';

/**
 * The catalogue's replication into its own replica (db/catalogue-replica.ts; docs/decisions/031-
 * catalogue-replica-outside-rxdb.md). The device only ever takes the server's flights, so this is
 * RxDB's downstream alone, in the same protocol as every collection (docs/architecture.md §4.1):
 *
 * - One tab of the browser pulls: the RxDB database's leader, which runs the other replications
 *   too (`databaseLeadership`). The others read the replica and hear of its changes from it.
 * - A replica without a checkpoint is emptied and gets the snapshot first (`loadSnapshot`, which
 *   writes it with its checkpoint), then the pulls go on from its checkpoint, `PULL_BATCH` flights
 *   at a time, until a short batch: caught up. Each batch and the checkpoint it reaches are one
 *   write.
 * - Live changes come from the engine's one stream (`stream`). While caught up, an event further
 *   than the checkpoint is written as it is; one that comes during pulls is not (its flights
 *   may be older than those pulled meanwhile): the pulls go on once more instead. A `'RESYNC'`
 *   (every stream connection starts with one), `reSync()` (back online) and a failed write also
 *   make it pull.
 * - A failed pull is retried after the engine's backoff (replication.ts `backoffMs`), at once on
 *   `reSync()`, and reported to the sync status like every collection's.
 */

const COLLECTION = 'flights';

/** What the sync engine and the screens use of a replication (a part of RxDB's state's API). */
export interface CatalogueReplicationState {
  /** Whether it is pulling or writing now. */
  readonly active$: Observable<boolean>;
  /** Each failed pull or write. */
  readonly error$: Observable<unknown>;
  /** Resolves once the replica has caught up with the server (in this tab, or another's). */
  awaitInitialReplication(): Promise<void>;
  /** Resolves once nothing is left to pull or write (now; in another tab's lead, caught up once). */
  awaitInSync(): Promise<true>;
  /** Pulls now (back online): the wait after a failure ends. */
  reSync(): void;
  cancel(): Promise<void>;
}

export interface CatalogueReplication {
  readonly collection: typeof COLLECTION;
  readonly state: CatalogueReplicationState;
  /** Live changes and 'RESYNC' signals, fed by the engine's event stream. */
  readonly stream: Subject<StreamedChanges | 'RESYNC'>;
}

export interface CatalogueReplicationContext {
  transport: SyncTransport;
  status: SyncStatusStore;
  retry?: RetryPolicy;
  /** Flights per pull; `PULL_BATCH`'s by default. */
  batchSize?: number;
  /**
   * Writes the server's snapshot into the (empty) replica, with its checkpoint; false when there
   * is none or it failed (the pulls then do it all).
   */
  loadSnapshot?: () => Promise<boolean>;
  /**
   * Called when this tab needs no snapshot asked for in advance (its download stops): the replica
   * has a checkpoint, or another tab leads.
   */
  skipSnapshot?: () => void;
  /**
   * The answer to the pull from no checkpoint, asked for before the data layer loaded
   * (pull-request.ts `requestFirstPull`); used by the first pull if it starts from nothing.
   */
  firstPull?: Promise<unknown>;
  /** Who pulls; by default this tab (the engine passes `databaseLeadership`). */
  leadership?: Leadership;
}

/**
 * Runs `lead` while this tab is the one that pulls, until `signal` aborts; calls `follow` first
 * if another tab leads now.
 */
export type Leadership = (
  signal: AbortSignal,
  lead: () => Promise<void>,
  follow: () => void,
) => Promise<void>;

/** Whether position `a` is after position `b` (docs/architecture.md §4.1: `(tx, revision)`). */
export function isAfter(a: ReplicationCheckpoint, b: ReplicationCheckpoint | null): boolean {
  if (b === null) return true;
  const [txA, txB] = [a.tx ?? 0, b.tx ?? 0];
  return txA !== txB ? txA > txB : a.revision > b.revision;
}

/** What `databaseLeadership` uses of the RxDB database (RxDB's leader-election plugin). */
export interface ElectedDatabase {
  readonly multiInstance: boolean;
  leaderElector(): {
    readonly isLeader: boolean;
    awaitLeadership(): Promise<void>;
    /** Whether this tab or another one leads. */
    hasLeader(): Promise<boolean>;
  };
}

/**
 * The RxDB database's leader: the tab that runs the replications of the user's collections pulls
 * the catalogue too, so one tab of the browser leads both (RxDB's elector holds a Web Lock until
 * its database closes; the next tab waiting takes it then). A database of one tab only leads.
 */
export function databaseLeadership(db: ElectedDatabase): Leadership {
  return async (signal, lead, follow) => {
    if (!db.multiInstance) return lead();
    const elector = db.leaderElector();
    const elected = elector.awaitLeadership();
    // A lock held and not by this tab: another one leads now (its snapshot is not this tab's).
    if (!elector.isLeader && (await elector.hasLeader()) && !elector.isLeader) follow();
    await Promise.race([
      elected,
      new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true })),
    ]);
    if (!signal.aborted) await lead();
  };
}

export function startCatalogueReplication(
  replica: CatalogueReplica,
  context: CatalogueReplicationContext,
): CatalogueReplication {
  const { transport, status } = context;
  const retry = context.retry ?? DEFAULT_RETRY;
  const responseSchema = pullResponseSchema(COLLECTION);
  const batchSize = context.batchSize ?? PULL_BATCH[COLLECTION];
  const stream = new Subject<StreamedChanges | 'RESYNC'>();
  const active$ = new BehaviorSubject(false);
  const error$ = new Subject<unknown>();
  const stop = new AbortController();
  let firstPull = context.firstPull;
  // Used by the first pull or dropped; its failure is that pull's to report, when it is used.
  firstPull?.catch(() => undefined);

  let checkpoint: ReplicationCheckpoint | null = null;
  let leading = false;
  let pulling = false;
  /** The pulls must run (again) before anything else. */
  let mustPull = true;
  /** Live changes that came while caught up, in order. */
  const events: StreamedChanges[] = [];
  let failures = 0;
  /** Whether there is work since the loop last looked (it does not wait then). */
  let woken = false;
  let endWait: (() => void) | undefined;
  /** Ends the wait of the loop (idle, or after a failure), or the next one if it is busy. */
  const wake = () => {
    woken = true;
    endWait?.();
  };

  let caughtUp!: () => void;
  const initial = new Promise<void>((resolve) => (caughtUp = resolve));
  /** Waiters for the loop to be idle. */
  let idleWaiters: (() => void)[] = [];
  let idle = false;

  const streamed = stream.subscribe((item) => {
    if (item === 'RESYNC') mustPull = true;
    else if (!leading) return;
    else if (pulling) mustPull = true;
    else events.push(item);
    wake();
  });

  /** Another tab leads: caught up as soon as the replica has a checkpoint. */
  let following = false;
  const followed = replica.changes$.subscribe(() => void checkFollowed().catch(() => undefined));
  async function checkFollowed() {
    if (following && !leading && (await replica.checkpoint()) !== null) caughtUp();
  }
  function follow() {
    following = true;
    context.skipSnapshot?.();
    void checkFollowed().catch(() => undefined);
  }

  function failed(error: unknown) {
    failures += 1;
    error$.next(error);
    const known = error instanceof SyncHttpError ? error : undefined;
    status.reportError(COLLECTION, {
      message: error instanceof Error ? error.message : String(error),
      offline: known?.offline ?? false,
      updateRequired: known?.updateRequired ?? false,
    });
  }

  function succeeded() {
    failures = 0;
    status.reportSuccess(COLLECTION);
  }

  function waitForWork(ms?: number): Promise<void> {
    if (woken || stop.signal.aborted) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        endWait = undefined;
        woken = false;
        resolve();
      };
      const timer = ms === undefined ? undefined : setTimeout(end, ms);
      endWait = end;
    });
  }

  async function write(documents: readonly PulledFlight[], reached: ReplicationCheckpoint | null) {
    await replica.apply(documents, reached ?? undefined);
    checkpoint = reached;
    status.reportPulled(COLLECTION);
  }

  /** Pulls until a short batch. */
  async function pullAll() {
    pulling = true;
    try {
      for (;;) {
        const prefetched = checkpoint === null && batchSize === PULL_BATCH[COLLECTION];
        const answer = prefetched ? await firstPull?.catch(() => undefined) : undefined;
        firstPull = undefined;
        const body = responseSchema.parse(
          answer ??
            (await syncRequest(
              transport,
              pullPath(COLLECTION, checkpoint ?? undefined, batchSize),
            )),
        );
        if (stop.signal.aborted) return;
        await write(body.documents as PulledFlight[], body.checkpoint ?? checkpoint);
        succeeded();
        if (body.documents.length < batchSize) return;
      }
    } finally {
      pulling = false;
    }
  }

  async function lead() {
    leading = true;
    following = false;
    /** Where the replica is, read when this tab starts to lead (another may have pulled). */
    let started = false;
    try {
      while (!stop.signal.aborted) {
        idle = false;
        active$.next(true);
        try {
          if (!started) {
            checkpoint = await replica.checkpoint();
            if (checkpoint !== null) context.skipSnapshot?.();
            else {
              // Nothing pulled yet, or a snapshot broken off: its flights may since be deleted.
              await replica.clear();
              const loaded = context.loadSnapshot
                ? await context.loadSnapshot().catch(() => false)
                : false;
              // A snapshot that failed may have left some of its flights: the pulls start clean.
              if (loaded) checkpoint = await replica.checkpoint();
              else await replica.clear();
            }
            started = true;
          }
          if (mustPull) {
            mustPull = false;
            events.length = 0;
            await pullAll();
            caughtUp();
          }
          while (events.length > 0 && !mustPull && !stop.signal.aborted) {
            const event = events.shift()!;
            if (isAfter(event.checkpoint, checkpoint))
              await write(event.documents as unknown as PulledFlight[], event.checkpoint);
          }
        } catch (error) {
          mustPull = true;
          failed(error);
          active$.next(false);
          await waitForWork(backoffMs(retry, failures));
          continue;
        }
        if (mustPull || events.length > 0) continue;
        idle = true;
        active$.next(false);
        for (const waiter of idleWaiters) waiter();
        idleWaiters = [];
        await waitForWork();
      }
    } finally {
      leading = false;
      active$.next(false);
    }
  }

  const leadership: Leadership = context.leadership ?? ((_signal, lead) => lead());
  const running = leadership(stop.signal, lead, follow).catch((error: unknown) => failed(error));

  const state: CatalogueReplicationState = {
    active$: active$.asObservable(),
    error$: error$.asObservable(),
    awaitInitialReplication: () => initial,
    async awaitInSync() {
      await initial;
      if (leading && !(idle && !mustPull && events.length === 0))
        await new Promise<void>((resolve) => idleWaiters.push(resolve));
      return true;
    },
    reSync() {
      mustPull = true;
      wake();
    },
    async cancel() {
      stop.abort();
      wake();
      streamed.unsubscribe();
      followed.unsubscribe();
      await running;
      for (const waiter of idleWaiters) waiter();
      idleWaiters = [];
      active$.complete();
      error$.complete();
    },
  };

  return { collection: COLLECTION, state, stream };
}
