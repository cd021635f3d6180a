import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { pushedFavourite, syncHeaders } from '../sync/test-fixtures.ts';
import { jsonRequest } from '../test/harness.ts';
import { openSse, type SseEvent } from '../test/sse.ts';
import {
  createClusterDatabase,
  freePort,
  startInstance,
  type ClusterDatabase,
  type Instance,
} from './instance.ts';
import { findNginx, startNginx, UPSTREAM_HEADER, type Nginx } from './nginx.ts';

/**
 * Sync on instances of its own (docs/decisions/025-sync-on-instances-of-its-own.md): a real nginx
 * sends `/api/sync/` to an instance started with INSTANCE_ROLE=sync and everything else to one
 * with INSTANCE_ROLE=app, both the production start on one PostgreSQL. The PWA sees one origin.
 */

const CUSTOMER = { email: 'customer@skyport.test', password: 'Customer123!' };
const TEST_CARD = '4242424242424242';

let dir = '';
let db: ClusterDatabase | undefined;
let nginx: Nginx | undefined;
let app: Instance | undefined;
let sync: Instance | undefined;

beforeAll(async () => {
  findNginx();
  dir = await mkdtemp(path.join(tmpdir(), 'skyport-roles-'));
  db = await createClusterDatabase();
  const [appPort, syncPort, proxyPort] = [await freePort(), await freePort(), await freePort()];
  const common = { databaseUrl: db.url, appOrigin: `http://127.0.0.1:${proxyPort}` };
  app = await startInstance({
    ...common,
    name: 'app',
    port: appPort,
    seedDemo: true,
    env: { INSTANCE_ROLE: 'app' },
  });
  sync = await startInstance({
    ...common,
    name: 'sync',
    port: syncPort,
    env: { INSTANCE_ROLE: 'sync' },
  });
  nginx = await startNginx({
    dir,
    port: proxyPort,
    upstreams: { app: appPort },
    syncUpstreams: { sync: syncPort },
  });
});

afterAll(async () => {
  for (const instance of [app, sync]) await instance?.stop('SIGTERM', 15_000).catch(() => {});
  await nginx?.stop();
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function viaProxy(pathname: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${nginx!.origin}${pathname}`, init);
}

test('through the proxy the two make one product: pages and checkout on the app instance, sync on the sync instance, a sale streamed to a device', async () => {
  const origin = nginx!.origin;
  const page = await viaProxy('/payment');
  expect(page.status).toBe(200);
  expect(page.headers.get(UPSTREAM_HEADER)).toBe(app!.address);

  const login = await viaProxy(
    '/api/auth/login',
    jsonRequest('POST', CUSTOMER, { Origin: origin }),
  );
  expect(login.status).toBe(200);
  expect(login.headers.get(UPSTREAM_HEADER)).toBe(app!.address);
  const { user } = (await login.json()) as { user: { id: string } };
  const cookie = /((?:__Host-)?skyport_session=[^;]*)/.exec(
    login.headers.get('set-cookie') ?? '',
  )![1]!;
  const headers = { Cookie: cookie, Origin: origin };

  const [flight] = await db!.sql<{ id: string; tickets: number }[]>`
    SELECT id, tickets FROM flights WHERE NOT deleted AND tickets >= 10 AND departure_date > current_date + 1
    ORDER BY departure_date, id LIMIT 1`;
  // A device's live stream and its pushes: answered by the sync instance.
  const stream = openSse(`${origin}/api/sync/flights/stream`, syncHeaders(headers));
  const streamed = await stream.response;
  expect(streamed.status).toBe(200);
  expect(streamed.headers.get(UPSTREAM_HEADER)).toBe(sync!.address);
  await stream.waitFor((event) => event.event === 'resync');
  const pushed = await viaProxy(
    '/api/sync/favourites/push',
    jsonRequest(
      'POST',
      { rows: [{ newDocumentState: pushedFavourite(user.id, flight!.id) }] },
      syncHeaders(headers),
    ),
  );
  expect(pushed.status).toBe(200);
  expect(pushed.headers.get(UPSTREAM_HEADER)).toBe(sync!.address);

  // The cart and the checkout: answered by the app instance; the sale reaches the stream.
  const cart = await viaProxy(
    '/api/cart',
    jsonRequest('PUT', { lines: [{ flightId: flight!.id, amount: 2 }] }, headers),
  );
  expect(cart.status).toBe(200);
  const { totalCents } = (await cart.json()) as { totalCents: number };
  const key = randomUUID();
  const paid = await viaProxy(
    '/api/checkout',
    jsonRequest(
      'POST',
      { method: 'card', paymentMethodId: TEST_CARD, amount: totalCents },
      { ...headers, 'Idempotency-Key': key },
    ),
  );
  expect(paid.status, await paid.clone().text()).toBe(200);
  expect(paid.headers.get(UPSTREAM_HEADER)).toBe(app!.address);
  const sold = (event: SseEvent) =>
    event.event === 'changes' &&
    (JSON.parse(event.data) as { documents: { id: string; tickets: number }[] }).documents.some(
      (doc) => doc.id === flight!.id && doc.tickets === flight!.tickets - 2,
    );
  await stream.waitFor(sold, 5_000);
  await stream.close();

  // Asked directly, each instance refuses what is the other's.
  expect((await fetch(`${app!.origin}/api/sync/flights/pull?limit=1`)).status).toBe(404);
  expect((await fetch(`${sync!.origin}/api/auth/me`, { headers })).status).toBe(404);
  expect((await fetch(`${sync!.origin}/`)).status).toBe(404);
});
