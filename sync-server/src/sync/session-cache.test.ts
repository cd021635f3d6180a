// The sync requests' session cache (features/identity/session-cache.ts) across instances: two
// instances of the app on one database, each with its own pool, cache and LISTEN connection. A
// session ended through one instance (or in the database directly) is refused by the other within
// the cache's documented bound, also while the other's LISTEN connection is lost; a lookup that
// races a revocation is never kept.
import { randomUUID } from 'node:crypto';
import { calculateTotals } from '@skyport/shared';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSql } from '../db/client.ts';
import { insertFlight, putInCart, startCheckout } from '../features/checkout/testing.ts';
import {
  createSessionCache,
  SESSION_CACHE_DEFAULTS,
  type SessionChangeSource,
} from '../features/identity/session-cache.ts';
import { findSessionByHash, type LiveSession } from '../features/identity/sessions.ts';
import { createLogger } from '../lib/logger.ts';
import { insertSignedInUser, type SignedInUser } from '../test/actors.ts';
import { createTestHarness, type TestInstance } from '../test/harness.ts';
import { createAccessWatch } from './access-watch.ts';
import { sessionCacheFor } from './routes.ts';
import {
  insertAirline,
  insertFlights,
  pushedFavourite,
  pushInit,
  syncHeaders,
} from './test-fixtures.ts';

const { sql, url, startInstance } = await createTestHarness();
const logger = createLogger('silent');
const bound = SESSION_CACHE_DEFAULTS.maxStalenessMs;
let a: TestInstance;
let b: TestInstance;
let flightIds: string[];

beforeAll(async () => {
  a = await startInstance();
  b = await startInstance();
  flightIds = await insertFlights(sql, await insertAirline(sql, 'Cache Air'), 3);
});

const cacheOf = (instance: TestInstance) => sessionCacheFor({ sql: instance.sql, logger });

function pull(instance: TestInstance, who: SignedInUser) {
  return fetch(`${instance.origin}/api/sync/favourites/pull?limit=10`, {
    headers: syncHeaders(who.headers),
  });
}

/** Pulls on `instance` until its cache answers for `who` from memory (its LISTEN is proven live). */
async function warm(instance: TestInstance, who: SignedInUser): Promise<void> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    const before = cacheOf(instance).stats().hits;
    expect((await pull(instance, who)).status).toBe(200);
    if (cacheOf(instance).stats().hits > before) return;
    if (performance.now() > deadline) throw new Error('the session cache never answered');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Pulls on `instance` as `who` until it is refused, and returns the refusal's status and how long
 * after `since` its request was sent. `since` is taken once the revocation has committed, so a
 * request sent more than `limit` after it must be refused (the cache's guarantee): one accepted
 * fails. Timed by when each request was sent, never by when its answer came: a busy machine's
 * slow answers cannot fail it, a cache that trusts an entry past the bound always does.
 */
async function refusedAfter(
  instance: TestInstance,
  who: SignedInUser,
  since: number,
  limit: number,
): Promise<{ status: number; ms: number }> {
  for (;;) {
    const sent = performance.now() - since;
    const status = (await pull(instance, who)).status;
    if (status !== 200) return { status, ms: sent };
    if (sent > limit)
      throw new Error(`still accepted a pull sent ${Math.round(sent)} ms after the revocation`);
  }
}

describe('a session ended on one instance', () => {
  test('is refused by the other instance within the bound, and stays refused', async () => {
    const customer = await insertSignedInUser(sql);
    await warm(b, customer);
    const push = (instance: TestInstance) =>
      fetch(
        `${instance.origin}/api/sync/favourites/push`,
        pushInit(customer.headers, {
          rows: [
            {
              newDocumentState: pushedFavourite(customer.id, flightIds[0]!),
              assumedMasterState: null,
            },
          ],
        }),
      );
    expect((await push(b)).status).toBe(200);

    const logout = await fetch(`${a.origin}/api/auth/logout`, {
      method: 'POST',
      headers: customer.headers,
    });
    expect(logout.status).toBe(204);
    const { status, ms } = await refusedAfter(b, customer, performance.now(), bound);
    expect(status).toBe(401);
    console.log(
      `logout on A → refused on B, the pull sent ${Math.round(ms)} ms after (bound ${bound} ms)`,
    );
    expect((await push(b)).status).toBe(401);
    expect((await pull(b, customer)).status).toBe(401);
    expect((await pull(a, customer)).status).toBe(401);
  });

  test('a disabled account and a changed role are refused from the cache too', async () => {
    const disabled = await insertSignedInUser(sql);
    const turned = await insertSignedInUser(sql);
    await warm(b, disabled);
    await warm(b, turned);
    await sql`UPDATE users SET disabled = true WHERE id = ${disabled.id}`;
    await sql`UPDATE users SET role = 'super_admin' WHERE id = ${turned.id}`;
    const since = performance.now(); // both committed
    expect((await refusedAfter(b, disabled, since, bound)).status).toBe(401);
    // A super admin has no favourites partition: 403 from the role the cache now has.
    expect((await refusedAfter(b, turned, since, bound)).status).toBe(403);
  });

  test('is refused within the bound while the LISTEN connections are being lost', async () => {
    const customer = await insertSignedInUser(sql);
    await warm(b, customer);
    // Every LISTEN connection on this database ends (the instances reconnect on their own); the
    // session ends at once, so its notification may be lost for them.
    const [killed] = await sql<{ n: number }[]>`
      SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND query ILIKE 'listen%' AND pid <> pg_backend_pid()`;
    expect(killed!.n).toBeGreaterThan(0);
    await sql`DELETE FROM sessions WHERE user_id = ${customer.id}`;
    const since = performance.now(); // committed
    expect((await refusedAfter(b, customer, since, bound)).status).toBe(401);
    // The instance listens again and uses its cache again.
    const other = await insertSignedInUser(sql);
    await warm(b, other);
  });
});

describe('the cache itself', () => {
  const own = createSql(url, { max: 2 });
  const watch = createAccessWatch(own, logger);
  afterAll(async () => {
    await watch.close();
    await own.end({ timeout: 1 });
  });

  async function proven(source: SessionChangeSource): Promise<void> {
    const deadline = performance.now() + 10_000;
    while (source.deliveredUpTo() === undefined) {
      if (performance.now() > deadline) throw new Error('no delivery proof');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  test('a lookup that was in flight when its session ended is not kept', async () => {
    const customer = await insertSignedInUser(sql);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let lookups = 0;
    let answered!: () => void;
    const read = new Promise<void>((resolve) => (answered = resolve));
    const cache = createSessionCache(own, watch, {
      lookup: async (hash): Promise<LiveSession | undefined> => {
        lookups += 1;
        const found = await findSessionByHash(own, hash);
        answered();
        await gate;
        return found;
      },
    });
    await proven(watch);
    const inFlight = cache.find(customer.token);
    await read; // its read has been answered (before the logout below)
    await sql`DELETE FROM sessions WHERE user_id = ${customer.id}`;
    // Taken after the logout committed: a delivery proof sent later arrives behind its notice (a
    // proof sent between a stamp taken before the DELETE and its commit proved nothing of it).
    const ended = performance.now();
    while ((watch.deliveredUpTo() ?? 0) < ended) await new Promise((r) => setTimeout(r, 10));
    open();
    // It read the session before the logout: this request raced it and may pass...
    expect((await inFlight)?.user.id).toBe(customer.id);
    // ...but nothing kept it: the next lookup reads again and finds no session.
    expect(await cache.find(customer.token)).toBeUndefined();
    expect(lookups).toBe(2);
  });

  test('without proof of delivery it reads the database, and a revocation counts within the bound', async () => {
    const customer = await insertSignedInUser(sql);
    // The watch's notifications stop reaching the cache, as when a LISTEN connection stalls
    // without closing: no change arrives, and the delivery proof stops advancing.
    let cut = false;
    let frozen: number | undefined = undefined;
    const stalled: SessionChangeSource = {
      onChange: (listener) => watch.onChange((userId) => !cut && listener(userId)),
      deliveredUpTo: () => (cut ? frozen : watch.deliveredUpTo()),
    };
    const cache = createSessionCache(own, stalled);
    await proven(stalled);
    expect((await cache.find(customer.token))?.user.id).toBe(customer.id);
    expect((await cache.find(customer.token))?.user.id).toBe(customer.id);
    expect(cache.stats().hits).toBe(1);

    frozen = watch.deliveredUpTo();
    cut = true;
    const since = performance.now();
    await sql`DELETE FROM sessions WHERE user_id = ${customer.id}`;
    // Until the bound it may still answer from memory; from then on it reads the database. Timed
    // by when each lookup was asked (its answer may come late on a busy machine).
    for (;;) {
      const asked = performance.now() - since;
      if (!(await cache.find(customer.token))) break;
      expect(asked).toBeLessThanOrEqual(bound);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(cache.stats().bypassed).toBeGreaterThan(0);
  });

  test('an expired session is refused from the cache', async () => {
    const customer = await insertSignedInUser(sql, { sessionTtlSeconds: 1 });
    const cache = createSessionCache(own, watch);
    await proven(watch);
    expect(await cache.find(customer.token)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await cache.find(customer.token)).toBeUndefined();
  });
});

describe('checkout attempts', () => {
  test('take their session from the cache, and an email verified a moment ago counts at once', async () => {
    const airlineId = await insertAirline(sql, 'Cache Air');
    const flightId = await insertFlight(sql, airlineId, { priceCents: 100_00, tickets: 10 });
    const buyer = await insertSignedInUser(sql, { emailVerified: false });
    await putInCart(sql, buyer.id, flightId, 1);
    const amount = calculateTotals([{ unitPriceCents: 100_00, amount: 1 }]).totalCents;
    const attempt = () =>
      fetch(
        `${b.origin}/api/checkout`,
        startCheckout(
          buyer.headers,
          { method: 'card', paymentMethodId: 'pm_card_visa', amount },
          randomUUID(),
        ),
      );
    await warm(b, buyer);

    // Refused for the unverified address, with the user the cache holds (a hit, no lookup).
    const hits = cacheOf(b).stats().hits;
    const refused = await attempt();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ details: { reason: 'email_not_verified' } });
    expect(cacheOf(b).stats().hits).toBe(hits + 1);

    // Verified in the database (as the verification link does): the change notifies, so the next
    // checkout sees it within the cache's bound, not its entry TTL (022 migration).
    await sql`UPDATE users SET email_verified = true WHERE id = ${buyer.id}`;
    const since = performance.now();
    // Timed by when each attempt was sent: one sent past the bound must see the change, however
    // late a busy machine answers the ones before.
    let status = 403;
    while (status === 403) {
      const sent = performance.now() - since;
      status = (await attempt()).status;
      if (status === 403) expect(sent).toBeLessThanOrEqual(bound);
    }
    expect(status).toBe(200);
  });
});
