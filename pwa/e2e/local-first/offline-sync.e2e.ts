import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startTestServer, type TestServer } from '../../src/sync/test-server.ts';

/**
 * docs/architecture.md §4 and §10 in a real browser: load online, go offline, reload, and the catalogue,
 * favourites and cart still work from IndexedDB; a review written offline reaches the server
 * once the browser is online again. The page runs the PWA's local-first data layer (harness.ts).
 */

let server: TestServer;
let origin: string;

test.beforeAll(async () => {
  server = await startTestServer({
    flights: 30,
    publicDir: path.join(import.meta.dirname, 'dist'),
  });
  // localhost (not 127.0.0.1) so that the page is a secure context for the service worker.
  origin = server.url.replace('127.0.0.1', 'localhost');
});

test.afterAll(async () => {
  await server?.stop();
});

test('offline: the catalogue, favourites and cart work from IndexedDB, and a review written offline arrives when online', async ({
  page,
  context,
}) => {
  const customer = server.actors.customer;
  await page.goto(`${origin}/`);
  await page.evaluate(() => window.harness.ready);
  await expect.poll(() => page.evaluate(() => window.harness.flightCount())).toBe(30);

  await page.evaluate(
    ([id, token]) => window.harness.login({ id, role: 'customer', airlineId: null }, token),
    [customer.id!, customer.token!] as const,
  );
  const [first, second, third] = server.flightIds as [string, string, string];
  expect(await page.evaluate((id) => window.harness.addToCart(id), first)).toMatchObject({
    ok: true,
  });
  expect(await page.evaluate((id) => window.harness.addFavourite(id), second)).toEqual({
    ok: true,
  });
  const { orderId } = await server.control<{ orderId: string }>('POST', '/__test/orders', {
    userId: customer.id,
    flightIds: [third],
  });
  await expect
    .poll(() => page.evaluate(() => window.harness.orders()))
    .toEqual([{ id: orderId, reviewed: [false] }]);
  await page.evaluate(() => window.harness.awaitInSync());

  // A reload while online lets the service worker take control and keep the page's files.
  await page.reload();
  await page.evaluate(() => window.harness.ready);
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
  await page.reload();
  await page.evaluate(() => window.harness.ready);

  await context.setOffline(true);
  await page.reload();
  await page.evaluate(() => window.harness.ready);
  await expect
    .poll(() => page.evaluate(async () => (await window.harness.status()).phase))
    .toBe('offline');
  expect(await page.evaluate(() => window.harness.flightCount())).toBe(30);
  const page2 = await page.evaluate(() =>
    window.harness.query({ sort: 'price_desc', page: 2, band: 'all' }),
  );
  expect(page2.total).toBe(30);
  expect(page2.items).toHaveLength(6);
  expect(page2.items[0]!.priceCents).toBeGreaterThanOrEqual(page2.items[5]!.priceCents);
  expect(await page.evaluate(() => window.harness.cart())).toEqual([
    { flightId: first, amount: 1 },
  ]);
  expect(await page.evaluate(() => window.harness.favourites())).toEqual([second]);

  // Offline writes: another ticket, and a review of the order's flight.
  expect(await page.evaluate((id) => window.harness.addToCart(id), first)).toMatchObject({
    ok: true,
  });
  const draft = await page.evaluate(
    ([order, flight]) =>
      window.harness.saveDraft({
        orderId: order,
        flightId: flight,
        rating: 4,
        name: 'Carla',
        comment: 'Written on a plane',
      }),
    [orderId, third] as const,
  );
  expect(draft.ok).toBe(true);
  expect((await page.evaluate(() => window.harness.drafts()))[0]).toMatchObject({
    status: 'pending',
  });
  // Kept across a reload while still offline.
  await page.reload();
  await page.evaluate(() => window.harness.ready);
  expect((await page.evaluate(() => window.harness.drafts()))[0]).toMatchObject({
    status: 'pending',
  });
  expect(await server.control('GET', '/__test/rows/reviews')).toEqual([]);

  await context.setOffline(false);
  await expect
    .poll(async () => server.control<{ comment: string }[]>('GET', '/__test/rows/reviews'), {
      timeout: 20_000,
    })
    .toEqual([
      expect.objectContaining({
        order_id: orderId,
        flight_id: third,
        rating: 4,
        comment: 'Written on a plane',
      }),
    ]);
  await expect
    .poll(() => page.evaluate(() => window.harness.drafts()))
    .toEqual([expect.objectContaining({ status: 'accepted' })]);
  await expect
    .poll(() => page.evaluate(() => window.harness.orders()))
    .toEqual([{ id: orderId, reviewed: [true] }]);
  await expect
    .poll(async () =>
      (
        await server.control<{ user_id: string; flight_id: string; amount: number }[]>(
          'GET',
          '/__test/rows/cart_lines',
        )
      ).map((r) => [r.flight_id, r.amount]),
    )
    .toEqual([[first, 2]]);
  await expect
    .poll(() => page.evaluate(async () => (await window.harness.status()).phase))
    .toBe('upToDate');
});
