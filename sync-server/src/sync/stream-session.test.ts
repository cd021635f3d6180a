import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSession } from '../features/identity/sessions.ts';
import { tokenFromMail } from '../features/identity/testing.ts';
import type { AuthUser } from '../features/identity/users.ts';
import { ACTOR_PASSWORD, insertSignedInUser } from '../test/actors.ts';
import { createTestHarness, type TestInstance } from '../test/harness.ts';
import { CLOSED_BY_SERVER, openSse, type SseClient } from '../test/sse.ts';
import { ACCESS_CHANNEL } from './access-watch.ts';
import { ACCESS_ENDED_EVENT, SESSION_ENDED_EVENT } from './routes.ts';
import { insertAirline, insertFlights, syncHeaders } from './test-fixtures.ts';

/**
 * Issue 14: an open sync stream ends promptly when its session ends (the issue asks for a second;
 * the delays measured are printed), however it ends (logout, password change, password reset, an
 * administrator's disable, deletion, expiry), and when its user loses access to a partition it
 * carries; it delivers nothing after. Streams are
 * opened on instance B and sessions ended through instance A, so the signal crosses instances.
 * "Session end" is timed by the test's own LISTEN on the triggers' channel: the commit.
 */

const { sql, startInstance, actors } = await createTestHarness({ actors: true });
const admin = actors.superAdmin;
let a: TestInstance;
let b: TestInstance;
let flightIds: string[];
/** When the triggers' notification for each user last arrived (performance.now()). */
const notices = new Map<string, ((at: number) => void)[]>();
/** Every measured delay from session end to stream end, printed at the end. */
const measured: Record<string, number> = {};
/**
 * How soon a stream must end once its session ended. It takes milliseconds (printed at the end;
 * issue 14 asks for a second), but what these tests guard against is a stream that does not end:
 * nothing but the access notification (or the expiry timer) ends it before its session's hour is
 * up. So the bound sits far from both, where a busy machine's slowest round trip cannot reach it.
 */
const PROMPTLY_MS = 10_000;

beforeAll(async () => {
  a = await startInstance();
  b = await startInstance();
  const airlineId = await insertAirline(sql, 'Session Air');
  flightIds = await insertFlights(sql, airlineId, 5);
  await sql.listen(ACCESS_CHANNEL, (payload) => {
    const at = performance.now();
    for (const resolve of notices.get(payload)?.splice(0) ?? []) resolve(at);
  });
});

afterAll(() => {
  console.log('session end → stream end (ms)', JSON.stringify(measured));
});

/** Resolves with the time the next access notification for `userId` arrives (the commit). */
function nextNotice(userId: string): Promise<number> {
  return new Promise((resolve) => {
    const waiting = notices.get(userId) ?? [];
    waiting.push(resolve);
    notices.set(userId, waiting);
  });
}

/** A stream of `path` on `origin`. */
function openStream(origin: string, path: string, headers: Record<string, string> = {}) {
  return openSse(`${origin}${path}`, syncHeaders(headers));
}

type Stream = SseClient;

/** When the server closed the stream, if it did within `timeoutMs` (else undefined). */
async function closedByServer(stream: Stream, timeoutMs: number): Promise<number | undefined> {
  const end = await stream.endedWithin(timeoutMs);
  return end && end.reason === CLOSED_BY_SERVER ? end.at : undefined;
}

const PERSONAL = '/api/sync/stream?collections=favourites,cart';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

const customerWithSession = (sessionTtlSeconds = 3600) =>
  insertSignedInUser(sql, { sessionTtlSeconds });

async function openPersonal(token: string): Promise<Stream> {
  const stream = openStream(b.origin, PERSONAL, bearer(token));
  await stream.waitFor((event) => event.event === 'resync');
  return stream;
}

/** A change to the user's favourites, straight into the database (its session is gone). */
async function touchFavourites(user: AuthUser, flightId: string) {
  await sql`INSERT INTO favourites (user_id, flight_id) VALUES (${user.id}, ${flightId})
    ON CONFLICT (user_id, flight_id) DO UPDATE SET deleted = NOT favourites.deleted`;
}

/**
 * The stream ended promptly (PROMPTLY_MS) after the commit that ended its session, its last event
 * says why, a change written right after was not delivered, and a reconnect is refused.
 */
async function expectEndedBySessionEnd(
  name: string,
  stream: Stream,
  user: AuthUser,
  token: string,
  committedAt: number,
  options: { event?: string; reconnectStatus?: number } = {},
) {
  await touchFavourites(user, flightIds[0]!);
  const endedAt = await closedByServer(stream, PROMPTLY_MS);
  expect(endedAt).toBeDefined();
  const delay = endedAt! - committedAt;
  measured[name] = Math.round(delay);
  expect(delay).toBeLessThan(PROMPTLY_MS);
  const last = stream.events.at(-1);
  expect(last?.event).toBe(options.event ?? SESSION_ENDED_EVENT);
  expect(stream.events.filter((event) => event.event === 'changes')).toEqual([]);
  const again = await fetch(`${b.origin}${PERSONAL}`, { headers: syncHeaders(bearer(token)) });
  expect(again.status).toBe(options.reconnectStatus ?? 401);
  await again.body?.cancel();
  const me = await fetch(`${a.origin}/api/auth/me`, { headers: bearer(token) });
  expect(me.status).toBe(401);
}

describe('a stream ends promptly when its session ends', () => {
  test('logout', async () => {
    const { user, token } = await customerWithSession();
    const stream = await openPersonal(token);
    const committed = nextNotice(user.id);
    const logout = await fetch(`${a.origin}/api/auth/logout`, {
      method: 'POST',
      headers: bearer(token),
    });
    expect(logout.status).toBe(204);
    await expectEndedBySessionEnd('logout', stream, user, token, await committed);
  });

  test('password change ends the other sessions, not the one that changed it', async () => {
    const { user, token: other } = await customerWithSession();
    const { token: current } = await createSession(sql, user.id, 3600);
    const ended = await openPersonal(other);
    const kept = await openPersonal(current);
    const committed = nextNotice(user.id);
    const change = await fetch(`${a.origin}/api/auth/password/change`, {
      method: 'POST',
      headers: { ...bearer(current), 'Content-Type': 'application/json' },
      body: JSON.stringify({ oldPassword: ACTOR_PASSWORD, newPassword: 'Changed-Pass2!' }),
    });
    expect(change.status).toBe(200);
    const committedAt = await committed;
    // The changing session's own stream is still live and still delivers.
    await touchFavourites(user, flightIds[1]!);
    await kept.waitFor((event) => event.event === 'changes');
    expect(await kept.endedWithin(300)).toBe(false);
    await kept.close();
    await expectEndedBySessionEnd('password change', ended, user, other, committedAt);
  });

  test('password reset', async () => {
    const { user, token } = await customerWithSession();
    const stream = await openPersonal(token);
    await fetch(`${a.origin}/api/auth/password/forgot`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: user.email }),
    });
    await a.background.settled();
    const resetToken = await tokenFromMail(sql, user.email, 'reset-password');
    const committed = nextNotice(user.id);
    const reset = await fetch(`${a.origin}/api/auth/password/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: resetToken, password: 'Reset-Pass3!' }),
    });
    expect(reset.status).toBe(200);
    await expectEndedBySessionEnd('password reset', stream, user, token, await committed);
  });

  test("an administrator's disable", async () => {
    const { user, token } = await customerWithSession();
    const stream = await openPersonal(token);
    const committed = nextNotice(user.id);
    const disable = await fetch(`${a.origin}/api/user/disableUser`, {
      method: 'PUT',
      headers: { ...bearer(admin.token!), 'Content-Type': 'application/json' },
      body: JSON.stringify({ uid: user.uid }),
    });
    expect(disable.status).toBe(200);
    await expectEndedBySessionEnd('disable', stream, user, token, await committed);
  });

  test('deletion of the account', async () => {
    const { user, token } = await customerWithSession();
    const stream = await openPersonal(token);
    const committed = nextNotice(user.id);
    const deletion = await fetch(`${a.origin}/api/user/delete/${encodeURIComponent(user.email)}`, {
      method: 'DELETE',
      headers: bearer(admin.token!),
    });
    expect(deletion.status).toBe(200);
    await expectEndedBySessionEnd('delete', stream, user, token, await committed);
  });

  test('expiry, at the expiry and not before', async () => {
    // Long enough for the stream to open before its session expires on a busy machine too.
    const { user, token, expiresAt } = await customerWithSession(5);
    const stream = await openPersonal(token);
    // Wall clock of the expiry, on the monotonic clock the reader uses.
    const expiresAtMonotonic = performance.now() + (expiresAt.getTime() - Date.now());
    const endedAt = await closedByServer(
      stream,
      Math.max(0, expiresAt.getTime() - Date.now()) + PROMPTLY_MS,
    );
    expect(endedAt).toBeDefined();
    const delay = endedAt! - expiresAtMonotonic;
    measured.expiry = Math.round(delay);
    // Not before the expiry (a busy machine only makes the end later)...
    expect(delay).toBeGreaterThan(-50);
    // ...and promptly after it: the failure is a stream that outlives its session.
    expect(delay).toBeLessThan(PROMPTLY_MS);
    expect(stream.events.at(-1)).toMatchObject({
      event: SESSION_ENDED_EVENT,
      data: '{"reason":"expired"}',
    });
    await touchFavourites(user, flightIds[2]!);
    const again = await fetch(`${b.origin}${PERSONAL}`, { headers: syncHeaders(bearer(token)) });
    expect(again.status).toBe(401);
    await again.body?.cancel();
  });

  test("losing a partition's access: an airline's sales stream ends when its airline is deleted", async () => {
    const { user: owner, token } = await insertSignedInUser(sql, {
      role: 'airline',
      airlineStatus: 'approved',
    });
    const stream = openStream(b.origin, '/api/sync/sales/stream', bearer(token));
    await stream.waitFor((event) => event.event === 'resync');
    const committed = nextNotice(owner.id);
    const deletion = await fetch(`${a.origin}/api/airlines/delete/${owner.airlineId}`, {
      method: 'DELETE',
      headers: bearer(admin.token!),
    });
    expect(deletion.status).toBe(200);
    const endedAt = await closedByServer(stream, PROMPTLY_MS);
    expect(endedAt).toBeDefined();
    const delay = endedAt! - (await committed);
    measured['access lost'] = Math.round(delay);
    expect(delay).toBeLessThan(PROMPTLY_MS);
    expect(stream.events.at(-1)?.event).toBe(ACCESS_ENDED_EVENT);
    // The session itself lives on; only the partition is refused now.
    expect((await fetch(`${a.origin}/api/auth/me`, { headers: bearer(token) })).status).toBe(200);
    const again = await fetch(`${b.origin}/api/sync/sales/stream`, {
      headers: syncHeaders(bearer(token)),
    });
    expect(again.status).toBe(403);
    await again.body?.cancel();
  });
});

test("a guest's stream is unaffected by other users' session ends", async () => {
  const guest = openStream(b.origin, '/api/sync/flights/stream');
  await guest.waitFor((event) => event.event === 'resync');
  const { user, token } = await customerWithSession();
  const committed = nextNotice(user.id);
  await fetch(`${a.origin}/api/auth/logout`, { method: 'POST', headers: bearer(token) });
  await committed;
  await sql`UPDATE flights SET price_cents = price_cents + 1 WHERE id = ${flightIds[3]!}`;
  await guest.waitFor(
    (event) => event.event === 'changes' && event.data.includes(flightIds[3]!),
    PROMPTLY_MS,
  );
  expect(await guest.endedWithin(200)).toBe(false);
  await guest.close();
});

test('a stream opened in the moment its session ends is still ended (no gap before the LISTEN)', async () => {
  for (let i = 0; i < 5; i++) {
    const { token } = await customerWithSession();
    const stream = openStream(b.origin, PERSONAL, bearer(token));
    // The logout races the stream's opening: whichever wins, the stream must not stay open.
    await fetch(`${a.origin}/api/auth/logout`, { method: 'POST', headers: bearer(token) });
    const response = await stream.response;
    if (response.status === 401) continue;
    expect(await closedByServer(stream, PROMPTLY_MS)).toBeDefined();
  }
});
