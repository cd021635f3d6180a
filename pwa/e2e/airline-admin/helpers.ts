import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { watchCsp } from '../support/helpers.ts';

/** Demo accounts loaded by SEED_DEMO (sync-server/src/db/seed/demo.ts). */
export const accounts = {
  admin: { email: 'admin@skyport.test', password: 'Admin123!' },
  airline: { email: 'airline@skyport.test', password: 'Airline123!' },
  pending: { email: 'pending@skyport.test', password: 'Pending123!' },
  customer: { email: 'customer@skyport.test', password: 'Customer123!' },
} as const;

export type Account = { email: string; password: string };

/** Logs in through /login and waits for the signed-in navbar. */
export async function logIn(page: Page, account: Account) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('profile-menu-button')).toBeVisible();
}

/** A new browser context (its own cookies and storage: another person's browser), logged in. */
export async function personIn(
  browser: Browser,
  baseURL: string,
  account?: Account,
): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  // Its pages report CSP violations too (support/helpers.ts), from their first navigation on.
  await watchCsp(context);
  const page = await context.newPage();
  if (account) await logIn(page, account);
  return page;
}

/** A dialog of the app (native <dialog> opened with showModal) by its title. */
export function dialog(page: Page, title: string | RegExp): Locator {
  return page.getByRole('dialog', { name: title });
}

/** A toast with this text. */
export function toast(page: Page, text: string): Locator {
  return page.getByTestId('toast').filter({ hasText: text });
}

/** Today plus `days`, yyyy-mm-dd, in the browser's (and the server's) UTC calendar. */
export function isoDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Picks a country in the flight form's searchable list by typing and pressing Enter. */
export async function chooseCountry(
  form: Locator,
  name: 'Origin' | 'Destination',
  country: string,
) {
  const combo = form.getByRole('combobox', { name });
  await combo.fill(country.slice(0, 4));
  await expect(form.page().getByRole('option', { name: country, exact: true })).toBeVisible();
  // The first match is active; move down to the exact one.
  const options = form.page().getByRole('listbox', { name }).getByRole('option');
  const names = await options.allInnerTexts();
  const index = names.findIndex((text) => text.trim() === country);
  for (let step = 0; step < index; step++) await combo.press('ArrowDown');
  await combo.press('Enter');
  await expect(combo).toHaveValue(country);
}

export interface FlightInput {
  origin: string;
  destination: string;
  departureDate: string;
  departureHour: string;
  arrivalDate: string;
  arrivalHour: string;
  duration: string;
  price: string;
  stock: string;
}

/** Fills the flight form (the dialog must be open). */
export async function fillFlight(form: Locator, flight: FlightInput) {
  await chooseCountry(form, 'Origin', flight.origin);
  await chooseCountry(form, 'Destination', flight.destination);
  await form.getByLabel('Departure date').fill(flight.departureDate);
  await form.getByLabel('Departure hour').fill(flight.departureHour);
  await form.getByLabel('Arrival date').fill(flight.arrivalDate);
  await form.getByLabel('Arrival hour').fill(flight.arrivalHour);
  await form.getByLabel('Duration').fill('');
  await form.getByLabel('Duration').pressSequentially(flight.duration);
  await form.getByLabel('Price').fill(flight.price);
  await form.getByLabel('Stock').fill(flight.stock);
}

/** Sets the theme through the navbar switch, once the app has taken over the page. */
export { useTheme } from '../support/helpers.ts';

/** A full-page screenshot under pwa/test-results/airline-admin/screens/<project>/. */
export async function shoot(page: Page, name: string, project: string) {
  // Let toasts and transitions settle so that the picture shows the screen itself.
  await page.waitForTimeout(350);
  await page.screenshot({
    path: `test-results/airline-admin/screens/${project}/${name}.png`,
    fullPage: true,
  });
}

/** No serious or critical WCAG 2 A/AA violation on the page as it is. */
export async function expectAccessible(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const serious = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    serious.map((v) => `${screen}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(' ')}`),
  ).toEqual([]);
}
