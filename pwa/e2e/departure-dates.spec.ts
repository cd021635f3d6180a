import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { cheapestDays, departureWindow, type FlightCatalogPage } from '@skyport/shared';
import {
  expectAccessible,
  isoDate,
  openHome,
  reopenOffline,
  waitForCatalogueOnDevice,
  waitForFlights,
} from './support/helpers.ts';
import { chooseTheme, opposite } from './support/theme.ts';

/**
 * The home page's departure date (decision 016): a date with ± 3 days, each day's lowest price,
 * the cheapest day marked on the strip and on its flights, the same online (server pages or the
 * local catalogue) and offline (the local catalogue alone); and the filter's screenshots at phone
 * size in both themes (pwa/test-results/screens/phone/).
 */

/** The server's page for a ±3-day window around `date`, every flight of it. */
async function serverWeek(request: APIRequestContext, date: string): Promise<FlightCatalogPage> {
  const params = new URLSearchParams({ ...departureWindow(date, 3), pageSize: '60' });
  return (await (await request.get(`/api/flights?${params}`)).json()) as FlightCatalogPage;
}

/** A date whose ±3 days have flights on several days at different lowest prices. */
async function flexibleDate(request: APIRequestContext): Promise<string> {
  for (let days = 7; days < 120; days += 3) {
    const date = isoDate(days);
    const week = await serverWeek(request, date);
    const days_ = week.departureDays ?? [];
    if (days_.length >= 3 && cheapestDays(days_).size < days_.length) return date;
  }
  throw new Error('no week of the demo catalogue has flights on three days');
}

/** Chooses a departure date and a flexibility the way a traveller does. */
async function chooseDate(page: Page, date: string, flex: '± 1 day' | '± 3 days' | 'Exact date') {
  await page.getByLabel('Departure date', { exact: true }).fill(date);
  await expect(page).toHaveURL(new RegExp(`date=${date}`));
  await page.getByRole('radio', { name: flex }).check();
}

/** The strip shows the server's days and marks exactly the server's cheapest ones. */
async function expectCheapestMarked(page: Page, week: FlightCatalogPage) {
  const strip = page.getByTestId('departure-days');
  await expect(strip).toBeVisible();
  await expect(strip.getByTestId('departure-day')).toHaveCount(7);
  const cheapest = [...cheapestDays(week.departureDays ?? [])].sort();
  const marked = strip.locator('[data-cheapest="true"]');
  await expect(marked).toHaveCount(cheapest.length);
  expect(
    await marked.evaluateAll((days) => days.map((day) => day.getAttribute('data-date'))),
  ).toEqual(cheapest);
  await expect(marked.first()).toContainText('Cheapest day');
  // The cheapest flight of the range (first by price) departs on a cheapest day: its card says so.
  await page.getByLabel('Order by').selectOption('price_asc');
  await waitForFlights(page);
  await expect(page.getByTestId('flight-card').first().getByTestId('cheapest-day')).toHaveText(
    'Cheapest day',
  );
  return cheapest[0]!;
}

test('a guest picks a date with ± 3 days, sees the cheapest day marked, online and offline', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const date = await flexibleDate(request);
  const week = await serverWeek(request, date);

  await openHome(page);
  await chooseDate(page, date, '± 3 days');
  await expect(page).toHaveURL(/flex=3/);
  await expect(page.getByTestId('flights-total')).toHaveText(
    `${week.total} ${week.total === 1 ? 'flight' : 'flights'}`,
  );
  const cheapest = await expectCheapestMarked(page, week);
  // The chosen date is marked on the strip.
  await expect(page.locator(`[data-date="${date}"]`)).toHaveAttribute('aria-current', 'date');

  // A day of the strip shows that day's flights (the exact date).
  await page.locator(`[data-date="${cheapest}"]`).click();
  await expect(page).toHaveURL(new RegExp(`date=${cheapest}`));
  await expect(page).not.toHaveURL(/flex=/);
  await expect(page.getByTestId('departure-days')).toBeHidden();
  const day = week.departureDays!.find((d) => d.date === cheapest)!;
  await expect(page.getByTestId('flights-total')).toHaveText(
    `${day.flights} ${day.flights === 1 ? 'flight' : 'flights'}`,
  );
  await expect(page.getByRole('radio', { name: 'Exact date' })).toBeChecked();

  // "Any date" lifts the filter.
  await page.getByRole('button', { name: 'Clear the departure date' }).click();
  await expect(page).not.toHaveURL(/date=/);
  await expect(page.getByLabel('Departure date', { exact: true })).toHaveValue('');

  // Offline, from the local catalogue alone: the same days, the same cheapest day.
  await waitForCatalogueOnDevice(page);
  await page.goto(`/?date=${date}&flex=3`);
  await waitForFlights(page);
  await reopenOffline(page);
  await waitForFlights(page);
  await expect(page.getByLabel('Departure date', { exact: true })).toHaveValue(date);
  await expect(page.getByRole('radio', { name: '± 3 days' })).toBeChecked();
  await expect(page.getByTestId('flights-total')).toHaveText(
    `${week.total} ${week.total === 1 ? 'flight' : 'flights'}`,
  );
  await expectCheapestMarked(page, week);
  // Narrower, still offline: ± 1 day shows three days.
  await page.getByRole('radio', { name: '± 1 day' }).check();
  await expect(page).toHaveURL(/flex=1/);
  await expect(page.getByTestId('departure-day')).toHaveCount(3);
  await page.context().setOffline(false);
});

test('the fastest order lists the shortest flights first', async ({ page }) => {
  await openHome(page);
  await page.getByLabel('Order by').selectOption('fastest');
  await expect(page).toHaveURL(/sort=fastest/);
  await waitForFlights(page);
  // Each card shows its duration ("02:35 h"); the demo flights' durations are arrival minus
  // departure, which the order sorts by.
  for (const pageNumber of [1, 2]) {
    if (pageNumber > 1) {
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page).toHaveURL(/page=2/);
      await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute(
        'aria-current',
        'page',
      );
    }
    await waitForFlights(page);
    const minutes = (await page.getByTestId('flight-card').allTextContents()).map((text) => {
      const [, hours, mins] = /(\d{2}):(\d{2}) h/.exec(text) ?? [];
      return Number(hours) * 60 + Number(mins);
    });
    expect(minutes.length).toBeGreaterThan(1);
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
  }
});

for (const theme of ['light', 'dark'] as const) {
  test.describe(() => {
    test.use({
      colorScheme: opposite(theme),
      viewport: { width: 412, height: 915 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });

    test(`the departure filter at phone size in the ${theme} theme`, async ({ page, request }) => {
      const date = await flexibleDate(request);
      await page.goto('/');
      await chooseTheme(page, theme);
      await page.goto(`/?date=${date}&flex=3&sort=price_asc`);
      await waitForFlights(page);
      await expect(page.getByTestId('departure-days')).toBeVisible();
      await page.waitForTimeout(400);
      await page.screenshot({
        path: `test-results/screens/phone/departure-dates-${theme}.png`,
        fullPage: true,
      });
      // The filter, the strip and the first cards, as a phone shows them.
      await page.getByTestId('departure-filter').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/screens/phone/departure-filter-${theme}.png` });
      // The day strip with its cheapest day, and the first cards under it.
      await page
        .getByTestId('departure-days')
        .evaluate((strip) => strip.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: `test-results/screens/phone/departure-days-${theme}.png` });
      await expectAccessible(page, `departure-dates-${theme}`);
    });
  });
}
