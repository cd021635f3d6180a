import { expect, test, type Page } from '@playwright/test';
import {
  logIn,
  openHome,
  toast,
  waitForApp,
  waitForCatalogueOnDevice,
  waitForFlights,
} from './support/helpers.ts';

const priceOf = (text: string) => Number(text.replace(/[^0-9.]/g, ''));

test('a guest browses, searches, filters, sorts, pages, opens a detail, fills the cart and meets the login wall', async ({
  page,
  request,
}) => {
  await openHome(page);
  await expect(page.getByTestId('flight-card')).toHaveCount(6);
  await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add your Airline' })).toHaveAttribute(
    'href',
    '/register/airline',
  );

  // Pages: Next, then a page number; the current page is marked.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByRole('button', { name: 'Page 1' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // Sort by price, low to high: every change returns to page 1.
  await page.getByRole('button', { name: 'Page 3' }).click();
  await page.getByLabel('Order by').selectOption('price_asc');
  await expect(page).toHaveURL(/sort=price_asc/);
  await expect(page).not.toHaveURL(/page=/);
  await waitForFlights(page);
  const ascending = (await page.getByTestId('flight-price').allTextContents()).map(priceOf);
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));

  // The price slider's first mark: up to 20.000.
  const slider = page.getByLabel(/^Price/);
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(page).toHaveURL(/band=low/);
  await expect(page.getByTestId('band-label')).toHaveText('Up to 20.000');
  await waitForFlights(page);
  for (const price of (await page.getByTestId('flight-price').allTextContents()).map(priceOf)) {
    expect(price).toBeLessThanOrEqual(20_000);
  }

  // The airline autocomplete combines with the price band.
  const airlines = (await (await request.get('/api/airlines?pageSize=100')).json()) as {
    items: { id: string; name: string }[];
  };
  const airline = airlines.items[0]!;
  await page.getByRole('combobox', { name: 'Airline', exact: true }).fill(airline.name);
  await expect(page).toHaveURL(new RegExp(`airlineId=${airline.id}`));
  await expect(page).toHaveURL(/band=low/);
  const totalText = page.getByTestId('flights-total').or(page.getByTestId('flights-not-found'));
  await expect(totalText).toBeVisible();
  for (const name of await page.getByTestId('flight-airline').allTextContents())
    expect(name).toBe(airline.name);

  // A combination without flights shows the spec's message.
  let empty: { airlineId: string; band: string } | undefined;
  for (const candidate of airlines.items) {
    for (const band of ['low', 'mid', 'high']) {
      const answer = (await (
        await request.get(`/api/flights?airlineId=${candidate.id}&band=${band}`)
      ).json()) as { total: number };
      if (answer.total === 0) empty ??= { airlineId: candidate.id, band };
    }
  }
  if (empty) {
    await page.goto(`/?airlineId=${empty.airlineId}&band=${empty.band}`);
    await expect(page.getByTestId('flights-not-found')).toHaveText(
      'Flights not found, search again please!',
    );
  }

  // Reset filter clears everything.
  await page.getByTestId('reset-filter').click();
  await expect(page).toHaveURL(/\/$/);
  await waitForFlights(page);

  // Origin search: every card leaves from there.
  const origin = (await page.getByTestId('flight-origin').first().textContent())!;
  const originField = page.getByRole('search').getByLabel('Origin');
  await originField.fill(origin);
  // The field suggests the places flights leave from (its datalist, from the local catalogue),
  // the searched one among them, and no other.
  const suggestions = page.locator(
    `datalist[id="${await originField.getAttribute('list')}"] option`,
  );
  await expect(suggestions.and(page.locator(`[value="${origin}"]`))).toHaveCount(1);
  for (const place of await suggestions.evaluateAll((options) =>
    options.map((option) => (option as HTMLOptionElement).value),
  )) {
    const answer = (await (
      await request.get(`/api/flights?origin=${encodeURIComponent(place)}`)
    ).json()) as { originNotFound: boolean };
    expect(answer.originNotFound, place).toBe(false);
  }
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(
    new RegExp(`origin=${encodeURIComponent(origin).replace(/%20/g, '(%20|\\+)')}`),
  );
  await waitForFlights(page);
  for (const text of await page.getByTestId('flight-origin').allTextContents())
    expect(text).toBe(origin);

  // No match: "opps... Origin not found" and the search resets.
  await page.getByRole('search').getByLabel('Origin').fill('Atlantis');
  await page.getByRole('search').getByLabel('Destination').fill('Lemuria');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(toast(page, 'opps... Origin not found')).toBeVisible();
  await expect(page).not.toHaveURL(/origin=/);

  // Detail page with every field, then Add to cart.
  await waitForFlights(page);
  await page
    .getByRole('link', { name: /^Details:/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/ticket\//);
  const detail = page.getByTestId('flight-detail');
  for (const label of [
    'Airline',
    'Departure date',
    'Estimated duration',
    'Departure hour',
    'Arrival hour',
    'Origin',
    'Destination',
    'Price',
  ]) {
    await expect(detail.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Go to Home' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Customer reviews' })).toBeVisible();
  await page.getByTestId('add-to-cart').click();
  await expect(toast(page, 'Ticket added to cart')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('1');

  // Cart: plus, minus, order summary; checkout as a guest goes to the login page.
  await page.getByTestId('cart-link').click();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await page.getByTestId('cart-plus').click();
  await expect(page.getByTestId('cart-amount')).toHaveText('2');
  await expect(page.getByTestId('cart-count')).toHaveText('2');
  await page.getByTestId('cart-minus').click();
  await expect(page.getByTestId('cart-amount')).toHaveText('1');
  await expect(page.getByTestId('cart-minus')).toBeDisabled();
  const subtotal = priceOf((await page.getByTestId('subtotal').textContent())!);
  const fee = priceOf((await page.getByTestId('fee').textContent())!);
  const total = priceOf((await page.getByTestId('total').textContent())!);
  expect(fee).toBeCloseTo(Math.round(subtotal * 0.1) / 100, 2);
  expect(total).toBeCloseTo(subtotal + fee, 2);
  await page.getByTestId('checkout').click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(toast(page, 'You need to be logged to buy')).toBeVisible();
});

test('a guest is told to log in before saving a favourite', async ({ page }) => {
  await openHome(page);
  await page.getByTestId('favourite-button').first().click();
  await expect(toast(page, 'Log in to save your favorites!')).toBeVisible();
});

test('the prerendered home page paints before any script and the app takes it over in place', async ({
  page,
}) => {
  const mismatches: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('did not match')) mismatches.push(message.text());
  });
  // What the HTML alone shows: the page frame, the hero and the search, before scripts run.
  const html = await (await page.request.get('/')).text();
  expect(html).toContain('Find your next flight');
  expect(html).toContain('role="search"');
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { prerenderedHeading: Element | null }).prerenderedHeading =
        document.querySelector('h1');
    });
  });
  await openHome(page);
  await waitForApp(page);
  // Hydrated, not replaced: the heading parsed from the HTML is the one on screen.
  expect(
    await page.evaluate(
      () =>
        (window as unknown as { prerenderedHeading: Element | null }).prerenderedHeading ===
        document.querySelector('h1'),
    ),
  ).toBe(true);
  expect(mismatches).toEqual([]);
  // Elsewhere the prerendered home page never shows: the route's own screen does.
  await page.goto('/no/such/page');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Find your next flight' })).toHaveCount(0);
});

test('an unknown path shows the 404 page with a way back home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(
    page.getByRole('heading', {
      name: 'Error 404 Page Not Found! There are no Flights or Tickets here',
    }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await waitForFlights(page);
});

test('the chosen theme persists across a reload and otherwise follows the system', async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto('/');
  // No choice yet: the system's dark preference wins, without a data-theme attribute.
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/);
  await expect(page.getByTestId('theme-switch')).toHaveAttribute('data-theme-now', 'dark');
  await page.getByTestId('theme-switch').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.getByTestId('theme-switch')).toHaveAttribute('data-theme-now', 'light');
  await context.close();
});

test('two tabs: the first pulls the catalogue and the account, the second reads them, and takes over when the first closes', async ({
  page,
  context,
}) => {
  /** The collections whose snapshot or pulls a tab asked for. */
  const pullsOf = (tab: Page) => {
    const pulls: string[] = [];
    tab.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      const pulled = /^\/api\/sync\/(\w+)\/(pull|snapshot)$/.exec(path);
      if (pulled) pulls.push(`${pulled[1]} ${pulled[2]}`);
    });
    return pulls;
  };
  const firstPulls = pullsOf(page);
  await openHome(page);
  await waitForCatalogueOnDevice(page);
  // One download of the catalogue: the tab that leads keeps the one it asked for at start.
  expect(firstPulls.filter((pull) => pull === 'flights snapshot')).toHaveLength(1);
  await logIn(page);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-status', 'up-to-date');
  expect(firstPulls).toEqual(expect.arrayContaining(['airlines pull', 'cart pull']));

  const second = await context.newPage();
  const secondPulls = pullsOf(second);
  await openHome(second);
  await expect(second.getByTestId('sync-status')).toHaveAttribute('data-status', 'up-to-date');
  expect(secondPulls).toEqual([]);

  // The first tab closes: the second now leads, and pulls on from where the first left off.
  await page.close();
  await expect
    .poll(() => secondPulls)
    .toEqual(expect.arrayContaining(['flights pull', 'airlines pull', 'cart pull']));
});
