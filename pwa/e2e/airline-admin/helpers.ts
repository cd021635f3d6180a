import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import type { FlightFormValues } from '../../src/features/airline/components/flight-form-modal.tsx';
import { logInWithForm, watchCsp, type Account } from '../support/helpers.ts';

// What these journeys share with the others. Airline and admin accounts have no theme preference
// to wait for at login: the form alone.
export {
  accounts,
  dialog,
  expectAccessible,
  isoDate,
  toast,
  logInWithForm as logIn,
  type Account,
} from '../support/helpers.ts';

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
  if (account) await logInWithForm(page, account);
  return page;
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

/** What a journey types into the flight form: the form's own values, without a description. */
export type FlightInput = Omit<FlightFormValues, 'durationEstimated' | 'description'> & {
  /** The keys pressed in the Duration field (digits: the field places the colon itself). */
  duration: string;
};

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

/**
 * A screenshot under pwa/test-results/airline-admin/screens/<project>/: the whole page, or the
 * window only where the page is a long list (the business overview is ~30,000 px tall on a phone:
 * its full picture took 17–37 s to take and nobody reads it).
 */
export async function shoot(page: Page, name: string, project: string, fullPage = true) {
  // Let toasts and transitions settle so that the picture shows the screen itself.
  await page.waitForTimeout(350);
  await page.screenshot({
    path: `test-results/airline-admin/screens/${project}/${name}.png`,
    fullPage,
  });
}
