/**
 * A page that runs the PWA's local-first data layer (src/db, src/sync, src/features/x/data) with
 * no screens, for the browser test (offline-sync.e2e.ts) and the sync bench
 * (sync-server/bench/sync.ts): Playwright drives it through `window.harness`. Built as a
 * production bundle (vite.config.ts here) with a small service worker, so it reloads offline.
 */
import { firstValueFrom, filter } from 'rxjs';
import {
  CatalogQuerySchema,
  SYNC_PROTOCOL_VERSION,
  SYNC_VERSION_HEADER,
  type CatalogQueryInput,
  type Flight,
  type ReplicationCheckpoint,
} from '@skyport/shared';
import { createLocalData, type LocalData } from '../../src/data/local-data.ts';
import { addFlightToCart, cartLines$ } from '../../src/features/cart/data/cart.ts';
import { catalogIndex$, catalogPage$ } from '../../src/features/catalog/data/catalogue.ts';
import {
  catalogueSyncedBefore,
  rememberCatalogueSynced,
} from '../../src/features/catalog/data/catalogue-synced.ts';
import { warmCatalogIndex } from '../../src/features/catalog/data/catalogue-index.ts';
import { addFavourite, favourites$ } from '../../src/features/favourites/data/favourites.ts';
import { orders$ } from '../../src/features/orders/data/orders.ts';
import {
  reviewDrafts$,
  saveReviewDraft,
  type ReviewInput,
} from '../../src/features/orders/data/review-drafts.ts';
import type { SyncUser } from '../../src/sync/engine.ts';
import type { SyncTransport } from '../../src/sync/http.ts';
import { PULL_BATCH, pullPath, requestFirstPull } from '../../src/sync/pull-request.ts';
import { flightsByIds$ } from '../../src/db/catalogue-reads.ts';

const SESSION_KEY = 'harness-session';
interface Session {
  user: SyncUser;
  token: string;
}

function readSession(): Session | null {
  const raw = localStorage.getItem(SESSION_KEY);
  return raw ? (JSON.parse(raw) as Session) : null;
}

const startedAt = performance.now();
const arrivals = new Map<string, Promise<number>>();
const statusElement = document.getElementById('status');

const transport: SyncTransport = {
  baseUrl: '/api',
  headers: (): Record<string, string> => {
    const session = readSession();
    return session ? { Authorization: `Bearer ${session.token}` } : {};
  },
};

/** As the app opens it (src/app/app.tsx): a device without the catalogue asks for it at once. */
async function open(): Promise<LocalData> {
  const firstPulls = catalogueSyncedBefore()
    ? {}
    : { flights: requestFirstPull(transport, 'flights') };
  const data = await createLocalData({ transport, sync: { firstPulls } });
  void data.engine
    .replication('flights')
    ?.state.awaitInitialReplication()
    .then(rememberCatalogueSynced);
  const session = readSession();
  if (session) await data.engine.setUser(session.user);
  data.engine.status.subscribe(() => {
    if (statusElement) statusElement.textContent = data.engine.status.getSnapshot().phase;
  });
  return data;
}

/** `?baseline` loads the page with the app's database shut (see `bareBaseline`). */
const ready: Promise<LocalData> = new URLSearchParams(location.search).has('baseline')
  ? new Promise(() => {})
  : open();

async function flightCount(): Promise<number> {
  const { catalogue } = await ready;
  return catalogue.count();
}

/** A flight of the device's catalogue. */
async function localFlight(flightId: string): Promise<Flight> {
  const flight = (await (await ready).catalogue.get([flightId])).get(flightId);
  if (!flight) throw new Error(`no flight ${flightId}`);
  return flight;
}

const harness = {
  ready: ready.then(() => true),
  startedAt,
  async status() {
    return (await ready).engine.status.getSnapshot();
  },
  flightCount,
  /**
   * Milliseconds from navigation start (the page's own loading included) until the flights
   * replication has done its first full pull (`awaitInitialReplication`) and `count` flights
   * are stored in IndexedDB. (Not `awaitInSync`: it also waits twice for the browser to
   * be idle, up to 10 s each, which measures the machine's load rather than the sync.)
   */
  async initialSync(count: number): Promise<number> {
    const data = await ready;
    await data.engine.replication('flights')?.state.awaitInitialReplication();
    while ((await data.catalogue.count()) < count) await new Promise((r) => setTimeout(r, 20));
    return performance.now();
  },
  async awaitInSync() {
    await (await ready).engine.awaitInSync();
  },
  async login(user: SyncUser, token: string) {
    localStorage.setItem(SESSION_KEY, JSON.stringify({ user, token }));
    await (await ready).engine.setUser(user);
  },
  async query(input: CatalogQueryInput) {
    const data = await ready;
    return firstValueFrom(catalogPage$(data.catalogue, CatalogQuerySchema.parse(input)));
  },
  /** Median and first-run time of a catalogue page query over the local flights. */
  async timeQuery(input: CatalogQueryInput, runs: number) {
    const data = await ready;
    const query = CatalogQuerySchema.parse(input);
    const firstStarted = performance.now();
    const index = await firstValueFrom(catalogIndex$(data.catalogue));
    const indexMs = performance.now() - firstStarted;
    warmCatalogIndex(index);
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      total = (await firstValueFrom(catalogPage$(data.catalogue, query))).total;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return {
      medianMs: times[Math.floor(times.length / 2)] ?? 0,
      indexMs,
      total,
      flights: index.listed.length,
    };
  },
  async addToCart(flightId: string) {
    return addFlightToCart(await ready, await localFlight(flightId));
  },
  async cart() {
    return (await firstValueFrom(cartLines$(await ready))).map((line) => ({
      flightId: line.flightId,
      amount: line.amount,
    }));
  },
  async addFavourite(flightId: string) {
    return addFavourite(await ready, await localFlight(flightId));
  },
  async favourites() {
    return (await firstValueFrom(favourites$(await ready))).map((favourite) => favourite.flightId);
  },
  async orders() {
    return (await firstValueFrom(orders$(await ready))).map((order) => ({
      id: order.id,
      reviewed: order.stocks.map((line) => line.review),
    }));
  },
  async saveDraft(input: ReviewInput) {
    return saveReviewDraft(await ready, input);
  },
  async drafts() {
    return [...(await firstValueFrom(reviewDrafts$(await ready))).values()];
  },
  /**
   * Starts watching for the flight's price to become `priceCents` in the local database; `arrival`
   * then resolves with Date.now() at that moment (the live-update bench changes the flight on the
   * server, from outside, right after this returns).
   */
  async watchPrice(flightId: string, priceCents: number): Promise<void> {
    const data = await ready;
    const query = flightsByIds$(data.catalogue, [flightId]);
    await firstValueFrom(query);
    arrivals.set(
      flightId,
      firstValueFrom(
        query.pipe(filter((found) => found.get(flightId)?.priceCents === priceCents)),
      ).then(() => Date.now()),
    );
  },
  async arrival(flightId: string): Promise<number> {
    const arrival = arrivals.get(flightId);
    if (!arrival) throw new Error(`not watching ${flightId}`);
    return arrival;
  },
  /**
   * The floor under `initialSync`, in the same browser: the same flights fetched through the pull
   * endpoint page by page, then written with bare IndexedDB puts in one transaction (no RxDB, no
   * Dexie, no indexes). Run it on a page loaded with `?baseline`, so that the app's database stays
   * shut.
   */
  async bareBaseline(): Promise<{ fetchMs: number; putMs: number; count: number }> {
    const started = performance.now();
    const docs: unknown[] = [];
    // The app's pulls: the same batches, the same requests.
    const batch = PULL_BATCH.flights;
    let checkpoint: ReplicationCheckpoint | undefined;
    for (;;) {
      const response = await fetch(`/api${pullPath('flights', checkpoint, batch)}`, {
        headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
      });
      const body = (await response.json()) as {
        documents: unknown[];
        checkpoint: ReplicationCheckpoint | null;
      };
      docs.push(...body.documents);
      if (body.documents.length < batch || !body.checkpoint) break;
      checkpoint = body.checkpoint;
    }
    const fetchMs = performance.now() - started;
    const putStarted = performance.now();
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(`bare-baseline-${Date.now()}`, 1);
      request.onupgradeneeded = () => request.result.createObjectStore('docs', { keyPath: 'id' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    await new Promise<void>((resolve, reject) => {
      const transaction = db.transaction('docs', 'readwrite');
      const store = transaction.objectStore('docs');
      for (const doc of docs) store.put(doc);
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
    });
    db.close();
    return { fetchMs, putMs: performance.now() - putStarted, count: docs.length };
  },
  async firstFlightIds(count: number): Promise<string[]> {
    const flights = await (await ready).catalogue.page(undefined, 1_000_000);
    flights.sort((a, b) => a.priceCents - b.priceCents || (a.id < b.id ? -1 : 1));
    return flights.slice(0, count).map((flight) => flight.id);
  },
};

declare global {
  interface Window {
    harness: typeof harness;
  }
}
window.harness = harness;

if ('serviceWorker' in navigator) {
  void navigator.serviceWorker.register('/harness-sw.js');
}
