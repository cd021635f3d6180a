import {
  BehaviorSubject,
  Subscription,
  filter,
  firstValueFrom,
  fromEvent,
  map,
  merge,
  timer,
  type Observable,
} from 'rxjs';
import {
  SYNC_COLLECTION_INFO,
  ReplicationCheckpointSchema,
  RevisionSchema,
  SyncCollectionNameSchema,
  favouriteFromFlight,
  mergeCartLines,
  type CartDoc,
  type FavouriteDoc,
  type Role,
  type SyncCollectionName,
} from '@skyport/shared';
import { z } from 'zod';
import { clearPersonalCollections, type SkyportDatabase } from '../db/database.ts';
import type { LocalCollectionName } from '../db/layout.ts';
import {
  clearFavouriteAttempts,
  readFavouriteAttempts,
  clearPriceHistories,
  readCatalogueFreshAt,
  readGuestCart,
  readLocalTheme,
  writeCatalogueFreshAt,
  writeGuestCart,
  writeLocalTheme,
} from '../db/local-state.ts';
import type { SyncTransport } from './http.ts';
import {
  backoffMs,
  DEFAULT_RETRY,
  startCollectionReplication,
  type CollectionReplication,
  type RetryPolicy,
} from './replication.ts';
import { serverSentEvents } from './sse.ts';
import { createSyncStatusStore, type SyncStatusStore } from './status.ts';
import { createChangeTracker, type ChangeCollection, type ChangeTracker } from './change-states.ts';
import { countUnsentChanges, watchUnsentChanges } from './unsent-changes.ts';
import type { CatalogueReplica } from '../db/catalogue-replica.ts';
import {
  databaseLeadership,
  startCatalogueReplication,
  type CatalogueReplication,
} from './catalogue-replication.ts';
import { SnapshotLoad, startSnapshotLoad } from './snapshot.ts';

/** Who the session belongs to, as far as sync cares. The identity layer's `User` fits. */
export interface SyncUser {
  id: string;
  role: Role;
  airlineId: string | null;
}

export interface SyncEngineOptions {
  db: SkyportDatabase;
  /** The catalogue's replica (db/catalogue-replica.ts), which its own replication fills. */
  catalogue: CatalogueReplica;
  transport: SyncTransport;
  retry?: RetryPolicy;
  /** How long login waits for the first pull of the cart before merging the guest cart. */
  initialPullTimeoutMs?: number;
  /** Browser online/offline events; default: the window's, when there is one. */
  onlineEvents?: Observable<boolean>;
  /** Whether the browser is online now; default `navigator.onLine`. */
  initiallyOnline?: boolean;
  /** First pulls of public collections asked for in advance (pull-request.ts `requestFirstPull`). */
  firstPulls?: Partial<Record<SyncCollectionName, Promise<unknown>>>;
}

/**
 * Replication with the session (docs/architecture.md §4): the public collections (flights, airlines, reviews)
 * for everybody from `start()`; a customer's own collections (favourites, cart, preferences,
 * review drafts, orders) or an approved airline's sales from `setUser(user)` on; at logout
 * (`setUser(null)`, or another user) those stop, their replication state is removed and the
 * collections are emptied, so the next user sees nothing of the last.
 *
 * At login the guest's cart is merged into the customer's saved cart (shared `mergeCartLines`),
 * the favourites a guest tried to save are saved, and a theme chosen before login becomes the
 * account's unless the account already has one (then the device follows the account).
 *
 * Live changes of all running collections come over one Server-Sent Events connection
 * (`/api/sync/stream?collections=…`), reconnected with backoff; every (re)connection starts with
 * a `resync`, which makes each collection pull what it missed.
 */
export interface SyncEngine {
  readonly status: SyncStatusStore;
  /** Where each change made on this device stands: waiting, accepted, refused, conflict. */
  readonly changes: ChangeTracker;
  /** The session's user, or null for a guest. */
  readonly user$: Observable<SyncUser | null>;
  readonly user: SyncUser | null;
  start(): void;
  /**
   * Switches the session (login, logout, another user); resolves when the switch is done. The
   * previous user's queued changes get `pushWaitMs` (default 2 s) to reach the server before their
   * data is removed; the logout flow, which has already pushed them and let the user choose,
   * passes 0.
   */
  setUser(user: SyncUser | null, options?: { pushWaitMs?: number }): Promise<void>;
  /**
   * Gives the changes queued in the user's own collections up to `waitMs` to reach the server
   * (while the session is still valid), then returns how many are still unsent: what a logout now
   * would lose. Collections another tab replicates (it leads) are not counted here.
   */
  unsentChanges(waitMs: number): Promise<number>;
  /** The running replication of a collection, if any (the catalogue's is of its own kind). */
  replication(collection: 'flights'): CatalogueReplication | undefined;
  replication(collection: LocalCollectionName): CollectionReplication | undefined;
  replication(
    collection: SyncCollectionName,
  ): CollectionReplication | CatalogueReplication | undefined;
  /** Resolves when every running replication has pulled and pushed everything (tests, bench). */
  awaitInSync(): Promise<void>;
  stop(): Promise<void>;
}

/** Public collections besides the catalogue, replicated for everybody. */
const PUBLIC_COLLECTIONS: readonly LocalCollectionName[] = ['airlines', 'reviews'];
const CUSTOMER_COLLECTIONS: readonly LocalCollectionName[] = [
  'favourites',
  'cart',
  'preferences',
  'reviewDrafts',
  'orders',
];
const AIRLINE_COLLECTIONS: readonly LocalCollectionName[] = ['sales'];
/** How often at most the catalogue's freshness is saved while pulls keep moving it. */
const FRESHNESS_SAVE_MS = 30_000;

const ChangesEventSchema = z.object({
  collection: SyncCollectionNameSchema,
  documents: z.array(z.looseObject({ id: z.string(), _deleted: z.boolean() })),
  checkpoint: ReplicationCheckpointSchema,
  revisions: z.array(RevisionSchema).optional(),
});

function browserOnlineEvents(): Observable<boolean> | undefined {
  if (typeof window === 'undefined' || typeof window.addEventListener !== 'function')
    return undefined;
  return merge(
    fromEvent(window, 'online').pipe(map(() => true)),
    fromEvent(window, 'offline').pipe(map(() => false)),
  );
}

function personalCollectionsOf(user: SyncUser | null): readonly LocalCollectionName[] {
  if (!user) return [];
  if (user.role === 'customer') return CUSTOMER_COLLECTIONS;
  if (user.role === 'airline' && user.airlineId) return AIRLINE_COLLECTIONS;
  return [];
}

function partitionOf(user: SyncUser, collection: LocalCollectionName): string {
  return SYNC_COLLECTION_INFO[collection].partition === 'airline'
    ? (user.airlineId ?? '')
    : user.id;
}

/** Stops the download of a first pull asked for in advance, if it is a snapshot. */
function dropSnapshot(firstPull: Promise<unknown>) {
  firstPull.then(
    (value) => value instanceof SnapshotLoad && value.dispose(),
    () => undefined,
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([
    promise,
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms)),
  ]);
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { db, transport } = options;
  const retry = options.retry ?? DEFAULT_RETRY;
  const initiallyOnline =
    options.initiallyOnline ?? (typeof navigator === 'undefined' ? true : navigator.onLine);
  const status = createSyncStatusStore(initiallyOnline);
  const changes = createChangeTracker(db);
  const user$ = new BehaviorSubject<SyncUser | null>(null);
  const replications = new Map<LocalCollectionName, CollectionReplication>();
  /** The catalogue's replication, from `start()` on. */
  let catalogue: CatalogueReplication | undefined;
  const subscriptions = new Subscription();
  let streamSubscription: Subscription | undefined;
  let streamFailures = 0;
  let started = false;
  let stopped = false;
  let queue: Promise<void> = Promise.resolve();
  let reconnectNow: (() => void) | undefined;
  /** Ends a login's wait for its first pulls early: the user is logging out. */
  let stopWaitingForFirstPulls: (() => void) | undefined;

  const firstPulls = new Map(Object.entries(options.firstPulls ?? {}));

  /**
   * Writes the catalogue's snapshot into its (emptied) replica: the one asked for in advance, else
   * a new one; false where there is none (no workers) or it failed.
   */
  async function loadCatalogueSnapshot(): Promise<boolean> {
    const prefetched = firstPulls.get('flights');
    firstPulls.delete('flights');
    const value = prefetched ? await prefetched.catch(() => undefined) : undefined;
    const load = value instanceof SnapshotLoad ? value : startSnapshotLoad(transport, 'flights');
    return load ? load.writeInto(options.catalogue.name) : false;
  }

  function startCatalogue() {
    const prefetched = firstPulls.get('flights');
    catalogue = startCatalogueReplication(options.catalogue, {
      transport,
      status,
      retry,
      loadSnapshot: loadCatalogueSnapshot,
      // The tab that runs the user's replications (RxDB's leader) pulls the catalogue too.
      leadership: databaseLeadership(db),
      skipSnapshot: () => {
        firstPulls.delete('flights');
        if (prefetched) dropSnapshot(prefetched);
      },
      // A first pull asked for in advance where no snapshot could be (pull-request.ts).
      firstPull: prefetched?.then((value) => (value instanceof SnapshotLoad ? undefined : value)),
    });
    catalogue.state.active$.subscribe((isActive) => status.setActive('flights', isActive));
  }

  function startReplication(collection: LocalCollectionName, partition: string | null) {
    const firstPull = partition === null ? firstPulls.get(collection) : undefined;
    firstPulls.delete(collection);
    const replication = startCollectionReplication(db, collection, {
      transport,
      status,
      retry,
      partition,
      firstPull,
      changes,
    });
    replications.set(collection, replication);
    if (replication.state.push)
      watchUnsentChanges(replication, (unsent) => {
        status.reportUnsent(collection, unsent?.length ?? null);
        changes.setWaiting(
          collection as ChangeCollection,
          unsent?.map((change) => ({ ...change, collection: collection as ChangeCollection })) ??
            null,
        );
      });
  }

  /**
   * Keeps when the catalogue was last fresh across sessions (local-state.ts), so that a device
   * opened offline can say how old its prices are: restored at start, saved when it moves (at
   * most every 30 s while pulls keep moving it) and when the page is hidden while live.
   */
  function keepCatalogueFreshness(): Subscription {
    const subscription = new Subscription();
    let saved: number | null = null;
    void readCatalogueFreshAt(db)
      .then((at) => {
        // Already saved: restoring it writes nothing.
        if (at !== null) saved = Math.max(saved ?? 0, at);
        status.restoreCatalogueFreshAt(at);
      })
      .catch(() => undefined);
    let savedAtMs = 0;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const save = (at: number) => {
      if (pending) clearTimeout(pending);
      pending = undefined;
      if (saved !== null && at <= saved) return;
      saved = at;
      savedAtMs = Date.now();
      void writeCatalogueFreshAt(db, at).catch(() => undefined);
    };
    let wasLive = false;
    subscription.add(
      status.subscribe(() => {
        const { live, catalogueFreshAt } = status.getSnapshot();
        const stoppedBeingLive = wasLive && !live;
        wasLive = live;
        if (catalogueFreshAt === null || (saved !== null && catalogueFreshAt <= saved)) return;
        const wait = FRESHNESS_SAVE_MS - (Date.now() - savedAtMs);
        if (stoppedBeingLive || wait <= 0) save(catalogueFreshAt);
        else
          pending ??= setTimeout(() => {
            pending = undefined;
            const latest = status.getSnapshot().catalogueFreshAt;
            if (latest !== null) save(latest);
          }, wait);
      }),
    );
    if (typeof document !== 'undefined' && typeof document.addEventListener === 'function') {
      subscription.add(
        fromEvent(document, 'visibilitychange').subscribe(() => {
          if (document.visibilityState === 'hidden' && status.getSnapshot().live) save(Date.now());
        }),
      );
    }
    subscription.add(() => clearTimeout(pending));
    return subscription;
  }

  /** (Re)opens the one live connection for the collections now running. */
  function connectStream() {
    streamSubscription?.unsubscribe();
    streamSubscription = undefined;
    if (stopped || (replications.size === 0 && !catalogue)) return;
    const names = [...replications.keys(), ...(catalogue ? ['flights'] : [])].sort().join(',');
    streamSubscription = serverSentEvents(transport, `/sync/stream?collections=${names}`).subscribe(
      {
        next(event) {
          if (event.event === 'resync') {
            streamFailures = 0;
            status.reportSuccess('stream');
            status.setStreamConnected(true);
            for (const replication of replications.values()) replication.stream.next('RESYNC');
            catalogue?.stream.next('RESYNC');
            return;
          }
          if (event.event !== 'changes') return;
          const parsed = ChangesEventSchema.safeParse(JSON.parse(event.data));
          if (!parsed.success) return;
          const { collection } = parsed.data;
          const replication = collection === 'flights' ? catalogue : replications.get(collection);
          replication?.stream.next({
            documents: parsed.data.documents as never,
            checkpoint: parsed.data.checkpoint,
            revisions: parsed.data.revisions,
          });
        },
        error(error: unknown) {
          streamFailures += 1;
          status.setStreamConnected(false);
          status.reportError('stream', {
            message: error instanceof Error ? error.message : String(error),
            offline: (error as { offline?: boolean }).offline ?? false,
            updateRequired: (error as { updateRequired?: boolean }).updateRequired ?? false,
          });
          const wait = backoffMs(retry, streamFailures);
          const retryTimer = timer(wait).subscribe(() => connectStream());
          reconnectNow = () => {
            retryTimer.unsubscribe();
            connectStream();
          };
        },
      },
    );
  }

  /** The running replications of the user's own collections that this tab runs (it leads). */
  function ownReplications(user: SyncUser | null): CollectionReplication[] {
    const multiTab = db.multiInstance;
    return personalCollectionsOf(user)
      .map((name) => replications.get(name))
      .filter((replication): replication is CollectionReplication => replication !== undefined)
      .filter(
        (replication) =>
          replication.state.internalReplicationState !== undefined || !multiTab || db.isLeader(),
      );
  }

  async function pushQueued(user: SyncUser | null, waitMs: number) {
    if (waitMs <= 0) return;
    await withTimeout(
      Promise.all(ownReplications(user).map((replication) => replication.state.awaitInSync())),
      waitMs,
    );
  }

  async function stopPersonal(previous: SyncUser, pushWaitMs: number) {
    const personal = personalCollectionsOf(previous);
    // Push what is still queued, if the server is reachable, before the data goes.
    await pushQueued(previous, pushWaitMs);
    for (const name of personal) {
      const replication = replications.get(name);
      if (!replication) continue;
      replications.delete(name);
      replication.stream.complete();
      await replication.state.remove();
      status.forget(name);
      if (SYNC_COLLECTION_INFO[name].writable) changes.setWaiting(name as ChangeCollection, null);
    }
    await clearPersonalCollections(db);
    await changes.clear();
    await clearPriceHistories(db);
  }

  async function mergeGuestData(user: SyncUser) {
    const initialPull = options.initialPullTimeoutMs ?? 10_000;
    const interrupted = new Promise<void>((resolve) => (stopWaitingForFirstPulls = resolve));
    await withTimeout(
      Promise.race([
        Promise.all(
          ['cart', 'favourites', 'preferences'].map((name) =>
            replications.get(name as LocalCollectionName)?.state.awaitInitialReplication(),
          ),
        ),
        interrupted,
      ]),
      initialPull,
    );
    stopWaitingForFirstPulls = undefined;

    const guestLines = await readGuestCart(db);
    if (guestLines.length > 0) {
      const savedDocs = await db.collections.cart.find().exec();
      const saved = savedDocs.map((doc) => doc.toMutableJSON() as CartDoc);
      const merged = mergeCartLines(
        saved,
        guestLines.map((line) => ({ ...line, id: line.flightId, userId: user.id })),
      );
      const changed = merged.filter((line) => {
        const before = saved.find((s) => s.flightId === line.flightId);
        return !before || before.amount !== line.amount;
      });
      if (changed.length > 0) {
        await db.collections.cart.bulkUpsert(
          changed.map((line) => ({ ...line, id: line.flightId, userId: user.id })),
        );
      }
      await writeGuestCart(db, []);
    }

    const attempts = await readFavouriteAttempts(db);
    if (attempts.length > 0) {
      const flights = await options.catalogue.get(attempts);
      const existing = await db.collections.favourites.findByIds(attempts).exec();
      const toSave: FavouriteDoc[] = [];
      for (const flightId of attempts) {
        const flight = flights.get(flightId);
        if (!flight || existing.has(flightId)) continue;
        toSave.push({
          ...favouriteFromFlight(flight, Date.now()),
          id: flightId,
          userId: user.id,
        });
      }
      if (toSave.length > 0) await db.collections.favourites.bulkInsert(toSave);
      await clearFavouriteAttempts(db);
    }

    const accountPreferences = await db.collections.preferences.findOne(user.id).exec();
    if (accountPreferences) {
      await writeLocalTheme(db, accountPreferences.theme);
    } else {
      const theme = await readLocalTheme(db);
      if (theme !== 'system')
        await db.collections.preferences.insert({ id: user.id, userId: user.id, theme });
    }
  }

  async function switchUser(next: SyncUser | null, pushWaitMs: number) {
    const previous = user$.value;
    const same =
      previous?.id === next?.id &&
      previous?.role === next?.role &&
      previous?.airlineId === next?.airlineId;
    if (same) return;
    if (previous) await stopPersonal(previous, pushWaitMs);
    await changes.setUser(next?.role === 'customer' ? next.id : null);
    user$.next(next);
    if (next) {
      for (const collection of personalCollectionsOf(next))
        startReplication(collection, partitionOf(next, collection));
    }
    if (started) connectStream();
    if (next?.role === 'customer') await mergeGuestData(next);
  }

  return {
    status,
    changes,
    user$: user$.asObservable(),
    get user() {
      return user$.value;
    },
    start() {
      if (started) return;
      started = true;
      startCatalogue();
      for (const collection of PUBLIC_COLLECTIONS) startReplication(collection, null);
      subscriptions.add(keepCatalogueFreshness());
      const online$ = options.onlineEvents ?? browserOnlineEvents();
      if (online$) {
        subscriptions.add(
          online$.subscribe((online) => {
            status.setBrowserOnline(online);
            if (!online) return;
            // Back online: pull what was missed and reconnect at once instead of after the backoff.
            for (const replication of replications.values()) replication.state.reSync();
            catalogue?.state.reSync();
            reconnectNow?.();
          }),
        );
      }
      connectStream();
    },
    setUser(user, switchOptions) {
      const run = queue.then(() => switchUser(user, switchOptions?.pushWaitMs ?? 2000));
      queue = run.catch(() => undefined);
      return run;
    },
    async unsentChanges(waitMs) {
      // A login still waiting (offline) for its first pulls goes on at once: the user is leaving.
      stopWaitingForFirstPulls?.();
      await queue;
      const user = user$.value;
      await pushQueued(user, waitMs);
      let unsent = 0;
      for (const replication of ownReplications(user))
        unsent += (await countUnsentChanges(replication)) ?? 0;
      return unsent;
    },
    replication: ((collection: SyncCollectionName) =>
      collection === 'flights'
        ? catalogue
        : replications.get(collection)) as SyncEngine['replication'],
    async awaitInSync() {
      await queue;
      await Promise.all([
        ...[...replications.values()].map((replication) => replication.state.awaitInSync()),
        catalogue?.state.awaitInSync(),
      ]);
    },
    async stop() {
      stopped = true;
      await queue;
      subscriptions.unsubscribe();
      streamSubscription?.unsubscribe();
      status.setStreamConnected(false);
      for (const replication of replications.values()) {
        replication.stream.complete();
        await replication.state.cancel();
      }
      replications.clear();
      if (catalogue) {
        catalogue.stream.complete();
        await catalogue.state.cancel();
        catalogue = undefined;
      }
      for (const pending of firstPulls.values()) dropSnapshot(pending);
    },
  };
}

/** Waits until the engine's user is `id` (or null) — for code that reacts to a session switch. */
export function whenUser(engine: SyncEngine, id: string | null): Promise<SyncUser | null> {
  return firstValueFrom(engine.user$.pipe(filter((user) => (user?.id ?? null) === id)));
}
