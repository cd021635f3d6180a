import { expect, test } from '@playwright/test';
import {
  logIn,
  syncedCartCount,
  waitForApp,
  waitForCatalogueOnDevice,
  waitForFlights,
} from './support/helpers.ts';

test('after a first visit the app opens offline, and the cart and favourites still work', async ({
  page,
  context,
}) => {
  await logIn(page);
  await waitForFlights(page);
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
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
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
  await page.goto('/');
  await waitForFlights(page);
  // A first visit shows the server's page; the catalogue downloads once the visitor engages.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await waitForCatalogueOnDevice(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
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

test("a guest's first visit downloads the catalogue once the visitor engages, not before", async ({
  page,
}) => {
  const databases = () =>
    page.evaluate(async () =>
      // The service worker keeps its own (cache expiry); the app's are the rest.
      (await indexedDB.databases())
        .map((database) => database.name)
        .filter((name) => !name?.startsWith('workbox')),
    );
  await page.goto('/');
  await waitForApp(page);
  await waitForFlights(page);
  // The page is shown and idle: nothing competes with it for the network or the main thread.
  await page.waitForLoadState('networkidle');
  expect(await databases()).toEqual([]);
  // The first scroll starts the local database and the catalogue's download.
  await page.mouse.wheel(0, 400);
  await waitForCatalogueOnDevice(page);
  expect((await databases()).length).toBeGreaterThan(0);
});

test('a review written offline is kept and sent when the connection returns', async ({
  page,
  context,
}) => {
  await logIn(page);
  await waitForFlights(page);
  await page.getByTestId('add-to-cart').first().click();
  await page.goto('/payment');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByTestId('pay').click();
  await expect(page).toHaveURL(/\/purchases$/, { timeout: 10_000 });
  const order = page.getByTestId('order-card').first();
  await expect(order).toBeVisible();

  await context.setOffline(true);
  const comment = `Written on a plane ${Date.now()}`;
  await order.getByTestId('review-button').first().click();
  const modal = page.getByRole('dialog', { name: 'Give us your feedback!' });
  await modal.getByRole('radio', { name: '4 out of 5' }).check();
  await modal.getByLabel('Users name').fill('Carla Customer');
  await modal.getByLabel('Your comment').fill(comment);
  await modal.getByRole('button', { name: 'Publicar' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Saved on this device' })).toBeVisible();
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
