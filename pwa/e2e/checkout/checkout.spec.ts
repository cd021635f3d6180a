import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { cards, customer, logIn, syncedCartCount, waitForFlights } from '../support/helpers.ts';
import { query } from './server.ts';

/**
 * Issue 14, in Chromium against the real server: a payment provider that does not answer in time
 * (the first two authorisations of every checkout answer after the provider timeout, see
 * playwright.config.ts) must not lead to a second purchase, and the payment page shows the
 * payment methods the server runs.
 */

test.describe.configure({ mode: 'serial' });

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
}

/** A ticket more in the signed-in customer's cart (whatever earlier tests left there). */
async function addTicket(page: Page) {
  await waitForFlights(page);
  const tickets = await syncedCartCount(page);
  await page.getByTestId('add-to-cart').first().click();
  await expect(page.getByTestId('cart-count')).toHaveText(String(tickets + 1));
}

/** The Idempotency-Key of every checkout request the browser sends (page or service worker). */
function recordCheckoutKeys(context: BrowserContext): string[] {
  const keys: string[] = [];
  context.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === 'POST' && pathname === '/api/checkout') {
      keys.push(request.headers()['idempotency-key'] ?? '(none)');
    }
  });
  return keys;
}

/** The database's clock, to count what a test wrote from then on. */
function databaseNow(): string {
  return query('SELECT now()')[0]![0]!;
}

/** The customer's payments and orders written since `since`, as stored. */
function writtenSince(since: string) {
  const user = `(SELECT id FROM users WHERE email = '${customer.email}')`;
  return {
    payments: query(
      `SELECT status, method FROM payments WHERE user_id = ${user} AND created_at >= '${since}' ORDER BY created_at`,
    ),
    orders: query(
      `SELECT status FROM orders WHERE user_id = ${user} AND created_at >= '${since}' ORDER BY created_at`,
    ),
  };
}

async function storedAttempts(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      Object.keys(localStorage).filter((key) => key.startsWith('skyport.checkout.attempt')).length,
  );
}

test('a provider that does not answer in time: the page confirms the same payment across a reload and ends on success, one order, one capture', async ({
  page,
  context,
}) => {
  await logIn(page);
  await addTicket(page);
  const since = databaseNow();
  const keys = recordCheckoutKeys(context);

  await page.goto('/payment');
  await fillCard(page, cards.success);
  await page.getByTestId('pay').click();

  // 503 payment_pending: no definite answer. The page says so and allows no second payment.
  const confirming = page.getByTestId('payment-confirming');
  await expect(confirming).toBeVisible();
  await expect(confirming).toContainText('Confirming your payment');
  await expect(page.getByTestId('pay')).toBeDisabled();
  await expect(page.getByTestId('wallet')).toBeDisabled();
  expect(await storedAttempts(page)).toBe(1);

  // The attempt survives a reload: the page picks it up and goes on confirming it.
  await page.reload();
  await expect(page.getByTestId('payment-confirming')).toBeVisible();
  await expect(page.getByTestId('pay')).toBeDisabled();

  await expect(page.getByTestId('payment-success')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'PAGO EXITOSO' })).toBeVisible();
  await expect(page).toHaveURL(/\/purchases$/, { timeout: 8_000 });

  // Every request carried the one key of this attempt; the key is gone now that it succeeded.
  expect(keys.length).toBeGreaterThanOrEqual(3);
  expect(new Set(keys)).toEqual(new Set([keys[0]]));
  expect(await storedAttempts(page)).toBe(0);
  // Exactly one checkout, captured, and one confirmed order.
  expect(writtenSince(since)).toEqual({
    payments: [['captured', 'card']],
    orders: [['confirmed']],
  });
});

test('the test wallet: approved at its page, confirmed across the slow provider, one order', async ({
  page,
}) => {
  await logIn(page);
  await addTicket(page);
  const since = databaseNow();

  await page.goto('/payment');
  await page.getByTestId('wallet').click();
  await expect(page).toHaveURL(/\/api\/payments\/test-wallet\/wo_test_/);
  await expect(page.getByText('TEST MODE')).toBeVisible();
  await page.getByRole('button', { name: 'Approve payment' }).click();

  // Back on /payment: the approval is confirmed (the provider is slow: being confirmed first).
  await expect(page.getByTestId('payment-confirming')).toBeVisible();
  await expect(page.getByTestId('payment-success')).toBeVisible({ timeout: 30_000 });
  expect(writtenSince(since)).toEqual({
    payments: [['captured', 'wallet']],
    orders: [['confirmed']],
  });
});

test.describe('the payment methods the server runs', () => {
  // Requests of the page, not of its service worker, so that a test can stand in for the server.
  test.use({ serviceWorkers: 'block' });

  test('the test provider: the test card form and the test wallet, marked as test mode', async ({
    page,
  }) => {
    await logIn(page);
    await addTicket(page);
    await page.goto('/payment');
    await expect(page.getByTestId('card-field')).toBeVisible();
    await expect(page.getByTestId('test-mode')).toBeVisible();
    await expect(page.getByTestId('pay')).toBeVisible();
    await expect(page.getByTestId('wallet')).toHaveText('Pay with the test wallet');
    await expect(page.getByTestId('paypal-buttons')).toHaveCount(0);
    await expect(page.locator('iframe')).toHaveCount(0);
  });

  test('read at run time: no wallet button when the server has no wallet, no card form when it takes no cards', async ({
    page,
    context,
  }) => {
    let config = { card: 'test', wallet: null as string | null, testMode: true };
    await context.route('**/api/checkout/config', (route) =>
      route.fulfill({
        json: { stripePublishableKey: null, paypalClientId: null, ...config },
      }),
    );
    await logIn(page);
    await addTicket(page);
    await page.goto('/payment');
    await expect(page.getByTestId('card-field')).toBeVisible();
    await expect(page.getByTestId('pay')).toBeEnabled();
    await expect(page.getByTestId('wallet')).toHaveCount(0);

    config = { card: null as unknown as string, wallet: 'test', testMode: true };
    await page.reload();
    await expect(page.getByTestId('wallet')).toBeVisible();
    await expect(page.getByTestId('card-field')).toHaveCount(0);
    await expect(page.getByTestId('pay')).toHaveCount(0);
  });
});
