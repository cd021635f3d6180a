// INSTANCE_ROLE (app.ts InstanceRole): a `sync` instance serves device sync and health only, an
// `app` instance everything else, and the two on one database make one product
// (docs/decisions/025-sync-on-instances-of-its-own.md).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buyerWithCart, cardPayment, ticketsOf } from './features/checkout/testing.ts';
import { pushInit, pushedFavourite, syncHeaders } from './sync/test-fixtures.ts';
import { bodyOf, createTestApp, createTestHarness, type TestApp } from './test/harness.ts';

const { sql, actors } = await createTestHarness({ actors: true });
let publicDir = '';
let syncOnly: TestApp;
let appOnly: TestApp;

beforeAll(async () => {
  publicDir = await mkdtemp(path.join(tmpdir(), 'skyport-role-'));
  await writeFile(path.join(publicDir, 'index.html'), '<!doctype html><title>Skyport</title>');
  syncOnly = createTestApp(sql, { role: 'sync', publicDir }).app;
  appOnly = createTestApp(sql, { role: 'app', publicDir }).app;
});
afterAll(() => rm(publicDir, { recursive: true, force: true }));

const customer = () => actors.customer.headers();

test('a sync instance answers device sync and health, and 404 for everything else', async () => {
  const pull = await syncOnly.request('/api/sync/favourites/pull?limit=10', {
    headers: syncHeaders(customer()),
  });
  expect(pull.status).toBe(200);
  expect((await syncOnly.request('/api/health/ready')).status).toBe(200);
  for (const [method, url] of [
    ['GET', '/api/auth/me'],
    ['GET', '/api/flights'],
    ['POST', '/api/checkout'],
    ['GET', '/api/orders'],
    ['GET', '/'],
    ['GET', '/payment'],
  ] as const) {
    const response = await syncOnly.request(url, { method, headers: customer() });
    expect(response.status, `${method} ${url}`).toBe(404);
  }
});

test('an app instance answers the PWA and the API, and 404 for device sync', async () => {
  expect((await appOnly.request('/api/auth/me', { headers: customer() })).status).toBe(200);
  expect((await appOnly.request('/api/flights')).status).toBe(200);
  expect((await appOnly.request('/payment')).status).toBe(200);
  expect((await appOnly.request('/api/health/ready')).status).toBe(200);
  for (const url of [
    '/api/sync/favourites/pull?limit=10',
    '/api/sync/stream',
    '/api/sync/flights/snapshot',
  ]) {
    const response = await appOnly.request(url, { headers: syncHeaders(customer()) });
    expect(response.status, url).toBe(404);
  }
  const push = await appOnly.request(
    '/api/sync/favourites/push',
    pushInit(customer(), { rows: [] }),
  );
  expect(push.status).toBe(404);
});

test('side by side on one database they are one product: a sale on the app instance is pulled from the sync one, a favourite pushed there is read here', async () => {
  const airlineId = actors.airline.airlineId!;
  const buyer = await buyerWithCart(sql, airlineId, { priceCents: 80_00, amount: 2, tickets: 5 });
  const paid = await appOnly.request(
    '/api/stripe',
    cardPayment(buyer.headers, { id: '4242424242424242', amount: buyer.total }, randomUUID()),
  );
  expect(paid.status).toBe(200);
  expect(await ticketsOf(sql, buyer.flight)).toBe(3);
  const flights = await bodyOf(
    syncOnly.request('/api/sync/flights/pull?limit=2000', { headers: syncHeaders() }),
  );
  const replicated = (flights.documents as { id: string; tickets: number }[]).find(
    (doc) => doc.id === buyer.flight,
  );
  expect(replicated?.tickets).toBe(3);

  const pushed = await syncOnly.request(
    '/api/sync/favourites/push',
    pushInit(buyer.headers, {
      rows: [{ newDocumentState: pushedFavourite(buyer.id, buyer.flight) }],
    }),
  );
  expect(pushed.status).toBe(200);
  const [row] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM favourites
    WHERE user_id = ${buyer.id} AND flight_id = ${buyer.flight} AND NOT deleted`;
  expect(row!.n).toBe(1);
});
