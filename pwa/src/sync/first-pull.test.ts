import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import type { SkyportDatabase } from '../db/database.ts';
import { catalogueOf, openTestCatalogue, openTestDatabase } from '../test/test-device.ts';
import { createSyncEngine, type SyncEngine } from './engine.ts';
import { SyncHttpError, type SyncTransport } from './http.ts';
import { requestFirstPull } from './pull-request.ts';
import { startTestServer, type TestServer } from './test-server.ts';

/**
 * A first pull asked for before the local database opens (`requestFirstPull`, what the app does
 * on a device without the catalogue) against a real server: it answers the replication's first
 * pull in place of a request of its own, and only when the replication starts from nothing.
 */

let server: TestServer;
/** Paths of the sync requests made through `transport`. */
const requested: string[] = [];
const transport = (): SyncTransport => ({
  baseUrl: `${server.url}/api`,
  fetch: (input, init) => {
    requested.push(new URL(String(input)).pathname + new URL(String(input)).search);
    return fetch(input, init);
  },
});
const opened: { db: SkyportDatabase; engine: SyncEngine }[] = [];

beforeAll(async () => {
  server = await startTestServer({ flights: 30 });
});

afterEach(async () => {
  for (const { db, engine } of opened.splice(0)) {
    await engine.stop();
    await db.close();
  }
  requested.length = 0;
});

afterAll(async () => {
  await server?.stop();
});

function openDatabase(name?: string) {
  return openTestDatabase({ prefix: 'first-pull', name });
}

/** Starts replicating the public collections; resolves once the flights' first pull is stored. */
async function replicate(db: SkyportDatabase, firstPull?: Promise<unknown>) {
  const engine = createSyncEngine({
    db,
    catalogue: await openTestCatalogue(db),
    transport: transport(),
    retry: { baseMs: 50, maxMs: 200 },
    initiallyOnline: true,
    firstPulls: firstPull ? { flights: firstPull } : {},
  });
  opened.push({ db, engine });
  engine.start();
  await engine.replication('flights')!.state.awaitInitialReplication();
  return engine;
}

/** Requests for the flights from no checkpoint. */
function firstFlightPulls(): string[] {
  return requested.filter(
    (path) => path.startsWith('/api/sync/flights/pull') && !path.includes('revision='),
  );
}

test('the answer asked for in advance is the first pull: the replication does not ask again', async () => {
  const firstPull = requestFirstPull(transport(), 'flights');
  const db = await openDatabase();
  await replicate(db, firstPull);
  expect(firstFlightPulls()).toHaveLength(1);
  expect(requested[0]).toBe(firstFlightPulls()[0]);
  expect(await catalogueOf(db).count()).toBe(30);
});

test('a first pull that failed is asked for again by the replication', async () => {
  const failed = Promise.reject(new SyncHttpError(0, 'The server cannot be reached'));
  failed.catch(() => undefined);
  const db = await openDatabase();
  await replicate(db, failed);
  expect(firstFlightPulls()).toHaveLength(1);
  expect(await catalogueOf(db).count()).toBe(30);
});

test('a replication that resumes from its checkpoint ignores an answer from no checkpoint', async () => {
  const name = `first-pull-${randomUUID()}`;
  const first = await openDatabase(name);
  await replicate(first);
  // An answer that is not the server's: had it been used, its flight would be stored.
  const [stored] = await catalogueOf(first).page(undefined, 1);
  const invented = { ...stored, id: randomUUID(), _deleted: false };
  const { engine, db } = opened.pop()!;
  await engine.awaitInSync();
  await engine.stop();
  await db.close();

  const reopened = await openDatabase(name);
  await replicate(
    reopened,
    Promise.resolve({ documents: [invented], checkpoint: { revision: 1, id: invented.id } }),
  );
  expect((await catalogueOf(reopened).get([invented.id])).size).toBe(0);
  expect(await catalogueOf(reopened).count()).toBe(30);
});
