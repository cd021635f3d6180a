import { expect, request, test, type APIRequestContext, type Page } from '@playwright/test';
import { accounts, expectAccessible, goOffline, isoDate, logIn, toast } from './support/helpers.ts';
import { chooseTheme } from './support/theme.ts';

/**
 * Issue 17, "Honest prices", in Chromium (docs/architecture.md §4.9): a customer keeps a flight
 * as a favourite and goes offline, and the prices say how old they are; meanwhile its airline
 * lowers the price through the API. On the first sync back online the customer gets a notice
 * (and a system notification, allowed), Favourites shows "Price dropped" with the old and new
 * price, and the flight's price history chart has two points. Screenshots of both screens at
 * phone size in both themes land in pwa/test-results/screens/price-drop/ (each checked with axe).
 */

const PHONE = { width: 412, height: 915 };

/** The flight the airline sells in this journey (its own, so that other journeys never see it). */
function flightFields(price: number) {
  const day = isoDate(45);
  return {
    origin: 'Uruguay',
    destination: 'Paraguay',
    departureDate: day,
    departureHour: '09:15',
    arrivalDate: day,
    arrivalHour: '11:45',
    durationEstimated: '02:30',
    price,
    stock: 20,
  };
}

async function airlineApi(baseURL: string) {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  const login = await api.post('/api/auth/login', { data: accounts.airline });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  return { api, headers: { Authorization: `Bearer ${token}` } };
}

/** The notifications this origin's service worker shows now (their bodies). */
function shownNotifications(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const notifications = (await registration?.getNotifications()) ?? [];
    return notifications.map((notification) => notification.body);
  });
}

async function shoot(page: Page, name: string) {
  // Let toasts and the chart settle so the picture shows the screen itself.
  await page.waitForTimeout(400);
  await page.screenshot({ path: `test-results/screens/price-drop/${name}.png`, fullPage: true });
}

test("a favourite's price drop shows as a notice, a badge and a two-point history", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000);
  let airline: { api: APIRequestContext; headers: Record<string, string> } | undefined;
  let flightId: string | undefined;
  try {
    airline = await airlineApi(baseURL!);
    const created = await airline.api.post('/api/flights/create', {
      headers: airline.headers,
      data: { flight: flightFields(500) },
    });
    expect(created.status()).toBe(201);
    flightId = ((await created.json()) as { flight: { id: string } }).flight.id;

    // The customer keeps it as a favourite: its history starts with one price.
    await logIn(page);
    await page.goto(`/ticket/${flightId}`);
    await expect(page.getByTestId('price-history-not-followed')).toBeVisible();
    await page.getByTestId('favourite-button').click();
    await expect(toast(page, 'Ticket added to favorites')).toBeVisible();
    await expect(page.getByTestId('price-history')).toHaveAttribute('data-points', '1');
    await expect(page.getByTestId('price-history-empty')).toContainText('$500.00 since');

    // Favourites offers system notifications, asked for only from this button (never on load).
    await page.goto('/favs');
    const favourite = page
      .getByTestId('favourite')
      .filter({ has: page.locator(`a[href="/ticket/${flightId}"]`) });
    await expect(favourite).toHaveCount(1);
    await expect(page.getByTestId('notify-price-drops')).toHaveText('Notify me of price drops');
    await expect(favourite.getByTestId('favourite-price-drop')).toHaveCount(0);
    // The customer allows them (as the browser's prompt would after the button).
    await context.grantPermissions(['notifications'], { origin: baseURL! });

    // Live prices say nothing about their age; offline, they do.
    await page.goto(`/ticket/${flightId}`);
    await expect(page.getByTestId('detail-price')).toHaveText('$500.00');
    await page.waitForTimeout(2_500); // longer than the note's grace (ui/price-freshness.tsx)
    await expect(page.getByTestId('price-freshness')).toHaveCount(0);
    await goOffline(page);
    await expect(page.getByTestId('price-freshness')).toHaveText(
      /^Prices as of (now|\d+ seconds? ago)$/,
    );

    // The airline lowers the price while the customer's device is offline.
    const updated = await airline.api.put('/api/flights/update', {
      headers: airline.headers,
      data: { flight: { id: flightId, ...flightFields(400) } },
    });
    expect(updated.status()).toBe(200);

    // The first sync back online brings the drop: a notice, a notification, a second point.
    await context.setOffline(false);
    await expect(
      toast(page, 'Price dropped: Uruguay → Paraguay, now $400.00 (was $500.00)'),
    ).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('detail-price')).toHaveText('$400.00');
    await expect(page.getByTestId('price-freshness')).toHaveCount(0);
    await expect
      .poll(() => shownNotifications(page))
      .toContain('Price dropped: Uruguay → Paraguay, now $400.00 (was $500.00)');
    const history = page.getByTestId('price-history');
    await expect(history).toHaveAttribute('data-points', '2');
    await expect(page.getByTestId('price-history-canvas')).toHaveAttribute('data-points', '2');
    await expect(history.locator('.apexcharts-series-markers .apexcharts-marker')).toHaveCount(2);
    await expect(page.getByTestId('price-history-data').locator('tbody tr')).toHaveText([
      /\$500\.00$/,
      /\$400\.00$/,
    ]);

    // Favourites shows the drop, with the last price and the new one.
    await page.goto('/favs');
    const badge = favourite.getByTestId('favourite-price-drop');
    await expect(badge).toContainText('Price dropped');
    await expect(badge).toContainText('$500.00 → $400.00');
    await expect(page.getByTestId('price-drop-notifications')).toHaveAttribute(
      'data-state',
      'granted',
    );

    // Screenshots at phone size, in both themes.
    await page.setViewportSize(PHONE);
    for (const theme of ['light', 'dark'] as const) {
      await page.goto('/favs');
      await chooseTheme(page, theme);
      await expect(badge).toBeVisible();
      await badge.scrollIntoViewIfNeeded();
      await shoot(page, `favourites-price-drop-${theme}`);
      await expectAccessible(page, `favourites-price-drop-${theme}`);
      await page.goto(`/ticket/${flightId}`);
      await expect(history.locator('.apexcharts-marker')).toHaveCount(2);
      await shoot(page, `flight-price-history-${theme}`);
      await expectAccessible(page, `flight-price-history-${theme}`);
    }

    // Leave the account as it was: the favourite goes.
    await page.goto('/favs');
    await favourite.getByTestId('remove-favourite').click();
    await expect(favourite).toHaveCount(0);
  } finally {
    await context.setOffline(false).catch(() => undefined);
    if (airline && flightId) {
      await airline.api.post('/api/flights/delete', {
        headers: airline.headers,
        data: { flightIds: [flightId] },
      });
    }
    await airline?.api.dispose();
  }
});
