import { expect, test, type Page } from '@playwright/test';
import {
  cards,
  clickLogOut,
  dialog,
  fillCard,
  logIn,
  publishReview,
  syncedCartCount,
  toast,
} from './support/helpers.ts';

async function orderCount(page: Page): Promise<number> {
  const body = (await (await page.request.get('/api/orders')).json()) as unknown;
  return Array.isArray(body) ? body.length : ((body as { items?: unknown[] }).items?.length ?? 0);
}

test.describe.configure({ mode: 'serial' });

test('a customer pays with the success card, lands on My Orders after 4 s and reviews the flight', async ({
  page,
}) => {
  // When the page moved to each path, by the page's own clock: a busy machine may see the success
  // screen late, but cannot move the page's own times.
  await page.addInitScript(() => {
    const moves: [string, number][] = [];
    (window as unknown as { __moves: typeof moves }).__moves = moves;
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method].bind(history);
      history[method] = (...args: Parameters<History['pushState']>) => {
        original(...args);
        moves.push([location.pathname, performance.now()]);
      };
    }
  });
  await logIn(page);
  const firstCard = page.getByTestId('flight-card').first();
  const detailHref = (await firstCard
    .getByRole('link', { name: /^Details:/ })
    .getAttribute('href'))!;
  const route = `${await firstCard.getByTestId('flight-origin').textContent()} → ${await firstCard.getByTestId('flight-destination').textContent()}`;
  await firstCard.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.getByTestId('cart-link').click();
  await page.getByTestId('checkout').click();
  await expect(page).toHaveURL(/\/payment$/);

  // Empty card: "Form not completed".
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-error')).toHaveText('Form not completed');

  await fillCard(page, cards.success);
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-success')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'PAGO EXITOSO' })).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('0');
  await expect(page).toHaveURL(/\/purchases$/, { timeout: 15_000 });
  const moves = await page.evaluate(
    () => (window as unknown as { __moves: [string, number][] }).__moves,
  );
  const shownAt = moves.find(([path]) => path === '/success')![1];
  const leftAt = moves.find(([path, at]) => path === '/purchases' && at > shownAt)![1];
  // The spec's 4 s on the success screen (a timer never fires early).
  expect(leftAt - shownAt).toBeGreaterThanOrEqual(3_900);

  const order = page.getByTestId('order-card').first();
  await expect(order.getByTestId('payment-confirmed')).toHaveText('Payment status: confirmed');
  await order.getByTestId('more-info').first().click();
  await expect(order.getByText('More Details')).toBeVisible();

  // An incomplete review: the modal closes and "Oops..." / "Complete all fields!" shows.
  await order.getByTestId('review-button').first().click();
  const modal = dialog(page, 'Give us your feedback!');
  await expect(modal).toBeVisible();
  await modal.getByLabel('Your comment').fill('');
  await modal.getByRole('button', { name: 'Publicar' }).click();
  const oops = dialog(page, 'Oops...');
  await expect(oops).toContainText('Complete all fields!');
  await oops.getByRole('button', { name: 'OK' }).click();

  // A complete review is published.
  const comment = `Smooth flight ${route}, ${Date.now()}`;
  await order.getByTestId('review-button').first().click();
  await publishReview(modal, 5, comment);
  await expect(toast(page, 'Your feedback has been send!')).toBeVisible();
  await expect(order.getByTestId('review-button').first()).toBeDisabled();

  await page.goto(detailHref);
  await expect(page.getByTestId('review').filter({ hasText: comment })).toBeVisible();
  await expect(page.getByTestId('average-rating')).toBeVisible();

  // The cart was emptied by the purchase: the payment page says so and offers nothing to pay.
  await page.goto('/payment');
  await expect(page.getByTestId('payment-empty')).toContainText('Your cart is empty.');
  await expect(page.getByTestId('pay')).toHaveCount(0);
  await page.getByRole('link', { name: 'Go to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a declined card shows its error and creates no order', async ({ page }) => {
  await logIn(page);
  const before = await orderCount(page);
  const tickets = await syncedCartCount(page);
  await page.getByTestId('add-to-cart').first().click();
  await expect(page.getByTestId('cart-count')).toHaveText(String(tickets + 1));
  await page.goto('/payment');
  await fillCard(page, cards.declined);
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-error')).toContainText(/declined/i);
  await expect(page.getByTestId('pay')).toBeEnabled();
  expect(await orderCount(page)).toBe(before);
  await expect(page).toHaveURL(/\/payment$/);
});

test('favourites: filled heart, disabled once added, listed and removable', async ({ page }) => {
  await logIn(page);
  const heart = page.getByTestId('favourite-button').first();
  await heart.click();
  await expect(toast(page, 'Ticket added to favorites')).toBeVisible();
  await expect(heart).toBeDisabled();
  await expect(heart).toHaveAttribute('aria-pressed', 'true');
  await page.goto('/favs');
  await expect(page.getByRole('heading', { name: 'Favorites List' })).toBeVisible();
  await expect(page.getByTestId('favourite')).toHaveCount(1);
  await page.getByTestId('remove-favourite').click();
  await expect(toast(page, 'Deleted from favorites')).toBeVisible();
  await expect(page.getByTestId('favourite')).toHaveCount(0);
});

test('log out shows "Log out!" and returns home as a guest', async ({ page }) => {
  await logIn(page);
  await clickLogOut(page);
  await expect(toast(page, 'Log out!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Log In' }).first()).toBeAttached();
});
