import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { cards, customer, expectAccessible, logIn, waitForApp } from '../support/helpers.ts';
import { phone } from '../support/devices.ts';
import { chooseTheme, type Theme } from '../support/theme.ts';
import { addTicket, openPaymentHolding } from './cart-and-hold.ts';
import { checkoutServer, queryOn } from '../support/servers.ts';

/** Runs one query on the checkout suite's database (payments and orders are counted where written). */
const query = (sql: string) => queryOn(checkoutServer, sql);

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
  // No second payment meanwhile: no pay button that can be pressed (the confirmation may already
  // have ended, and the success screen has none).
  await expect(page.getByTestId('pay').and(page.locator(':enabled'))).toHaveCount(0);

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

test.describe('seat holds and re-quotes (issue 17)', () => {
  // Requests of the page, not of its service worker, so that a test can hold back the sync.
  test.use({ serviceWorkers: 'block' });

  /** The payment page at phone size in `theme`, saved for review. */
  async function phoneScreenshot(page: Page, name: string, theme: Theme) {
    await page.setViewportSize(phone.viewport);
    await chooseTheme(page, theme);
    await expectAccessible(page, `${name} (${theme})`);
    await page.screenshot({
      path: `test-results/seat-hold/${name}-phone-${theme}.png`,
      fullPage: true,
    });
  }

  test('the payment page holds the seats and counts the hold down; the held seats are out of the stock others see', async ({
    page,
  }) => {
    await logIn(page);
    await addTicket(page);
    const hold = await openPaymentHolding(page);
    await expect(page.getByTestId('hold-active')).toContainText('Your seats are held for');
    const countdown = page.getByTestId('hold-countdown');
    await expect(countdown).toHaveText(/^(10:00|9:[0-5]\d)$/);
    const first = await countdown.textContent();
    await expect(countdown).not.toHaveText(first!);
    await expect(page.getByTestId('pay')).toBeEnabled();

    // On the server: one active hold of the customer, its seats out of the flights' stock.
    const [[status, lines]] = query(
      `SELECT h.status, (SELECT sum(amount) FROM seat_hold_lines WHERE hold_id = h.id)
       FROM seat_holds h WHERE h.id = '${hold.holdId}'`,
    ) as [[string, string]];
    expect(status).toBe('active');
    expect(Number(lines)).toBeGreaterThan(0);

    for (const theme of ['light', 'dark'] as const) {
      await phoneScreenshot(page, 'payment-countdown', theme);
      await expect(page.getByTestId('hold-countdown')).toBeVisible();
    }
  });

  test('a price changed by the airline between the cart and the payment: the page shows the old and new totals and charges only the confirmed new total', async ({
    page,
    context,
  }) => {
    await logIn(page);
    await addTicket(page);
    const since = databaseNow();
    const user = `(SELECT id FROM users WHERE email = '${customer.email}')`;
    const [[flightId, price]] = query(
      `SELECT c.flight_id, f.price_cents FROM cart_lines c JOIN flights f ON f.id = c.flight_id
       WHERE c.user_id = ${user} AND NOT c.deleted ORDER BY c.flight_id LIMIT 1`,
    ) as [[string, string]];
    // This device hears nothing more from the server's sync (the page is reloaded so that its
    // open change stream goes too): its cart keeps the old price.
    await context.route('**/api/sync/**', (route) => route.abort());
    await page.reload();
    await waitForApp(page);
    // The airline raises the price (as its flight form would).
    query(`UPDATE flights SET price_cents = ${Number(price) + 25_00} WHERE id = '${flightId}'`);
    try {
      const hold = await openPaymentHolding(page);

      const requote = page.getByTestId('requote');
      await expect(requote).toContainText('The price changed');
      const oldTotal = await page.getByTestId('requote-old').textContent();
      const newTotal = await page.getByTestId('requote-new').textContent();
      expect(oldTotal).not.toBe(newTotal);
      // The server's quote is what the page now asks for; nothing is charged before confirming.
      await expect(page.getByTestId('total')).toHaveText(newTotal!);
      await expect(page.getByTestId('pay')).toBeDisabled();
      for (const theme of ['light', 'dark'] as const) {
        await phoneScreenshot(page, 'payment-requote', theme);
      }
      await page.setViewportSize({ width: 1280, height: 800 });

      await page.getByTestId('requote-confirm').click();
      await expect(requote).toHaveCount(0);
      await expect(page.getByTestId('pay')).toHaveText(`Pay ${newTotal}`);
      await fillCard(page, cards.success);
      await page.getByTestId('pay').click();
      await expect(page.getByTestId('payment-success')).toBeVisible({ timeout: 30_000 });

      // One payment of exactly the hold's quote, against the hold, and its order.
      expect(
        query(
          `SELECT status, amount_cents, hold_id FROM payments WHERE user_id = ${user} AND created_at >= '${since}'`,
        ),
      ).toEqual([['captured', String(hold.totalCents), hold.holdId]]);
      expect(query(`SELECT status FROM seat_holds WHERE id = '${hold.holdId}'`)).toEqual([
        ['consumed'],
      ]);
    } finally {
      query(`UPDATE flights SET price_cents = ${price} WHERE id = '${flightId}'`);
      await context.unroute('**/api/sync/**');
    }
  });
});
