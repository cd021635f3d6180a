import { expect, type Page } from '@playwright/test';
import {
  PULL_MAX_BATCH,
  SYNC_PROTOCOL_VERSION,
  SYNC_VERSION_HEADER,
  cartTicketCount,
} from '@skyport/shared';
import { CATALOGUE_SYNCED_KEY } from '../../src/features/catalog/data/catalogue-synced.ts';

/** Demo accounts loaded by SEED_DEMO (sync-server/src/db/seed). */
export const customer = { email: 'customer@skyport.test', password: 'Customer123!' };

export const cards = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
};

/** Logs in through the /login form and waits for the navbar to show the customer's links. */
export async function logIn(page: Page, account = customer) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('profile-menu-button')).toBeVisible();
  // The account's theme (saved by an earlier run or device) arrives by sync: wait for it, so that
  // what a test does next (a screenshot, a theme switch) starts from the account's theme.
  const saved = await accountTheme(page);
  if (saved === 'light' || saved === 'dark') {
    await expect(page.getByTestId('theme-switch')).toHaveAttribute('data-theme-now', saved);
  }
}

/** The theme saved with the signed-in account, if any. */
export async function accountTheme(page: Page): Promise<string | null> {
  const preferences = await pullOwn<{ theme: string }>(page, 'preferences');
  return preferences[0]?.theme ?? null;
}

/** Pulls one of the signed-in account's collections from the server, as the sync client would. */
async function pullOwn<T>(page: Page, collection: string): Promise<(T & { _deleted?: boolean })[]> {
  const response = await page.request.get(`/api/sync/${collection}/pull?limit=${PULL_MAX_BATCH}`, {
    headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
  });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { documents: (T & { _deleted?: boolean })[] };
  return body.documents.filter((doc) => !doc._deleted);
}

/**
 * The navbar's cart count once this device holds the account's cart (earlier journeys may have
 * left tickets in it): the number of tickets the server has, shown in the navbar.
 */
export async function syncedCartCount(page: Page): Promise<number> {
  const count = cartTicketCount(await pullOwn<{ amount: number }>(page, 'cart'));
  await expect(page.getByTestId('cart-count')).toHaveText(String(count));
  return count;
}

/** The home grid has loaded at least one flight card. */
export async function waitForFlights(page: Page) {
  await expect(page.getByTestId('flight-card').first()).toBeVisible();
}

/**
 * The app has taken over the page: the home page is prerendered, so its buttons are on screen
 * (and inert) before the scripts have loaded.
 */
export async function waitForApp(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-app', 'ready');
}

/** This device holds the whole catalogue (its first full pull is done). */
export async function waitForCatalogueOnDevice(page: Page) {
  await expect
    .poll(() => page.evaluate((key) => localStorage.getItem(key), CATALOGUE_SYNCED_KEY))
    .toBe('1');
}

/** Sets the theme the way a user would, through the navbar switch. */
export async function useTheme(page: Page, theme: 'light' | 'dark') {
  await waitForApp(page);
  const toggle = page.getByTestId('theme-switch');
  if ((await toggle.getAttribute('data-theme-now')) !== theme) await toggle.click();
  await expect(toggle).toHaveAttribute('data-theme-now', theme);
}

/** Clears the session cookie and this origin's storage (guest state). */
export async function resetBrowser(page: Page) {
  await page.context().clearCookies();
  await page.goto('/');
  await page.evaluate(() => localStorage.clear());
}
