import { expect, test, type Page } from '@playwright/test';
import { messages } from '@skyport/shared';
import { CATALOGUE_SYNCED_KEY } from '../src/features/catalog/data/catalogue-synced.ts';
import {
  catalogueOnDevice,
  dialog,
  fillCard,
  logIn,
  openHome,
  publishReview,
  reopenOffline,
  syncedCartCount,
  toast,
  waitForApp,
  waitForCatalogueOnDevice,
  waitForFlights,
} from './support/helpers.ts';

test('after a first visit the app opens offline, and the cart and favourites still work', async ({
  page,
  context,
}) => {
  await logIn(page);
  // The service worker has precached the app shell and controls the page after a reload.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
  await waitForFlights(page);
  // The customer's cart and favourites are synced: earlier journeys may have left some behind.
  const before = await syncedCartCount(page);
  await page.getByTestId('add-to-cart').first().click();
  await expect(page.getByTestId('cart-count')).toHaveText(String(before + 1));
  const heart = page.getByTestId('favourite-button').nth(2);
  if (await heart.isEnabled()) await heart.click();
  await expect(heart).toBeDisabled();

  // A first visit leaves the whole catalogue on the device.
  await waitForCatalogueOnDevice(page);
  await reopenOffline(page);
  await expect(page.getByTestId('cart-count')).toHaveText(String(before + 1));
  // The catalogue reads the local database: it browses and pages offline.
  await waitForFlights(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await waitForFlights(page);

  await page.goto('/cart');
  await expect(page.getByTestId('cart-line').first()).toBeVisible();
  const amount = page.getByTestId('cart-amount').first();
  const amountBefore = Number(await amount.textContent());
  await page.getByTestId('cart-plus').first().click();
  await expect(amount).toHaveText(String(amountBefore + 1));

  await page.goto('/favs');
  await expect(page.getByTestId('favourite').first()).toBeVisible();

  await page.goto('/does-not-exist');
  await expect(page.getByTestId('not-found')).toBeVisible();

  await context.setOffline(false);
  await page.goto('/');
  await expect(page.getByTestId('offline-indicator')).toBeHidden();
  await waitForFlights(page);
});

test('offline, a guest still browses, searches and opens details from the local database', async ({
  page,
  context,
}) => {
  await openHome(page);
  // A first visit shows the server's page; the catalogue downloads by itself after the load
  // (and at once when the visitor engages, as here).
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await waitForCatalogueOnDevice(page);
  await reopenOffline(page);
  await waitForFlights(page);
  const origin = (await page.getByTestId('flight-origin').first().textContent())!;
  await page.getByRole('search').getByLabel('Origin').fill(origin);
  await page.getByRole('button', { name: 'Search' }).click();
  await waitForFlights(page);
  for (const text of await page.getByTestId('flight-origin').allTextContents())
    expect(text).toBe(origin);
  await page
    .getByRole('link', { name: /^Details:/ })
    .first()
    .click();
  await expect(page.getByTestId('flight-detail')).toBeVisible();
  await context.setOffline(false);
});

/**
 * Long tasks of the page (PerformanceObserver 'longtask'), recorded from its first script on, and
 * when the page first opened an IndexedDB database (the local data layer starting).
 */
function recordLongTasks(page: Page) {
  return page.addInitScript(() => {
    const page = window as unknown as { __longTasks?: [number, number][]; __firstIdb?: number };
    page.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        page.__longTasks?.push([Math.round(entry.startTime), Math.round(entry.duration)]);
    }).observe({ type: 'longtask', buffered: true });
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (this: IDBFactory, ...args: [string, number?]) {
      page.__firstIdb ??= Math.round(performance.now());
      return open.apply(this, args);
    };
  });
}

test("a guest's first visit stores the catalogue by itself, without any interaction, in short tasks", async ({
  page,
  context,
}) => {
  await recordLongTasks(page);
  await openHome(page);
  await waitForApp(page);
  // Nobody touches the page: the catalogue is stored anyway. When, after navigation, is read in
  // the page as the flag is set (on a quiet machine 5-7 s; under the suites' load up to ~15 s).
  const stored = await page.waitForFunction(
    (key) => localStorage.getItem(key) === '1' && Math.round(performance.now()),
    CATALOGUE_SYNCED_KEY,
    { polling: 100, timeout: 60_000 },
  );
  const storedAt = (await stored.jsonValue()) as number;
  const { loadedAt, startedAt, tasks } = await page.evaluate(() => {
    const page = window as unknown as { __longTasks: [number, number][]; __firstIdb?: number };
    return {
      loadedAt: Math.round(performance.getEntriesByType('navigation')[0]?.duration ?? 0),
      startedAt: page.__firstIdb ?? -1,
      tasks: page.__longTasks,
    };
  });
  // It started well after the load (a few seconds), not during the page's own start-up.
  expect(startedAt - loadedAt).toBeGreaterThanOrEqual(4000);
  // When it was stored, and what the main thread did: timings of a shared machine, reported and
  // not asserted (the first sync's figures: docs/benchmarks.md §3).
  const longest = Math.max(0, ...tasks.map(([, duration]) => duration));
  const blocking = tasks.reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
  test.info().annotations.push({
    type: 'first visit',
    description: `catalogue stored ${storedAt} ms after navigation (load ${loadedAt} ms, data layer from ${startedAt} ms); long tasks [start:ms] ${tasks.map(([start, duration]) => `${start}:${duration}`).join(' ') || 'none'}; longest ${longest} ms, blocking ${blocking} ms`,
  });

  // Offline, the next visit lists the flights from this device.
  await reopenOffline(page);
  await waitForFlights(page);
  await expect(page.getByTestId('flights-not-found')).toBeHidden();
  await expect(page.getByTestId('catalogue-not-on-device')).toBeHidden();
  await context.setOffline(false);
});

test('offline before the catalogue is on this device, the home page says so, and fills in once back online', async ({
  page,
  context,
}) => {
  // A first visit whose catalogue download does not get through (the visitor left, the network
  // dropped): the page itself is shown (the server's first flights) and installed for offline use.
  await page.route('**/api/sync/**', (route) => route.abort());
  await openHome(page);
  await waitForApp(page);
  expect(await catalogueOnDevice(page)).toBe(false);

  await reopenOffline(page);
  const notOnDevice = page.getByTestId('catalogue-not-on-device');
  await expect(notOnDevice).toHaveText(messages.catalogueNotOnDevice);
  await expect(page.getByRole('heading', { name: messages.catalogueNotOnDevice })).toBeAttached();
  // Not "no flight matches": that would tell a traveller the flights do not exist.
  await expect(page.getByTestId('flights-not-found')).toBeHidden();
  await expect(page.getByText(messages.flightsNotFound)).toBeHidden();
  await expect(page.getByRole('heading', { name: '0 flights' })).toHaveCount(0);

  // Back online: the flights come back, and the catalogue is stored this time.
  await page.unroute('**/api/sync/**');
  await context.setOffline(false);
  await waitForFlights(page);
  await expect(notOnDevice).toBeHidden();
  await waitForCatalogueOnDevice(page);
});

test('a review written offline is kept and sent when the connection returns', async ({
  page,
  context,
}) => {
  await logIn(page);
  await page.getByTestId('add-to-cart').first().click();
  await page.goto('/payment');
  await fillCard(page);
  await page.getByTestId('pay').click();
  await expect(page).toHaveURL(/\/purchases$/, { timeout: 10_000 });
  const order = page.getByTestId('order-card').first();
  await expect(order).toBeVisible();

  await context.setOffline(true);
  const comment = `Written on a plane ${Date.now()}`;
  await order.getByTestId('review-button').first().click();
  const modal = dialog(page, 'Give us your feedback!');
  await publishReview(modal, 4, comment);
  await expect(toast(page, 'Saved on this device')).toBeVisible();
  await expect(order.getByTestId('review-button').first()).toBeDisabled();

  await context.setOffline(false);
  await expect
    .poll(
      async () => {
        const body = (await (await page.request.get('/api/comments?pageSize=60')).json()) as {
          items: { comment: string }[];
        };
        return body.items.some((review) => review.comment === comment);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
});

test('the sync status shows its words and the changes waiting to be sent, on a phone as on a desktop', async ({
  page,
  context,
}, testInfo) => {
  // Three screen widths, two themes each, and a sign-in on a shared machine.
  test.setTimeout(120_000);
  await logIn(page);
  await waitForFlights(page);
  const status = page.getByTestId('sync-status');
  const unsent = page.getByTestId('sync-unsent');
  await expect(status).toHaveAttribute('data-status', 'up-to-date');
  await expect(unsent).toBeHidden();

  // Changes made offline are counted as they are queued.
  await context.setOffline(true);
  await expect(status).toHaveAttribute('data-status', 'offline');
  await page.getByTestId('add-to-cart').first().click();
  await expect(unsent).toHaveAttribute('data-count', '1');
  await page.getByTestId('add-to-cart').nth(1).click();
  await expect(unsent).toHaveAttribute('data-count', '2');
  await expect(unsent).toHaveAccessibleName(/2 changes made on this device waiting to be sent/);

  const screens = [
    { width: 360, height: 800, phone: true },
    { width: 390, height: 844, phone: true },
    { width: 1280, height: 800, phone: false },
  ];
  for (const { phone, ...viewport } of screens) {
    await page.setViewportSize(viewport);
    // Words on every width: short on a phone, where the sync status also says "Offline".
    await expect(
      status.getByTestId(phone ? 'sync-status-text-phone' : 'sync-status-text'),
    ).toHaveText(phone ? 'Offline' : 'Waiting for a connection');
    await expect(
      status.getByTestId(phone ? 'sync-status-text' : 'sync-status-text-phone'),
    ).toBeHidden();
    await expect(page.getByTestId('offline-indicator')).toBeVisible({ visible: !phone });
    await expect(unsent).toHaveText(/^2 to send/);
    // The navbar fits: nothing sticks out of the screen or wraps to a second line.
    const box = await page.locator('header.navbar').boundingBox();
    expect(box?.height).toBeLessThanOrEqual(72);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    const badge = await status.boundingBox();
    const brand = await page.getByTestId('brand').boundingBox();
    expect(badge && brand && brand.x + brand.width <= badge.x).toBe(true);
    expect(badge && badge.x + badge.width <= viewport.width).toBe(true);
    for (const theme of ['light', 'dark']) {
      // Painted directly: switching the theme would record it, one more change to send.
      await page.evaluate(
        (name) => document.documentElement.setAttribute('data-theme', name),
        theme,
      );
      await page.locator('header.navbar').screenshot({
        path: testInfo.outputPath(`sync-status-${viewport.width}-${theme}.png`),
      });
    }
  }

  // Back online, the changes are sent and the count goes.
  await context.setOffline(false);
  await expect(unsent).toBeHidden({ timeout: 15_000 });
  await expect(status).toHaveAttribute('data-status', 'up-to-date');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(status.getByTestId('sync-status-text-phone')).toHaveText('Up to date');
  await page.locator('header.navbar').screenshot({
    path: testInfo.outputPath('sync-status-390-up-to-date.png'),
  });
});
