import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { insertBuyers, insertFlight } from '../features/checkout/testing.ts';
import { pushedFavourite, syncHeaders } from '../sync/test-fixtures.ts';
import { jsonRequest } from '../test/harness.ts';
import {
  createClusterDatabase,
  freePort,
  startInstance,
  type ClusterDatabase,
  type Instance,
  type InstanceOptions,
} from './instance.ts';
import { findNginx, startNginx, UPSTREAM_HEADER, type Nginx } from './nginx.ts';
import { openSse, type SseEvent } from '../test/sse.ts';

/**
 * docs/architecture.md §3: stateless instances on one PostgreSQL behind a reverse proxy. Two real server
 * processes (`serverCommand()` in instance.ts, production settings, TRUST_PROXY=true) and a real
 * nginx (nginx.ts) in front of them, all on loopback ports; every request below goes through
 * nginx unless it says "directly".
 *
 * Security note on X-Forwarded-For: with TRUST_PROXY=true an instance takes the client address
 * from the rightmost X-Forwarded-For entry, and nginx REPLACES that header with the address it
 * saw. A client that reached an instance directly could send any X-Forwarded-For and pick its
 * own address for the rate limits; that is impossible here only because the instances listen on
 * 127.0.0.1 (HOST=127.0.0.1), reachable by this machine's processes alone, i.e. the proxy. In a
 * deployment the instances must likewise be reachable only through the proxy (a private network
 * or loopback) whenever TRUST_PROXY=true. (Documented, deliberately not tested.)
 */

/** nginx's proxy_read_timeout in this run: above the 20 s SSE heartbeat, low enough to test. */
const READ_TIMEOUT_SECONDS = 25;
const CUSTOMER = { email: 'customer@skyport.test', password: 'Customer123!' };
const ADMIN_EMAIL = 'admin@skyport.test';
const TEST_CARD = '4242424242424242';

let dir = '';
let db: ClusterDatabase | undefined;
let nginx: Nginx | undefined;
let a: Instance | undefined;
let b: Instance | undefined;
const instanceOptions: Record<'a' | 'b', InstanceOptions> = {} as Record<
  'a' | 'b',
  InstanceOptions
>;
/** Requests this file sent through the proxy (the access log counts them too). */
let proxyRequests = 0;

beforeAll(async () => {
  findNginx(); // fails first, in one line, when nginx is missing
  dir = await mkdtemp(path.join(tmpdir(), 'skyport-cluster-'));
  db = await createClusterDatabase();
  const [portA, portB, proxyPort] = [await freePort(), await freePort(), await freePort()];
  const appOrigin = `http://127.0.0.1:${proxyPort}`;
  instanceOptions.a = {
    name: 'a',
    port: portA,
    databaseUrl: db.url,
    appOrigin,
    seedDemo: true,
  };
  instanceOptions.b = { ...instanceOptions.a, name: 'b', port: portB, seedDemo: false };
  // The first migrates and loads the demo data; the second starts on the ready database (and
  // runs the migrations too: none left to apply).
  a = await startInstance(instanceOptions.a);
  b = await startInstance(instanceOptions.b);
  nginx = await startNginx({
    dir,
    port: proxyPort,
    upstreams: { a: portA, b: portB },
    readTimeoutSeconds: READ_TIMEOUT_SECONDS,
  });
  console.log(
    `cluster: nginx ${nginx.origin} → a ${a.origin}, b ${b.origin}; database ${db.name}; logs in ${dir}`,
  );
});

afterAll(async () => {
  for (const instance of [a, b]) await instance?.stop('SIGTERM', 15_000).catch(() => {});
  if (nginx) {
    const entries = nginx.accessEntries();
    const byUpstream = new Map<string, number>();
    for (const entry of entries)
      for (const upstream of entry.upstreams)
        byUpstream.set(upstream, (byUpstream.get(upstream) ?? 0) + 1);
    console.log(
      `cluster total: ${proxyRequests} requests sent through the proxy; nginx logged ${entries.length}, ` +
        `answered by ${[...byUpstream].map(([k, v]) => `${k}: ${v}`).join(', ')}`,
    );
    await nginx.stop();
  }
  await db?.drop();
  // CLUSTER_KEEP_LOGS=1 keeps the nginx config and logs for a look afterwards.
  if (dir && !process.env.CLUSTER_KEEP_LOGS) await rm(dir, { recursive: true, force: true });
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    const tail = (text: string) => text.slice(-6_000);
    console.log(`--- nginx error log (${nginx?.errorLogPath}):\n${tail(nginx?.errorLog() ?? '')}`);
    for (const instance of [a, b])
      if (instance)
        console.log(`--- instance ${instance.name} output:\n${tail(instance.output())}`);
  });
});

// Helpers -----------------------------------------------------------------------------------------

function proxy(): Nginx {
  if (!nginx) throw new Error('nginx is not running');
  return nginx;
}
function instance(name: 'a' | 'b'): Instance {
  const found = name === 'a' ? a : b;
  if (!found) throw new Error(`instance ${name} is not running`);
  return found;
}

/** A request through nginx (`/__pin/a/api/...` pins it to one instance). */
function viaProxy(pathname: string, init: RequestInit = {}): Promise<Response> {
  proxyRequests += 1;
  return fetch(`${proxy().origin}${pathname}`, init);
}

/** What a browser on the PWA's origin sends with a signed-in request. */
function browserHeaders(cookie: string): Record<string, string> {
  return { Cookie: cookie, Origin: proxy().origin };
}

interface Session {
  cookie: string;
  userId: string;
}

async function login(email: string, password: string): Promise<Session> {
  const response = await viaProxy(
    '/api/auth/login',
    jsonRequest('POST', { email, password }, { Origin: proxy().origin }),
  );
  const body = (await response.json()) as { user?: { id: string } };
  if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
  const cookie = /((?:__Host-)?skyport_session=[^;]*)/.exec(
    response.headers.get('set-cookie') ?? '',
  )?.[1];
  if (!cookie || !body.user) throw new Error('login set no session cookie');
  return { cookie, userId: body.user.id };
}

let customerSession: Promise<Session> | undefined;
/** The demo customer, logged in once through the proxy. */
function customer(): Promise<Session> {
  customerSession ??= login(CUSTOMER.email, CUSTOMER.password);
  return customerSession;
}

function pushFavourite(
  prefix: string,
  auth: Record<string, string>,
  userId: string,
  flightId: string,
) {
  return viaProxy(
    `${prefix}/api/sync/favourites/push`,
    jsonRequest(
      'POST',
      { rows: [{ newDocumentState: pushedFavourite(userId, flightId) }] },
      syncHeaders(auth),
    ),
  );
}

const changesWith = (id: string) => (event: SseEvent) =>
  event.event === 'changes' &&
  (JSON.parse(event.data) as { documents: { id: string }[] }).documents.some(
    (doc) => doc.id === id,
  );

/** Flights the user has not favourited, from the demo catalogue. */
async function flightsNotFavourited(userId: string, count: number): Promise<string[]> {
  const rows = await db!.sql<{ id: string }[]>`
    SELECT f.id FROM flights f
    WHERE NOT f.deleted AND NOT EXISTS (
      SELECT 1 FROM favourites fv WHERE fv.user_id = ${userId} AND fv.flight_id = f.id AND NOT fv.deleted)
    ORDER BY f.id LIMIT ${count}`;
  return rows.map((row) => row.id);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1] ?? NaN;

// 1 -----------------------------------------------------------------------------------------------

test('1. a session made through the proxy works on both instances, and a checkout completes through the proxy on either', async () => {
  const session = await customer();
  // Sessions live in PostgreSQL: the cookie the proxy handed out works on each instance directly.
  for (const name of ['a', 'b'] as const) {
    const me = await fetch(`${instance(name).origin}/api/auth/me`, {
      headers: { Cookie: session.cookie },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(CUSTOMER.email);
  }
  // The proxy spreads requests over both instances.
  const answeredBy = new Map<string, number>();
  for (let i = 0; i < 20; i++) {
    const me = await viaProxy('/api/auth/me', { headers: { Cookie: session.cookie } });
    expect(me.status).toBe(200);
    await me.body?.cancel();
    const upstream = me.headers.get(UPSTREAM_HEADER) ?? 'none';
    answeredBy.set(upstream, (answeredBy.get(upstream) ?? 0) + 1);
  }
  expect([...answeredBy.keys()].sort()).toEqual(
    [instance('a').address, instance('b').address].sort(),
  );

  // A full checkout (cart, quote, test card) through the proxy, pinned to each instance in turn.
  const flights = await db!.sql<{ id: string; tickets: number }[]>`
    SELECT id, tickets FROM flights WHERE NOT deleted AND tickets >= 10 AND departure_date > current_date + 1
    ORDER BY departure_date, id LIMIT 2`;
  expect(flights).toHaveLength(2);
  const report: string[] = [];
  for (const [index, name] of (['a', 'b'] as const).entries()) {
    const prefix = `/__pin/${name}`;
    const flight = flights[index]!;
    const headers = browserHeaders(session.cookie);
    const cart = await viaProxy(
      `${prefix}/api/cart`,
      jsonRequest('PUT', { lines: [{ flightId: flight.id, amount: 2 }] }, headers),
    );
    expect(cart.status).toBe(200);
    expect(cart.headers.get(UPSTREAM_HEADER)).toBe(instance(name).address);
    const { totalCents } = (await cart.json()) as { totalCents: number };
    const key = randomUUID();
    const paid = await viaProxy(
      `${prefix}/api/checkout`,
      jsonRequest(
        'POST',
        { method: 'card', paymentMethodId: TEST_CARD, amount: totalCents, idempotencyKey: key },
        { ...headers, 'Idempotency-Key': key },
      ),
    );
    const body = (await paid.json()) as { status: string; order: { id: string } };
    expect(paid.status, JSON.stringify(body)).toBe(200);
    expect(paid.headers.get(UPSTREAM_HEADER)).toBe(instance(name).address);
    expect(body.status).toBe('succeeded');
    // The order is there for the other instance, asked directly.
    const other = instance(name === 'a' ? 'b' : 'a');
    const orders = await fetch(`${other.origin}/api/orders`, {
      headers: { Cookie: session.cookie },
    });
    expect(orders.status).toBe(200);
    expect(((await orders.json()) as { id: string }[]).map((order) => order.id)).toContain(
      body.order.id,
    );
    const [after] = await db!.sql<
      { tickets: number }[]
    >`SELECT tickets FROM flights WHERE id = ${flight.id}`;
    expect(after!.tickets).toBe(flight.tickets - 2);
    report.push(`order ${body.order.id.slice(0, 8)} via ${name}`);
  }
  console.log(
    `1. requests through the proxy answered by: ${[...answeredBy].map(([k, v]) => `${k} ×${v}`).join(', ')}; checkouts: ${report.join(', ')}`,
  );
});

// 2 -----------------------------------------------------------------------------------------------

test('2. a favourite pushed through instance A reaches an SSE client of instance B', async () => {
  const session = await customer();
  const flightIds = await flightsNotFavourited(session.userId, 5);
  const stream = openSse(
    `${proxy().origin}/__pin/b/api/sync/favourites/stream`,
    syncHeaders({ Cookie: session.cookie }),
  );
  proxyRequests += 1;
  const response = await stream.response;
  expect(response.status).toBe(200);
  expect(response.headers.get(UPSTREAM_HEADER)).toBe(instance('b').address);
  await stream.waitFor((event) => event.event === 'resync');

  const fromSent: number[] = [];
  const fromAnswered: number[] = [];
  for (const flightId of flightIds) {
    const sent = performance.now();
    const pushed = await pushFavourite(
      '/__pin/a',
      browserHeaders(session.cookie),
      session.userId,
      flightId,
    );
    const answered = performance.now();
    expect(pushed.status).toBe(200);
    expect(pushed.headers.get(UPSTREAM_HEADER)).toBe(instance('a').address);
    // Written as sent: nothing in the answer (decision 027); the stored document, with the
    // server's own flight summary, comes with the stream.
    expect(await pushed.json()).toEqual([]);
    const event = await stream.waitFor(changesWith(flightId), 5_000);
    const { documents } = JSON.parse(event.data) as {
      documents: { id: string; airlineName: string; _deleted: boolean }[];
    };
    const stored = documents.find((doc) => doc.id === flightId);
    expect(stored).toMatchObject({ _deleted: false });
    expect(stored?.airlineName).not.toBe('Stale name');
    fromSent.push(Math.round(event.at - sent));
    fromAnswered.push(Math.round(event.at - answered));
  }
  await stream.close();
  console.log(
    `2. SSE delay across instances (push via nginx→A, stream via nginx→B), ${fromSent.length} changes: ` +
      `from push sent ${fromSent.join(', ')} ms (median ${median(fromSent)}), ` +
      `from push answered ${fromAnswered.join(', ')} ms (median ${median(fromAnswered)})`,
  );
  expect(Math.max(...fromSent)).toBeLessThan(2_000);
});

// 3 -----------------------------------------------------------------------------------------------

test('3. the login rate limit counts the address nginx saw; a forged X-Forwarded-For does not escape it', async () => {
  const tag = randomUUID().slice(0, 8);
  const attempt = (i: number, headers: Record<string, string> = {}) =>
    viaProxy(
      '/api/auth/login',
      jsonRequest(
        'POST',
        // A different (unknown) account each time: only the per-address limit can trip.
        { email: `nobody-${tag}-${i}@cluster.test`, password: 'Wrong-Pass-1!' },
        { Origin: proxy().origin, ...headers },
      ),
    );
  const statuses: number[] = [];
  for (let batch = 0; batch < 10 && !statuses.includes(429); batch++) {
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => attempt(batch * 10 + i)),
    );
    for (const response of responses) {
      statuses.push(response.status);
      await response.body?.cancel();
    }
  }
  const refused = statuses.filter((status) => status === 401).length;
  expect(statuses).toContain(429);
  expect(refused).toBeLessThanOrEqual(50); // loginPerIp: 50 per 15 minutes
  expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);

  // The client names another address: nginx replaces the header, the instance still sees 127.0.0.1.
  const forged = await attempt(1_000, { 'X-Forwarded-For': '1.2.3.4' });
  expect(forged.status).toBe(429);
  await forged.body?.cancel();
  const forgedChain = await attempt(1_001, { 'X-Forwarded-For': '5.6.7.8, 1.2.3.4' });
  expect(forgedChain.status).toBe(429);
  await forgedChain.body?.cancel();

  const keys = await db!.sql<{ key: string; hits: number }[]>`
    SELECT key, hits FROM rate_limits WHERE key LIKE 'login:ip:%'`;
  expect(keys.map((row) => row.key)).toEqual(['login:ip:127.0.0.1']);
  expect(keys[0]!.hits).toBeGreaterThanOrEqual(statuses.length + 2);
  console.log(
    `3. login rate limit through the proxy: ${refused} × 401 then 429 after ${statuses.indexOf(429) + 1} attempts ` +
      `(${statuses.length} sent); forged X-Forwarded-For 1.2.3.4 → ${forged.status}, "5.6.7.8, 1.2.3.4" → ${forgedChain.status}; ` +
      `rate_limits keys: ${keys.map((row) => `${row.key}=${row.hits}`).join(', ')}`,
  );
  // Give the address back to the remaining tests (they sign in with bearer tokens anyway).
  await db!.sql`DELETE FROM rate_limits WHERE key = 'login:ip:127.0.0.1'`;
});

// 4 -----------------------------------------------------------------------------------------------

test('4. the outbox answers no reset token through the proxy, whatever X-Forwarded-For says', async () => {
  const forgot = await viaProxy(
    '/api/auth/password/forgot',
    jsonRequest('POST', { email: ADMIN_EMAIL }, { Origin: proxy().origin }),
  );
  expect(forgot.status).toBe(202);
  await forgot.body?.cancel();
  // The reset link exists (the database outbox holds it): what must not leak is real. The email
  // is a job on the queue (decision 034): it lands in the outbox shortly after.
  const resetToken = async () => {
    const [mail] = await db!.sql<{ text_body: string }[]>`
      SELECT text_body FROM email_outbox WHERE lower(to_address) = ${ADMIN_EMAIL}
      ORDER BY created_at DESC LIMIT 1`;
    return mail && /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1];
  };
  await expect.poll(resetToken, { timeout: 30_000 }).toBeDefined();
  const token = await resetToken();

  const session = await customer();
  const query = `?to=${encodeURIComponent(ADMIN_EMAIL)}`;
  const probes: { path: string; headers: Record<string, string>; label: string }[] = [];
  for (const prefix of ['', '/__pin/a', '/__pin/b']) {
    for (const route of ['/api/dev/outbox', '/api/admin/outbox']) {
      probes.push({ path: `${prefix}${route}${query}`, headers: {}, label: 'no header' });
      probes.push({
        path: `${prefix}${route}${query}`,
        headers: { 'X-Forwarded-For': '127.0.0.1' },
        label: 'X-Forwarded-For: 127.0.0.1',
      });
      probes.push({
        path: `${prefix}${route}${query}`,
        headers: { Cookie: session.cookie, 'X-Forwarded-For': '127.0.0.1' },
        label: 'customer session',
      });
    }
  }
  const seen: string[] = [];
  for (const probe of probes) {
    const response = await viaProxy(probe.path, { headers: probe.headers });
    const text = await response.text();
    seen.push(`${probe.path.split('?')[0]} (${probe.label}) → ${response.status}`);
    expect([401, 403, 404], `${probe.path} (${probe.label}): ${text}`).toContain(response.status);
    expect(text).not.toContain(token!);
    expect(text).not.toMatch(/reset-password|token=/);
  }
  console.log(`4. outbox through the proxy:\n   ${seen.join('\n   ')}`);
});

// 5 -----------------------------------------------------------------------------------------------

test(`5. SSE through nginx: changes arrive unbuffered, and an idle stream outlives proxy_read_timeout (${READ_TIMEOUT_SECONDS} s) on heartbeats`, async () => {
  const session = await customer();
  const [first, second] = await flightsNotFavourited(session.userId, 2);
  const stream = openSse(
    `${proxy().origin}/api/sync/favourites/stream`,
    syncHeaders({ Cookie: session.cookie }),
  );
  proxyRequests += 1;
  const response = await stream.response;
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  await stream.waitFor((event) => event.event === 'resync');

  // Unbuffered: the change arrives while the stream stays open.
  let sent = performance.now();
  const pushed = await pushFavourite('', browserHeaders(session.cookie), session.userId, first!);
  expect(pushed.status).toBe(200);
  await pushed.body?.cancel();
  const event = await stream.waitFor(changesWith(first!), 3_000);
  const firstDelay = Math.round(event.at - sent);
  expect(stream.ended()).toBe(false);

  // Idle for longer than proxy_read_timeout: only heartbeats keep nginx from closing it.
  const idleFrom = performance.now();
  await sleep((READ_TIMEOUT_SECONDS + 2) * 1_000);
  expect(stream.ended()).toBe(false);
  const heartbeats = stream.comments.filter((comment) => comment.at > idleFrom);
  expect(heartbeats.length).toBeGreaterThanOrEqual(1);

  // And it still carries changes.
  sent = performance.now();
  const again = await pushFavourite('', browserHeaders(session.cookie), session.userId, second!);
  expect(again.status).toBe(200);
  await again.body?.cancel();
  const later = await stream.waitFor(changesWith(second!), 3_000);
  const secondDelay = Math.round(later.at - sent);
  const idleSeconds = ((later.at - idleFrom) / 1000).toFixed(1);
  await stream.close();
  console.log(
    `5. SSE through nginx: first change after ${firstDelay} ms; idle ${idleSeconds} s (proxy_read_timeout ${READ_TIMEOUT_SECONDS} s) ` +
      `with ${heartbeats.length} heartbeat(s) (${heartbeats.map((h) => `${((h.at - idleFrom) / 1000).toFixed(1)} s`).join(', ')}), ` +
      `then a change after ${secondDelay} ms on the same stream`,
  );
  expect(firstDelay).toBeLessThan(2_000);
  expect(secondDelay).toBeLessThan(2_000);
});

// 6 -----------------------------------------------------------------------------------------------

test('6. a rolling restart (SIGTERM A, restart it, then B) loses no accepted checkout and no pushed change', async () => {
  const sql = db!.sql;
  const BUYERS = 20;
  const MIN_ROUNDS = 3;
  /** Statuses that leave a request's outcome open: the client sends it again, same key. */
  const RETRYABLE = new Set([500, 502, 503, 504]);
  const deadline = Date.now() + 90_000;

  const [airline] = await sql<{ id: string }[]>`
    SELECT a.id FROM airlines a JOIN users u ON u.id = a.owner_user_id WHERE u.email = 'airline@skyport.test'`;
  const flightIds: string[] = [];
  for (let i = 0; i < 3; i++)
    flightIds.push(await insertFlight(sql, airline!.id, { tickets: 1_000, priceCents: 120_00 }));
  const stockOf = async () =>
    (
      await sql<{ total: number }[]>`
        SELECT coalesce(sum(tickets), 0)::int AS total FROM flights WHERE id = ANY(${flightIds}::uuid[])`
    )[0]!.total;
  const stockBefore = await stockOf();
  const buyers = await insertBuyers(sql, BUYERS);
  const favouriteFlights = (
    await sql<{ id: string }[]>`SELECT id FROM flights WHERE NOT deleted ORDER BY id LIMIT 400`
  ).map((row) => row.id);

  const seen = new Map<string, number>();
  const note = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
  let requests = 0;
  let retries = 0;
  let retriedCheckouts = 0;

  /** Sends until the answer is definite (2xx/4xx) or the deadline passes (status 0). */
  async function untilDefinite(
    send: () => Promise<Response>,
  ): Promise<{ status: number; body: unknown; attempts: number }> {
    for (let attempt = 1; ; attempt++) {
      requests += 1;
      let response: Response | undefined;
      try {
        response = await send();
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        note(`network error ${cause?.code ?? (error as Error).name}`);
      }
      if (response) {
        note(String(response.status));
        if (!RETRYABLE.has(response.status)) {
          const text = await response.text();
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          return { status: response.status, body, attempts: attempt };
        }
        await response.body?.cancel();
      }
      if (Date.now() > deadline) return { status: 0, body: null, attempts: attempt };
      retries += 1;
      await sleep(Math.min(50 * 2 ** attempt, 1_000));
    }
  }

  const send = (pathname: string, init: RequestInit) => {
    proxyRequests += 1;
    return fetch(`${proxy().origin}${pathname}`, { ...init, signal: AbortSignal.timeout(45_000) });
  };

  interface Accepted {
    userId: string;
    key: string;
    orderId: string;
    flightId: string;
    amount: number;
  }
  const accepted: Accepted[] = [];
  const refused: { key: string; status: number; body: unknown }[] = [];
  const undecided: { key: string }[] = [];
  const pushed: { userId: string; flightId: string }[] = [];
  const pushRefused: { status: number; body: unknown }[] = [];
  let restartsDone = false;

  async function customerLoop(buyer: (typeof buyers)[number], i: number) {
    for (let round = 0; round < 60 && !(restartsDone && round >= MIN_ROUNDS); round++) {
      if (Date.now() > deadline) break;
      const flightId = flightIds[(i + round) % flightIds.length]!;
      const amount = 1 + ((i + round) % 3);
      const cart = await untilDefinite(() =>
        send('/api/cart', jsonRequest('PUT', { lines: [{ flightId, amount }] }, buyer.headers)),
      );
      if (cart.status !== 200) {
        refused.push({ key: 'cart', status: cart.status, body: cart.body });
        continue;
      }
      const key = randomUUID();
      const body = {
        method: 'card',
        paymentMethodId: TEST_CARD,
        amount: (cart.body as { totalCents: number }).totalCents,
        idempotencyKey: key,
      };
      const checkout = await untilDefinite(() =>
        send(
          '/api/checkout',
          jsonRequest('POST', body, { ...buyer.headers, 'Idempotency-Key': key }),
        ),
      );
      if (checkout.attempts > 1) retriedCheckouts += 1;
      if (checkout.status >= 200 && checkout.status < 300) {
        const orderId = (checkout.body as { order: { id: string } }).order.id;
        accepted.push({ userId: buyer.id, key, orderId, flightId, amount });
      } else if (checkout.status === 0) {
        undecided.push({ key });
      } else {
        refused.push({ key, status: checkout.status, body: checkout.body });
      }

      const favourite = favouriteFlights[(i * 20 + round) % favouriteFlights.length]!;
      const push = await untilDefinite(() =>
        send(
          '/api/sync/favourites/push',
          jsonRequest(
            'POST',
            { rows: [{ newDocumentState: pushedFavourite(buyer.id, favourite) }] },
            syncHeaders(buyer.headers),
          ),
        ),
      );
      if (push.status === 200) pushed.push({ userId: buyer.id, flightId: favourite });
      else pushRefused.push({ status: push.status, body: push.body });
    }
  }

  const restarts: string[] = [];
  const exitCodes: Record<string, number | string> = {};
  async function rollingRestart() {
    try {
      for (const name of ['a', 'b'] as const) {
        // Mid-storm: 15 more checkouts accepted since the start (or the previous restart).
        const target = accepted.length + 15;
        while (accepted.length < target && Date.now() < deadline) await sleep(20);
        const signalled = Date.now();
        const stopped = await instance(name).stop('SIGTERM', 30_000);
        exitCodes[name] = stopped.code;
        // Requests this instance finished between the signal and its exit: in flight when it came.
        const address = instance(name).address;
        const drained = proxy()
          .accessEntries()
          .filter(
            (entry) =>
              entry.upstreams.at(-1) === address &&
              entry.at >= signalled &&
              entry.at <= Date.now() &&
              entry.status < 300,
          ).length;
        const started = performance.now();
        const restarted = await startInstance(instanceOptions[name]);
        if (name === 'a') a = restarted;
        else b = restarted;
        const ready = Date.now();
        const readyMs = Math.round(performance.now() - started);
        // A rolling restart goes on only once the proxy sends traffic to the restarted instance
        // again: nginx (passive health checks) keeps a failed server out for fail_timeout, and
        // stopping the other one meanwhile would leave it no live upstream at all.
        while (
          Date.now() < deadline &&
          !proxy()
            .accessEntries()
            .some(
              (entry) =>
                entry.upstreams.at(-1) === address && entry.at >= ready && entry.status < 300,
            )
        )
          await sleep(50);
        restarts.push(
          `${name}: SIGTERM→exit ${stopped.ms} ms (code ${stopped.code}), ${drained} request(s) completed by it after the signal, ` +
            `restart→ready ${readyMs} ms, back in the proxy's rotation ${Date.now() - ready} ms later`,
        );
      }
    } finally {
      restartsDone = true;
    }
  }

  const started = performance.now();
  const results = await Promise.allSettled([
    rollingRestart(),
    ...buyers.map((buyer, i) => customerLoop(buyer, i)),
  ]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const accessLogged = proxy().accessEntries().length;
  const errorLog = proxy().errorLog();
  const occurrences = (needle: string) => errorLog.split(needle).length - 1;
  const proxyErrors =
    `nginx error log (whole run so far): ${occurrences('connect() failed')} connection refused (retried on the other instance), ` +
    `${occurrences('upstream prematurely closed')} upstream closed a kept-alive connection, ` +
    `${occurrences('no live upstreams')} no live upstream`;
  const statusList = [...seen]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
  console.log(
    `6. rolling restart: ${seconds} s, ${accepted.length} checkouts accepted (${accepted.reduce((n, x) => n + x.amount, 0)} tickets), ` +
      `${pushed.length} pushes accepted; ${requests} requests through the proxy (${retries} retries, ${retriedCheckouts} checkouts retried with their key); ` +
      `answers: ${statusList}; refused: ${refused.length}, undecided: ${undecided.length}; nginx access log now ${accessLogged} lines\n   ` +
      `${proxyErrors}\n   ${restarts.join('\n   ')}`,
  );
  for (const result of results) if (result.status === 'rejected') throw result.reason;

  expect(undecided).toEqual([]);
  expect(refused).toEqual([]);
  expect(pushRefused).toEqual([]);
  expect(restarts).toHaveLength(2);
  expect(exitCodes, 'exit codes after SIGTERM').toEqual({ a: 0, b: 0 });

  // Every accepted checkout has exactly one order, confirmed, the one it was answered with.
  const buyerIds = buyers.map((buyer) => buyer.id);
  const orders = await sql<
    { id: string; user_id: string; status: string; deleted: boolean; key: string | null }[]
  >`
    SELECT o.id, o.user_id, o.status, o.deleted, p.idempotency_key AS key
    FROM orders o LEFT JOIN payments p ON p.order_id = o.id
    WHERE o.user_id = ANY(${buyerIds}::uuid[])`;
  const byKey = new Map<string, (typeof orders)[number][]>();
  for (const order of orders) {
    const key = `${order.user_id}:${order.key}`;
    byKey.set(key, [...(byKey.get(key) ?? []), order]);
  }
  for (const checkout of accepted) {
    const found = byKey.get(`${checkout.userId}:${checkout.key}`) ?? [];
    expect(found.map((order) => order.id)).toEqual([checkout.orderId]);
    expect(found[0]).toMatchObject({ status: 'confirmed', deleted: false });
  }
  // No key has two orders, no order lacks its payment, no order the clients were not told about.
  expect([...byKey].filter(([, list]) => list.length > 1)).toEqual([]);
  expect(orders.filter((order) => order.key === null)).toEqual([]);
  expect(orders.filter((order) => order.status === 'confirmed' && !order.deleted)).toHaveLength(
    accepted.length,
  );
  const [payments] = await sql<{ open: number; captured: number }[]>`
    SELECT count(*) FILTER (WHERE status NOT IN ('captured', 'released', 'failed'))::int AS open,
           count(*) FILTER (WHERE status = 'captured')::int AS captured
    FROM payments WHERE user_id = ANY(${buyerIds}::uuid[])`;
  expect(payments).toEqual({ open: 0, captured: accepted.length });

  // Tickets sold == stock decrease == what the accepted checkouts bought.
  const [sold] = await sql<{ tickets: number }[]>`
    SELECT coalesce(sum(l.amount), 0)::int AS tickets FROM order_lines l JOIN orders o ON o.id = l.order_id
    WHERE l.flight_id = ANY(${flightIds}::uuid[]) AND o.status = 'confirmed' AND NOT o.deleted`;
  const stockAfter = await stockOf();
  expect(sold!.tickets).toBe(stockBefore - stockAfter);
  expect(sold!.tickets).toBe(accepted.reduce((n, x) => n + x.amount, 0));

  // Every accepted push is stored.
  const favourites = await sql<{ user_id: string; flight_id: string }[]>`
    SELECT user_id, flight_id FROM favourites WHERE user_id = ANY(${buyerIds}::uuid[]) AND NOT deleted`;
  const stored = new Set(favourites.map((row) => `${row.user_id}:${row.flight_id}`));
  expect(pushed.filter((push) => !stored.has(`${push.userId}:${push.flightId}`))).toEqual([]);
  console.log(
    `6. database: ${orders.length} orders for ${accepted.length} accepted checkouts, ${sold!.tickets} tickets sold = stock ${stockBefore} → ${stockAfter}; ` +
      `${stored.size} favourites stored for ${pushed.length} accepted pushes`,
  );
});
