import { expect, type Page } from '@playwright/test';
import { syncedCartCount, waitForFlights } from '../support/helpers.ts';

/** The seat hold the payment page received (`POST /api/checkout/hold`). */
export interface HoldAnswer {
  holdId: string;
  expiresAt: number;
  totalCents: number;
  lines: { flightId: string; amount: number }[];
}

/**
 * A ticket more in the signed-in customer's cart (whatever earlier tests left there); returns
 * how many tickets the cart holds now.
 */
export async function addTicket(page: Page): Promise<number> {
  await waitForFlights(page);
  const tickets = await syncedCartCount(page);
  await page.getByTestId('add-to-cart').first().click();
  await expect(page.getByTestId('cart-count')).toHaveText(String(tickets + 1));
  return tickets + 1;
}

/** Opens the payment page and returns the hold it took of the cart's seats. */
export async function openPaymentHolding(page: Page): Promise<HoldAnswer> {
  const held = page.waitForResponse(
    (r) => r.url().endsWith('/api/checkout/hold') && r.request().method() === 'POST',
  );
  await page.goto('/payment');
  return (await (await held).json()) as HoldAnswer;
}
