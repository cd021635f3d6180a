import { filter } from 'rxjs';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { PERSONAL_COLLECTIONS, type SkyportDatabase } from '../../../db/database.ts';
import { closeLocalData, type LocalData } from '../../../data/local-data.ts';
import { addFavourite } from '../../favourites/data/favourites.ts';
import type { SyncEngine } from '../../../sync/engine.ts';
import { startTestServer, type TestActor, type TestServer } from '../../../sync/test-server.ts';
import { cuttableNetwork } from '../../../test/cuttable-network.ts';
import {
  localFlight,
  openTestDatabase,
  serverRows,
  startTestEngine,
  catalogueOf,
} from '../../../test/test-device.ts';
import {
  createDeferredLogout,
  memoryPendingLogout,
  type DeferredLogout,
} from './deferred-logout.ts';
import { logOutKeepingChanges, type LogoutChoice } from './log-out.ts';

/**
 * The logout sequence (issue 14, "logout that loses nothing") against a real server: RxDB on
 * fake-indexeddb, the sync engine, and a network that can be cut, slowed or left unanswered.
 * `session` plays the browser's session cookie: it goes with every request (as a Bearer token),
 * a successful logout clears it, a login replaces it.
 */

let server: TestServer;
let db: SkyportDatabase;
let engine: SyncEngine;
let data: LocalData;
let deferred: DeferredLogout;
let session: string | null = null;
/** Push requests wait this long before they go out. */
let pushDelayMs = 0;
/** Push requests go out but get no answer until the network changes. */
let pushesHang = false;
const network = cuttableNetwork(async (url, signal) => {
  if (!url.pathname.endsWith('/push')) return;
  if (pushDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, pushDelayMs));
  if (pushesHang)
    await new Promise((_, reject) =>
      signal.addEventListener('abort', () => reject(new TypeError('aborted'))),
    );
});
/** Every request that reached the network, in order: `METHOD /path`. */
const sent = network.sent;

/** Cuts or restores the network; open requests drop. `announce`: the browser's online event. */
function setOnline(value: boolean, announce = true) {
  pushesHang = false;
  network.setOnline(value, announce);
}

/** The browser's `POST /api/auth/logout` with its cookie (app-deferred-logout.ts's rules). */
async function endServerSession(): Promise<void> {
  const response = await network.fetch(`${server.url}/api/auth/logout`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(session ? { Authorization: `Bearer ${session}` } : {}),
    },
    body: '{}',
  });
  if (response.status >= 500 || response.status === 429) throw new Error(`${response.status}`);
  session = null;
}

/** A login through the form: a new session (the server ends the one the request carries). */
async function logIn(actor: TestActor): Promise<string> {
  const response = await network.fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(session ? { Authorization: `Bearer ${session}` } : {}),
    },
    body: JSON.stringify({ email: actor.email, password: actor.password }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { token: string };
  session = body.token;
  return body.token;
}

/** The status of `GET /api/auth/me` with a session token, from outside the device. */
async function me(token: string): Promise<number> {
  const response = await fetch(`${server.url}/api/auth/me`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return response.status;
}

async function signedIn(actor: TestActor): Promise<string> {
  const token = await logIn(actor);
  await engine.setUser({ id: actor.id!, role: 'customer', airlineId: null });
  await engine.awaitInSync();
  return token;
}

/** The flight at `index` of the server's, as the device has it. */
function flight(index: number) {
  return localFlight(db, server.flightIds[index]!);
}

async function serverFavourites(userId: string): Promise<string[]> {
  const rows = await serverRows<{ user_id: string; flight_id: string; deleted: boolean }>(
    server,
    'favourites',
  );
  return rows.filter((r) => r.user_id === userId && !r.deleted).map((r) => r.flight_id);
}

async function personalDocuments(): Promise<number> {
  let count = 0;
  for (const name of PERSONAL_COLLECTIONS) count += await db.collections[name].count().exec();
  return count;
}

/** A user's answer the test gives when it wants: `asked` resolves with the count shown. */
function userAnswer() {
  let answer!: (choice: LogoutChoice) => void;
  let shown!: (unsent: number) => void;
  const asked = new Promise<number>((resolve) => (shown = resolve));
  const choice = new Promise<LogoutChoice>((resolve) => (answer = resolve));
  return {
    asked,
    answer,
    choose: (unsent: number) => {
      shown(unsent);
      return choice;
    },
  };
}

function logOut(choose: (unsent: number) => Promise<LogoutChoice>, pushWaitMs = 5000) {
  return logOutKeepingChanges({ engine, deferred, choose, isOnline: network.isOnline, pushWaitMs });
}

const neverAsked = (unsent: number): Promise<LogoutChoice> => {
  throw new Error(`asked about ${unsent} unsent changes`);
};

/**
 * What `promise` settles to, or a failure once `ms` passed without it: for the steps that must not
 * wait for a push. Their failure waits a minute or for ever (the waits are set so), their work
 * takes a second at most on a busy machine; `ms` sits far from both.
 */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

beforeAll(async () => {
  server = await startTestServer({ flights: 12 });
  db = await openTestDatabase({ prefix: 'logout' });
  engine = await startTestEngine(server, db, {
    fetch: network.fetch,
    token: () => session,
    retry: { baseMs: 100, maxMs: 500 },
    onlineEvents: network.online$,
    // A login waiting offline for its first pulls would wait a minute, not the default 10 s, so
    // that a logout's not waiting for them is told apart on a busy machine too.
    initialPullTimeoutMs: 60_000,
  });
  data = { db, catalogue: catalogueOf(db), engine };
  await engine.awaitInSync();
});

beforeEach(() => {
  deferred?.dispose();
  deferred = createDeferredLogout({
    store: memoryPendingLogout(),
    endServerSession,
    onOnline: (listener) => {
      const subscription = network.online$.pipe(filter(Boolean)).subscribe(listener);
      return () => subscription.unsubscribe();
    },
    retryMs: 0,
  });
  setOnline(true, false);
  pushDelayMs = 0;
  sent.length = 0;
});

afterAll(async () => {
  deferred?.dispose();
  if (data) await closeLocalData(data);
  await server?.stop();
});

test('a change still queued at logout is pushed while the session is valid, then the session ends and the device is wiped', async () => {
  const customer = server.actors.customer;
  const token = await signedIn(customer);
  // A slow network: the favourite is still on its way when the user logs out.
  pushDelayMs = 1500;
  expect(await addFavourite(data, await flight(0))).toEqual({ ok: true });

  const outcome = await logOut(neverAsked);

  expect(outcome).toEqual({ status: 'loggedOut', discarded: 0, serverSession: 'ended' });
  expect(await serverFavourites(customer.id!)).toContain(server.flightIds[0]);
  // The push went out before the logout, and nothing personal after it.
  const push = sent.indexOf('POST /api/sync/favourites/push');
  const logout = sent.indexOf('POST /api/auth/logout');
  expect(push).toBeGreaterThanOrEqual(0);
  expect(logout).toBeGreaterThan(push);
  expect(await me(token)).toBe(401);
  expect(await personalDocuments()).toBe(0);
  expect(engine.user).toBeNull();
  expect(deferred.pending).toBe(false);
});

test('a change that cannot be sent in time is counted and the user asked; nothing ends or goes before the answer, and "stay" keeps it all', async () => {
  const customer = server.actors.customer;
  const token = await signedIn(customer);
  // The server takes the request and never answers: the push cannot complete within the wait.
  pushesHang = true;
  await addFavourite(data, await flight(1));

  const user = userAnswer();
  const loggingOut = logOut(user.choose, 1000);
  // The bounded wait (1 s), not longer: unbounded, it would wait for ever for the push.
  expect(await within(user.asked, 10_000, 'asked after the bounded wait')).toBe(1);
  // Asked: still signed in everywhere, the change still on the device.
  expect(await me(token)).toBe(200);
  expect(engine.user?.id).toBe(customer.id);
  expect(await db.collections.favourites.findOne(server.flightIds[1]!).exec()).not.toBeNull();
  expect(sent).not.toContain('POST /api/auth/logout');
  expect(deferred.pending).toBe(false);

  user.answer('stay');
  expect(await loggingOut).toEqual({ status: 'stayed', unsent: 1 });
  expect(await me(token)).toBe(200);
  expect(engine.user?.id).toBe(customer.id);
  expect(await db.collections.favourites.findOne(server.flightIds[1]!).exec()).not.toBeNull();

  // The network answers again: the kept change reaches the server, and a logout now asks nothing.
  setOnline(true);
  await expect
    .poll(() => serverFavourites(customer.id!), { timeout: 10_000 })
    .toContain(server.flightIds[1]!);
  expect(await logOut(neverAsked)).toEqual({
    status: 'loggedOut',
    discarded: 0,
    serverSession: 'ended',
  });
  expect(await me(token)).toBe(401);
});

test('offline: the unsent change is counted, "log out anyway" wipes the device at once, and the session ends when the connection returns', async () => {
  const customer = server.actors.customer;
  // A yardstick first: the bare wipe of this device in the state below (signed in, offline, a
  // change unsent), the engine's own sign-out without any wait for pushes.
  await signedIn(customer);
  setOnline(false);
  await addFavourite(data, await flight(3));
  const bareStarted = Date.now();
  await engine.setUser(null, { pushWaitMs: 0 });
  const bareWipe = Date.now() - bareStarted;
  setOnline(true, false);
  await endServerSession();

  const token = await signedIn(customer);
  setOnline(false);
  await addFavourite(data, await flight(2));

  const user = userAnswer();
  // Offline there is nothing to wait for: not the minute this push wait would be.
  const loggingOut = logOut(user.choose, 60_000);
  expect(await within(user.asked, 10_000, 'asked offline')).toBe(1);
  expect(await db.collections.favourites.findOne(server.flightIds[2]!).exec()).not.toBeNull();

  const answered = Date.now();
  user.answer('logOut');
  expect(await loggingOut).toEqual({
    status: 'loggedOut',
    discarded: 1,
    serverSession: 'deferred',
  });
  // At once: the bare wipe's work, which a busy machine slows for both alike (hence the half
  // again, and a second for the noise of two single runs), not that work after a wait for a push
  // that cannot go, the engine's 2 s push wait.
  expect(Date.now() - answered).toBeLessThan(1.5 * bareWipe + 1000);
  // Wiped at once; the server session is still open and remembered as to be ended.
  expect(await personalDocuments()).toBe(0);
  expect(engine.user).toBeNull();
  expect(deferred.pending).toBe(true);
  expect(await me(token)).toBe(200);

  setOnline(true);
  await expect.poll(() => me(token), { timeout: 10_000 }).toBe(401);
  // The server ends the session before its answer reaches the device, which then forgets it.
  await expect.poll(() => deferred.pending, { timeout: 10_000 }).toBe(false);
  // The discarded change never reached the server.
  expect(await serverFavourites(customer.id!)).not.toContain(server.flightIds[2]);
});

test('offline with nothing unsent: no question, wiped at once, and the next start ends the session before anything else', async () => {
  const customer = server.actors.customer;
  const token = await signedIn(customer);
  setOnline(false);
  expect(await logOut(neverAsked)).toEqual({
    status: 'loggedOut',
    discarded: 0,
    serverSession: 'deferred',
  });
  expect(await personalDocuments()).toBe(0);
  expect(deferred.pending).toBe(true);

  // Back online without an online event (the app was closed meanwhile): the next start settles it.
  setOnline(true, false);
  sent.length = 0;
  expect(await deferred.settle()).toBe(true);
  expect(sent[0]).toBe('POST /api/auth/logout');
  expect(await me(token)).toBe(401);
  expect(deferred.pending).toBe(false);
});

test('offline right after a login, before its first pulls came: the logout does not wait for them', async () => {
  const customer = server.actors.customer;
  const token = await logIn(customer);
  setOnline(false);
  // The login's switch waits (here up to a minute) for the cart's and favourites' first pulls.
  const switching = engine.setUser({ id: customer.id!, role: 'customer', airlineId: null });
  // Switched (the user is set just before the wait for the first pulls begins).
  await expect.poll(() => engine.user?.id, { timeout: 10_000 }).toBe(customer.id);

  // Not the minute the login would wait for its first pulls (initialPullTimeoutMs).
  expect(await within(logOut(neverAsked), 15_000, 'logged out')).toEqual({
    status: 'loggedOut',
    discarded: 0,
    serverSession: 'deferred',
  });
  await switching;
  expect(engine.user).toBeNull();
  expect(await personalDocuments()).toBe(0);

  setOnline(true);
  await expect.poll(() => me(token), { timeout: 10_000 }).toBe(401);
});

test('a new login before the deferred logout went out keeps its session; the old one is ended by the login', async () => {
  const customer = server.actors.customer;
  const oldToken = await signedIn(customer);
  setOnline(false);
  await logOut(neverAsked);
  expect(deferred.pending).toBe(true);

  // The connection is back, but the deferred logout has not gone out yet when the user logs in.
  setOnline(true, false);
  const newToken = await deferred.signIn(() => logIn(customer));
  expect(deferred.pending).toBe(false);
  expect(await me(oldToken)).toBe(401);
  expect(await me(newToken)).toBe(200);

  // The online event comes: nothing is sent, the new session stays.
  sent.length = 0;
  network.online$.next(true);
  expect(await deferred.settle()).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(sent).not.toContain('POST /api/auth/logout');
  expect(await me(newToken)).toBe(200);
  await endServerSession();
});

test('a sign-in waits for a deferred logout already on its way, so that its answer cannot end the new session', async () => {
  const customer = server.actors.customer;
  await signedIn(customer);
  setOnline(false);
  await logOut(neverAsked);

  setOnline(true, false);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const order: string[] = [];
  const slow = createDeferredLogout({
    store: memoryPendingLogout(),
    async endServerSession() {
      await gate;
      await endServerSession();
      order.push('logout');
    },
    retryMs: 0,
  });
  slow.defer();
  const settling = slow.settle();
  const signingIn = slow.signIn(async () => {
    order.push('login');
    return logIn(customer);
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(order).toEqual([]);
  release();
  expect(await settling).toBe(true);
  const newToken = await signingIn;
  expect(order).toEqual(['logout', 'login']);
  expect(slow.pending).toBe(false);
  expect(await me(newToken)).toBe(200);
  slow.dispose();
  await endServerSession();
});
