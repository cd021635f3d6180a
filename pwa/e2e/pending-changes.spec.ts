import { expect, test, type Page } from '@playwright/test';
import { PULL_MAX_BATCH, SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';
import {
  dialog,
  expectAccessible,
  logIn,
  publishReview,
  syncedCartCount,
  toast,
} from './support/helpers.ts';
import { chooseTheme } from './support/theme.ts';

/**
 * Changes you can see (issue 17, decision 017): every change made on the device shows whether it
 * waits, was accepted, or was refused with the server's reason; /changes lists them, with a way to
 * fix or discard a refused one; a conflict with another device says what was kept.
 */

const syncHeaders = { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) };

interface OrderDoc {
  id: string;
  creationdate: string | null;
  _deleted: boolean;
  stocks: {
    flightId: string;
    airlineId: string;
    review: boolean;
    moreinfo: { origin: string; destination: string };
  }[];
}

/** The signed-in customer's documents of one collection, as the server has them. */
async function pullOwn<T>(page: Page, collection: string): Promise<T[]> {
  const response = await page.request.get(`/api/sync/${collection}/pull?limit=${PULL_MAX_BATCH}`, {
    headers: syncHeaders,
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { documents: T[] }).documents;
}

/** Screenshot of the page at phone size (Pixel 7's viewport), in `theme`. */
async function phoneShot(page: Page, name: string, theme: 'light' | 'dark') {
  await chooseTheme(page, theme);
  await page.screenshot({
    path: `test-results/screens/pending-changes/${name}-${theme}.png`,
    fullPage: true,
  });
}

test('a review written offline and refused by the server shows its reason on /changes, and is discarded', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 412, height: 915 });
  await logIn(page);
  // A paid order with a line still to review (the demo customer has some), as /purchases lists
  // them: newest first (features/orders/data/orders.ts).
  const orders = (await pullOwn<OrderDoc>(page, 'orders'))
    .filter((order) => !order._deleted)
    .sort(
      (a, b) =>
        (b.creationdate ?? '').localeCompare(a.creationdate ?? '') || a.id.localeCompare(b.id),
    );
  const cardIndex = orders.findIndex((order) => order.stocks.some((line) => !line.review));
  expect(cardIndex).toBeGreaterThanOrEqual(0);
  const order = orders[cardIndex]!;
  const lineIndex = order.stocks.findIndex((line) => !line.review);
  const line = order.stocks[lineIndex]!;
  await page.goto('/purchases');
  const orderCard = page.getByTestId('order-card').nth(cardIndex);
  const reviewButton = orderCard.getByTestId('review-button').nth(lineIndex);
  await expect(reviewButton).toBeEnabled();

  // The pending changes page, while nothing is waiting (its code is on the device from now on).
  await page.getByTestId('pending-changes-link').click();
  await expect(page).toHaveURL(/\/changes$/);
  await expect(page.getByRole('heading', { name: 'Pending changes' })).toBeVisible();
  await expect(page.getByTestId('change-waiting')).toHaveCount(0);

  // Offline, the customer reviews the flight: the review waits on the device.
  await page.goBack();
  await expect(reviewButton).toBeEnabled();
  await context.setOffline(true);
  const comment = `Written offline ${Date.now()}`;
  await reviewButton.click();
  await publishReview(dialog(page, 'Give us your feedback!'), 4, comment);
  await expect(toast(page, 'Saved on this device')).toBeVisible();
  await page.getByTestId('pending-changes-link').click();
  const waiting = page.getByTestId('change-waiting').filter({ hasText: comment.slice(0, 40) });
  await expect(waiting).toBeVisible();
  await expect(waiting).toContainText('Review');
  await expect(waiting).toContainText(/Waiting to send since (now|\d+ (seconds?|minutes?) ago)/);
  await expect(page.getByTestId('sync-unsent')).toBeVisible();
  await expect(toast(page, 'Saved on this device')).toBeHidden({ timeout: 15_000 });
  for (const theme of ['light', 'dark'] as const) await phoneShot(page, 'waiting', theme);

  // Meanwhile the same line is reviewed from another device (online): one review per line, so
  // the server refuses the draft when it arrives ("This flight has already been reviewed").
  const posted = await page.request.post('/api/comments', {
    headers: { Origin: new URL(page.url()).origin },
    data: {
      rating: 5,
      name: 'Carla Customer',
      comment: 'Reviewed from the laptop',
      airlineId: line.airlineId,
      flightId: line.flightId,
      orderId: order.id,
      moreInfo: [],
    },
  });
  expect(posted.status()).toBe(201);

  await context.setOffline(false);
  const refused = page.getByTestId('change-refused');
  await expect(refused).toBeVisible({ timeout: 20_000 });
  await expect(refused.getByTestId('change-reason')).toHaveText(
    'Refused: This flight has already been reviewed',
  );
  await expect(refused).toContainText(comment.slice(0, 40));
  await expect(page.getByTestId('change-waiting')).toHaveCount(0);
  // The navbar's sync status says something needs the customer.
  await expect(page.getByTestId('sync-attention')).toHaveText('1 needs you');
  await expectAccessible(page, 'pending changes');
  for (const theme of ['light', 'dark'] as const) await phoneShot(page, 'refused', theme);

  // Fix leads to the review of that order line (here it was reviewed meanwhile: only discarding
  // helps, but the customer may look).
  await expect(refused.getByTestId('change-fix')).toHaveAttribute(
    'href',
    /^\/purchases\?review=[0-9a-f-]{36}$/,
  );

  // Discard: the refused draft goes, here and on the server.
  await page.getByTestId('change-refused').getByTestId('change-discard').click();
  await expect(toast(page, 'Change discarded')).toBeVisible();
  await expect(page.getByTestId('change-refused')).toHaveCount(0);
  await expect(page.getByTestId('sync-attention')).toBeHidden();
  await expect
    .poll(async () => {
      const drafts = await pullOwn<{ comment: string; _deleted: boolean }>(page, 'reviewDrafts');
      return drafts.find((draft) => draft.comment === comment)?._deleted;
    })
    .toBe(true);
});

test('the same cart line changed in two browsers: the one that sent last is told what was kept', async ({
  page,
  context,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  await logIn(page);
  // A line in the cart, stored on the device before the page changes.
  const count = await syncedCartCount(page);
  await page.getByTestId('add-to-cart').first().click();
  await expect(page.getByTestId('cart-count')).toHaveText(String(count + 1));
  await page.getByTestId('cart-link').click();
  const plus = page.getByTestId('cart-plus').first();
  await expect(plus).toBeEnabled();
  const plusLabel = (await plus.getAttribute('aria-label'))!;
  // The line's ticket group, named after its route ("One ticket more: <route>").
  const route = plusLabel.replace(/^One ticket more: /, '');
  const amountOf = (p: Page) => p.getByRole('group', { name: `Tickets: ${route}`, exact: true });
  const before = Number(await amountOf(page).getByTestId('cart-amount').textContent());
  await expect(page.getByTestId('sync-unsent')).toBeHidden();

  // The same customer in another browser.
  const laptopContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    locale: 'en-US',
  });
  const laptop = await laptopContext.newPage();
  try {
    await logIn(laptop);
    // In-app navigation: a reload right after the first pull can leave the line without RxDB's
    // record of the server's state (decision 017, "Consequences"), and the change would conflict.
    await laptop.getByTestId('cart-link').click();
    await expect(amountOf(laptop).getByTestId('cart-amount')).toHaveText(String(before));

    // The phone goes offline and adds a ticket; the laptop adds two, sent at once.
    await context.setOffline(true);
    await page.getByRole('button', { name: plusLabel }).click();
    await expect(amountOf(page).getByTestId('cart-amount')).toHaveText(String(before + 1));
    await expect(
      amountOf(page)
        .locator('xpath=ancestor::div[contains(@class,"card-body")]')
        .getByTestId('change-marker'),
    ).toHaveText('Waiting to send');
    await laptop.getByRole('button', { name: plusLabel }).click();
    await expect(amountOf(laptop).getByTestId('cart-amount')).toHaveText(String(before + 1));
    await laptop.getByRole('button', { name: plusLabel }).click();
    await expect(amountOf(laptop).getByTestId('cart-amount')).toHaveText(String(before + 2));
    await expect(laptop.getByTestId('sync-unsent')).toBeHidden();
    await expect(laptop.getByTestId('sync-status')).toHaveAttribute('data-status', 'up-to-date');

    // Back online, the phone's change meets the laptop's: the server's (the laptop's) is kept,
    // and the phone says so.
    await context.setOffline(false);
    await expect(amountOf(page).getByTestId('cart-amount')).toHaveText(String(before + 2), {
      timeout: 20_000,
    });
    const marker = amountOf(page)
      .locator('xpath=ancestor::div[contains(@class,"card-body")]')
      .getByTestId('change-marker');
    await expect(marker).toHaveText('Also changed on another device');
    await expect(page.getByTestId('sync-attention')).toBeVisible();
    await page.getByTestId('pending-changes-link').click();
    const conflict = page.getByTestId('change-conflict');
    await expect(conflict.getByTestId('change-conflict-text')).toHaveText(
      new RegExp(
        `^Your cart was also changed on another device; we kept ${before + 2} tickets of .+ \\(you had chosen ${before + 1} tickets of .+\\)\\.$`,
      ),
    );
    await conflict.getByTestId('change-dismiss').click();
    await expect(page.getByTestId('change-conflict')).toHaveCount(0);
    await expect(page.getByTestId('sync-attention')).toBeHidden();
  } finally {
    await laptopContext.close();
  }
});
