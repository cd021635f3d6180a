/// <reference types="node" />
import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { filter, firstValueFrom, timeout, type Observable } from 'rxjs';
import { afterAll, beforeAll } from 'vitest';
import type { Flight } from '@skyport/shared';
import {
  createLocalDatabase,
  type CreateDatabaseOptions,
  type SkyportDatabase,
} from '../db/database.ts';
import {
  closeLocalData,
  createLocalData,
  type CreateLocalDataOptions,
  type LocalData,
} from '../data/local-data.ts';
import { createSyncEngine, type SyncEngine, type SyncUser } from '../sync/engine.ts';
import type { SyncTransport } from '../sync/http.ts';
import { openCatalogueReplica, type CatalogueReplica } from '../db/catalogue-replica.ts';
import { catalogueReplicaName } from '../db/database-name.ts';
import { startTestServer, type TestActor, type TestServer } from '../sync/test-server.ts';

/**
 * A device for the PWA's unit tests, as the app has one (data/local-data.ts): the local database,
 * here on fake-indexeddb, and the sync engine, here against a real server on a fresh PostgreSQL
 * database (sync/test-server.ts).
 */

export interface TestDatabaseOptions extends CreateDatabaseOptions {
  /** The start of a name of its own, `<prefix>-<uuid>`, when there is no `name`. */
  prefix?: string;
}

/** Options of a local database on fake-indexeddb, dev-mode checks on, in one tab. */
function testDatabase(options: TestDatabaseOptions): CreateDatabaseOptions {
  const { prefix = 'test', name = `${prefix}-${randomUUID()}`, ...databaseOptions } = options;
  return { indexedDB, IDBKeyRange, devMode: true, multiInstance: false, ...databaseOptions, name };
}

/** The catalogue replica of each test database that has one (`localFlight` reads it). */
const catalogues = new WeakMap<SkyportDatabase, CatalogueReplica>();

/** The catalogue replica opened beside `db` for a test engine or device. */
export function catalogueOf(db: SkyportDatabase): CatalogueReplica {
  const catalogue = catalogues.get(db);
  if (!catalogue) throw new Error(`${db.name} has no catalogue replica`);
  return catalogue;
}

/** The catalogue replica beside `db` (db/catalogue-replica.ts), on fake-indexeddb. */
export async function openTestCatalogue(db: SkyportDatabase): Promise<CatalogueReplica> {
  const catalogue = await openCatalogueReplica(catalogueReplicaName(db.name), {
    indexedDB,
    IDBKeyRange,
  });
  catalogues.set(db, catalogue);
  return catalogue;
}

/** A local database on fake-indexeddb, dev-mode checks on, in one tab. */
export function openTestDatabase(options: TestDatabaseOptions = {}): Promise<SkyportDatabase> {
  return createLocalDatabase(testDatabase(options));
}

export interface TestSyncOptions extends NonNullable<CreateLocalDataOptions['sync']> {
  /** The network the engine's requests go through (the real one by default). */
  fetch?: typeof fetch;
  /** The session token its requests carry as a Bearer token; none: a guest's requests. */
  token?: () => string | null;
}

/** The engine's settings for `server`: a short retry, online from the start. */
function testSync(server: TestServer, options: TestSyncOptions) {
  const { fetch, token = () => null, ...sync } = options;
  const transport: SyncTransport = {
    baseUrl: `${server.url}/api`,
    ...(fetch ? { fetch } : {}),
    headers: (): Record<string, string> => {
      const session = token();
      return session ? { Authorization: `Bearer ${session}` } : {};
    },
  };
  return {
    transport,
    sync: { retry: { baseMs: 100, maxMs: 1000 }, initiallyOnline: true, ...sync },
  };
}

/**
 * A sync engine of `db` (and of the catalogue replica beside it) against `server`, started: it
 * replicates the public collections.
 */
export async function startTestEngine(
  server: TestServer,
  db: SkyportDatabase,
  options: TestSyncOptions = {},
): Promise<SyncEngine> {
  const { transport, sync } = testSync(server, options);
  const catalogue = catalogues.get(db) ?? (await openTestCatalogue(db));
  const engine = createSyncEngine({ db, catalogue, transport, ...sync });
  engine.start();
  return engine;
}

export interface TestDevice extends LocalData {
  /** Signs `actor` in as `role` (null: signs out), then waits until the device is in sync. */
  signIn(actor: TestActor | null, role?: SyncUser['role']): Promise<void>;
}

/**
 * A device as the app opens one (data/local-data.ts), replicating with `server` as a guest;
 * `signIn` makes its requests carry the actor's token.
 */
export async function openTestDevice(
  server: TestServer,
  prefix: string,
  options: Omit<TestSyncOptions, 'token'> = {},
): Promise<TestDevice> {
  let token: string | null = null;
  const data = await createLocalData({
    database: testDatabase({ prefix }),
    ...testSync(server, { ...options, token: () => token }),
  });
  catalogues.set(data.db, data.catalogue);
  return {
    ...data,
    async signIn(actor, role = 'customer') {
      token = actor?.token ?? null;
      await data.engine.setUser(actor ? { id: actor.id!, role, airlineId: actor.airlineId } : null);
      await data.engine.awaitInSync();
    },
  };
}

/** What `customerDeviceForThisFile` gives the tests; its fields are set once the tests run. */
export interface DeviceFixture {
  server: TestServer;
  device: TestDevice;
}

/**
 * For the calling test file: a real server with `flights` flights and one device, in sync, signed
 * in as the server's customer; opened before the file's tests and closed after them.
 */
export function customerDeviceForThisFile(prefix: string, flights: number): DeviceFixture {
  const fixture = {} as DeviceFixture;
  beforeAll(async () => {
    fixture.server = await startTestServer({ flights });
    fixture.device = await openTestDevice(fixture.server, prefix);
    await fixture.device.engine.awaitInSync();
    await fixture.device.signIn(fixture.server.actors.customer);
  });
  afterAll(async () => {
    if (fixture.device) await closeLocalData(fixture.device);
    await fixture.server?.stop();
  });
  return fixture;
}

/**
 * A flight as the device has it (in its catalogue replica: the local data's, or the one beside
 * `db`), replicated from the server.
 */
export async function localFlight(
  device: SkyportDatabase | LocalData,
  id: string,
): Promise<Flight> {
  const catalogue = 'catalogue' in device ? device.catalogue : catalogueOf(device);
  const flight = (await catalogue.get([id])).get(id);
  if (!flight) throw new Error(`flight ${id} is not in the local catalogue`);
  return flight;
}

/** Waits (10 s at most) until a live query's value passes `predicate`, and returns that value. */
export function until<T>(
  source: Observable<T>,
  predicate: (value: T) => boolean,
  ms = 10_000,
): Promise<T> {
  return firstValueFrom(source.pipe(filter(predicate), timeout(ms)));
}

/** The rows of one of the server's tables, through its /__test control API. */
export function serverRows<T>(server: TestServer, table: string): Promise<T[]> {
  return server.control<T[]>('GET', `/__test/rows/${table}`);
}
