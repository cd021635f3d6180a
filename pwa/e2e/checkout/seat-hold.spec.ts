import { expect, test } from '@playwright/test';
import { phone } from '../support/devices.ts';
import { expectAccessible, logIn } from '../support/helpers.ts';
import { chooseTheme } from '../support/theme.ts';
import { addTicket, openPaymentHolding, type HoldAnswer } from './cart-and-hold.ts';
import { queryOn, seatHoldServer } from '../support/servers.ts';

/**
 * Issue 17, in Chromium against the real server holding seats for 5 seconds
 * (seat-hold.config.ts): the payment page counts the hold down, and at zero says the seats went
 * back on sale, keeps the cart and offers to hold them again; the server's release job has put
 * the seats back meanwhile.
 */

test.describe.configure({ mode: 'serial' });
// Requests of the page, not of its service worker: the test reads the hold the page received.
test.use({ serviceWorkers: 'block' });

const query = (sql: string) => queryOn(seatHoldServer, sql);

/** Tickets left of the held flights, summed, as the server has them. */
function ticketsLeft(hold: HoldAnswer): number {
  const ids = hold.lines.map((line) => `'${line.flightId}'`).join(',');
  const [[tickets]] = query(`SELECT sum(tickets) FROM flights WHERE id IN (${ids})`) as [[string]];
  return Number(tickets);
}

test('a 5-second hold: the countdown runs out, the seats go back on sale, the cart stays, and the seats can be held again', async ({
  page,
}) => {
  await logIn(page);
  const tickets = await addTicket(page);

  const hold = await openPaymentHolding(page);
  // The held seats (the whole cart) are out of the stock everyone sees until they come back.
  const during = ticketsLeft(hold);
  const heldSeats = hold.lines.reduce((sum, line) => sum + line.amount, 0);
  expect(heldSeats).toBe(tickets);
  await expect(page.getByTestId('hold-countdown')).toHaveText(/^0:0[1-5]$/);
  await expect(page.getByTestId('pay')).toBeEnabled();

  // Zero: the seats went back on sale (the release job), the cart is still here.
  const expired = page.getByTestId('hold-expired');
  await expect(expired).toBeVisible({ timeout: 10_000 });
  await expect(expired).toContainText("Time's up: your seats went back on sale");
  await expect(expired).toContainText('Your cart is still here');
  await expect(page.getByTestId('pay')).toBeDisabled();
  await expect(page.getByTestId('hold-countdown')).toHaveCount(0);
  await expect
    .poll(() => query(`SELECT status, release_reason FROM seat_holds WHERE id = '${hold.holdId}'`))
    .toEqual([['released', 'expired']]);
  await expect.poll(() => ticketsLeft(hold)).toBe(during + heldSeats);
  await expect(page.getByTestId('cart-count')).toHaveText(String(tickets));
  await page.setViewportSize(phone.viewport);
  await chooseTheme(page, 'light');
  await expectAccessible(page, 'payment, hold expired');
  await page.screenshot({
    path: 'test-results/seat-hold/payment-expired-phone-light.png',
    fullPage: true,
  });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Holding again: a new hold, a new countdown, the seats out of stock again.
  const again = page.waitForResponse(
    (r) => r.url().endsWith('/api/checkout/hold') && r.request().method() === 'POST',
  );
  await page.getByTestId('hold-again').click();
  const second = (await (await again).json()) as HoldAnswer;
  expect(second.holdId).not.toBe(hold.holdId);
  expect(second.expiresAt).toBeGreaterThan(hold.expiresAt);
  await expect(page.getByTestId('hold-countdown')).toHaveText(/^0:0[1-5]$/);
  await expect(page.getByTestId('pay')).toBeEnabled();
  expect(ticketsLeft(second)).toBe(during);
  await expect(page.getByTestId('hold-expired')).toBeVisible({ timeout: 10_000 });
});

test('leaving the payment page without paying gives the held seats back at once', async ({
  page,
}) => {
  await logIn(page);
  await addTicket(page);
  const hold = await openPaymentHolding(page);
  const during = ticketsLeft(hold);
  const heldSeats = hold.lines.reduce((sum, line) => sum + line.amount, 0);
  await expect(page.getByTestId('pay')).toBeEnabled();

  // Back to the cart inside the app: the hold is cancelled, not left to expire (5 s here).
  await page.getByTestId('cart-link').click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect
    .poll(
      () => query(`SELECT status, release_reason FROM seat_holds WHERE id = '${hold.holdId}'`),
      {
        timeout: 3_000,
      },
    )
    .toEqual([['released', 'cancelled']]);
  expect(ticketsLeft(hold)).toBe(during + heldSeats);
});
