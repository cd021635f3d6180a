import { expect, request, test, type Page } from '@playwright/test';
import {
  accounts,
  dialog,
  expectAccessible,
  fillFlight,
  isoDate,
  logIn,
  personIn,
  shoot,
  toast,
  type FlightInput,
} from './airline-admin/helpers.ts';
import { chooseTheme, expectBrandPalette, opposite } from './support/theme.ts';

/**
 * Issue 7: the airline and super administrator journeys against the built app and a real server
 * on PostgreSQL (run with e2e/airline-admin/playwright.config.ts, or with the other journeys).
 * Everything they change belongs to accounts they create, so other journeys keep their demo data.
 */

const stamp = Date.now();
const newAirline = {
  name: 'Fjord Test Air',
  lastName: 'Tester',
  email: `e2e-airline-${stamp}@skyport.test`,
  phone: '+123 456 7890',
  password: 'Airline123!',
};

const firstFlight: FlightInput = {
  origin: 'Iceland',
  destination: 'Mongolia',
  departureDate: isoDate(30),
  departureHour: '08:15',
  arrivalDate: isoDate(31),
  arrivalHour: '06:40',
  duration: '0225',
  price: '123.45',
  // One ticket: the customer buys it and the business overview shows the row sold out.
  stock: '1',
};
const secondFlight: FlightInput = {
  ...firstFlight,
  destination: 'Japan',
  departureHour: '10:00',
  price: '300',
  stock: '40',
};

/**
 * A sale of a new flight of the demo airline, bought through the API by a new customer (verified
 * with the link from the email outbox), and the flight then deleted by the airline: it is in no
 * catalogue any more, only in the sale (issue 16). Changes nothing of the demo accounts' data.
 */
async function sellAndDeleteFlight(
  baseURL: string,
  flight: { origin: string; destination: string; day: string },
) {
  // One API client per person: each keeps its own session cookie.
  const client = () => request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  const signedIn = async (account: { email: string; password: string }) => {
    const api = await client();
    const login = await api.post('/api/auth/login', { data: account });
    expect(login.status()).toBe(200);
    return api;
  };
  const airline = await signedIn(accounts.airline);
  const created = await airline.post('/api/flights/create', {
    data: {
      flight: {
        origin: flight.origin,
        destination: flight.destination,
        departureDate: flight.day,
        departureHour: '07:45',
        arrivalDate: flight.day,
        arrivalHour: '19:30',
        durationEstimated: '11:45',
        price: 210,
        stock: 5,
      },
    },
  });
  expect(created.status()).toBe(201);
  const flightId = ((await created.json()) as { flight: { id: string } }).flight.id;

  const buyer = { email: `e2e-buyer-${stamp}@skyport.test`, password: 'Customer123!' };
  const guest = await client();
  const registered = await guest.post('/api/auth/register', {
    data: {
      name: 'Bea',
      lastName: 'Buyer',
      image: 'https://example.com/me.png',
      email: buyer.email,
      phone: '+123 456 7890',
      password: buyer.password,
      confirmPassword: buyer.password,
    },
  });
  expect(registered.status()).toBe(202);
  const admin = await signedIn(accounts.admin);
  // The email is a job on the server's queue (decision 034): it reaches the outbox shortly after.
  const verificationToken = async () => {
    const outbox = await admin.get(`/api/admin/outbox?to=${encodeURIComponent(buyer.email)}`);
    expect(outbox.status()).toBe(200);
    const messages = (await outbox.json()) as { text: string }[];
    return /verify-email\?token=([^\s"&<]+)/.exec(messages.map((m) => m.text).join('\n'))?.[1];
  };
  await expect
    .poll(verificationToken, { message: 'the verification link', timeout: 30_000 })
    .toBeTruthy();
  const token = await verificationToken();
  expect((await guest.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);

  const customer = await signedIn(buyer);
  const cart = await customer.put('/api/cart', { data: { lines: [{ flightId, amount: 2 }] } });
  expect(cart.status()).toBe(200);
  const { totalCents } = (await cart.json()) as { totalCents: number };
  const paid = await customer.post('/api/stripe', {
    headers: { 'Idempotency-Key': `e2e-sale-${stamp}` },
    data: { id: 'pm_card_visa', amount: totalCents, receipt_email: buyer.email },
  });
  expect(paid.status()).toBe(200);

  const deleted = await airline.post('/api/flights/delete', { data: { flightIds: [flightId] } });
  expect(deleted.status()).toBe(200);
  for (const api of [airline, guest, admin, customer]) await api.dispose();
  return flightId;
}

test.describe('journeys', () => {
  test.describe.configure({ mode: 'serial' });

  test('an airline registers, waits, is approved, runs its catalogue and sees a customer buy; the admin runs the marketplace', async ({
    page,
    browser,
    baseURL,
  }) => {
    const origin = baseURL!;
    const logo = `${origin}/icons/icon-192.png`;
    const chartRequests: string[] = [];
    page.on('request', (request) => {
      if (/sales-chart-[\w-]+\.js$/.test(request.url())) chartRequests.push(request.url());
    });

    // --- An airline registers: the §5 rules first, then "Registro exitoso!" and the waiting screen.
    await page.goto('/register/airline');
    await expect(page.getByRole('heading', { name: 'Add your Airline' })).toBeVisible();
    await page.getByLabel('Airline name').fill('Fjord 3 Air!');
    await page.getByLabel('Contact last name').fill(newAirline.lastName);
    await page.getByLabel(/Logo URL/).fill(`${origin}/logo.svg`);
    await page.getByLabel('Email').fill(newAirline.email);
    await page.getByLabel('Phone').fill(newAirline.phone);
    await page.getByLabel('Password', { exact: true }).fill(newAirline.password);
    await page.getByLabel('Confirm password').fill(newAirline.password);
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByTestId('error-name')).toHaveText(
      'Your first name cannot contain numbers or special characters',
    );
    await expect(page.getByTestId('error-image')).toHaveText('Please provide an image');
    await expect(page.getByTestId('error-terms')).toHaveText(
      'Agree to terms and conditions to sent form',
    );
    await expect(page.getByTestId('form-error')).toHaveText('Complete all fields');
    await expect(page.getByLabel('Airline name')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Airline name').fill(newAirline.name);
    await page.getByLabel(/Logo URL/).fill(logo);
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByTestId('error-terms')).toHaveText(
      'Agree to terms and conditions to sent form',
    );
    await expect(page.getByTestId('form-error')).toHaveText(
      'Agree to terms and conditions to sent form',
    );
    await page.getByLabel('I agree to the terms and conditions').check();
    await page.getByRole('button', { name: 'Send request' }).click();
    const registered = dialog(page, 'Registro exitoso!');
    await expect(registered).toBeVisible();
    await registered.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByTestId('pending-approval')).toContainText(
      'Your airline is waiting for approval',
    );

    // The pending airline logs in: nothing of the catalogue or the sales, only the waiting screen.
    await logIn(page, newAirline);
    for (const path of ['/catalog', '/sales', '/airlineProfile', '/catalogProfile']) {
      await page.goto(path);
      await expect(page.getByTestId('pending-approval')).toBeVisible();
      await expect(page.getByTestId('catalog-table')).toHaveCount(0);
      await expect(page.getByTestId('sales-panel')).toHaveCount(0);
    }

    // --- The admin's home is user management; "Make Admin" approves the request.
    const admin = await personIn(browser, origin, accounts.admin);
    await expect(
      admin.getByRole('heading', { name: 'All active users using the website' }),
    ).toBeVisible();
    await admin.goto('/airlinePendingRequests');
    await expect(admin.getByRole('heading', { name: 'Airline Pending Requests' })).toBeVisible();
    await expect(admin.getByText('This airlines are waiting to be accepted')).toBeVisible();
    const request = admin.locator(`[data-testid="airline-row"][data-email="${newAirline.email}"]`);
    await expect(request).toContainText(newAirline.name);
    await request.getByRole('button', { name: /^Make Admin/ }).click();
    await expect(toast(admin, `${newAirline.email} is now an approved airline`)).toBeVisible();
    await expect(request).toHaveCount(0);

    // A customer is already browsing in another browser.
    const customer = await personIn(browser, origin, accounts.customer);
    await expect(customer.getByTestId('flight-card').first()).toBeVisible();
    await customer.evaluate(() => Object.assign(window, { e2eSamePage: true }));

    // --- The approved airline: an empty catalogue, form errors first, then two flights.
    await page.goto('/catalog');
    await expect(page.getByRole('heading', { name: 'Catalog' })).toBeVisible();
    await expect(page.getByTestId('catalog-empty')).toBeVisible();
    expect(chartRequests, 'the chart code is not loaded by the catalogue').toEqual([]);

    await page.getByTestId('catalog-add').click();
    const add = dialog(page, 'Add a flight');
    await expect(add).toBeVisible();
    const box = await add.locator('.modal-box').boundingBox();
    expect(Math.round(box!.width)).toBe(800);
    await expect(add.getByRole('combobox', { name: 'Origin' })).toBeFocused();
    const form = add.getByTestId('flight-form');
    await fillFlight(form, {
      ...firstFlight,
      destination: 'Iceland',
      departureDate: isoDate(-1),
      arrivalDate: isoDate(-3),
      duration: '2',
      price: '0',
      stock: '',
    });
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByTestId('error-destination')).toHaveText('Country not allowed');
    await expect(form.getByTestId('error-departureDate')).toHaveText('Date not allowed');
    await expect(form.getByTestId('error-arrivalDate')).toHaveText('Date not allowed');
    await expect(form.getByTestId('error-durationEstimated')).toHaveText(
      'Indicate de duration estimated, please',
    );
    await expect(form.getByTestId('error-price')).toHaveText(
      'Please complete all fields correctly',
    );
    await expect(form.getByTestId('error-stock')).toHaveText('Complete all fields');
    await expect(add.getByRole('combobox', { name: 'Destination' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    // Tab stays inside the dialog (focus trap of the native modal dialog).
    for (let step = 0; step < 25; step++) {
      await page.keyboard.press('Tab');
      const inside = await page.evaluate(() => {
        const active = document.activeElement;
        return !active || active === document.body || Boolean(active.closest('dialog[open]'));
      });
      expect(inside).toBe(true);
    }

    await fillFlight(form, firstFlight);
    await expect(form.getByLabel('Duration')).toHaveValue('02:25');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add).toBeHidden();
    const rows = page.getByTestId('catalog-row');
    await expect(toast(page, 'Flight added')).toBeVisible();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).not.toHaveAttribute('data-pending', /.+/);
    await expect(rows.first()).toContainText('Iceland');
    await expect(rows.first()).toContainText('Mongolia');
    const flightId = (await rows.first().getAttribute('data-flight-id'))!;

    await page.getByTestId('catalog-add').click();
    await fillFlight(form, secondFlight);
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Japan');
    await expect(rows.nth(1)).not.toHaveAttribute('data-pending', /.+/);

    // Edit by double-click; Enter on a focused row is the keyboard way; Escape closes.
    const first = page.locator(`[data-testid="catalog-row"][data-flight-id="${flightId}"]`);
    await first.focus();
    await page.keyboard.press('Enter');
    const edit = dialog(page, 'Edit flight');
    await expect(edit).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(edit).toBeHidden();
    await expect(first).toBeFocused();

    await first.getByText('Mongolia').filter({ visible: true }).dblclick();
    await expect(edit).toBeVisible();
    await expect(edit.getByRole('combobox', { name: 'Origin' })).toHaveValue('Iceland');
    await expect(edit.getByLabel('Price')).toHaveValue('123.45');
    await edit.getByLabel('Price').fill('150');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Flight saved')).toBeVisible();
    await expect(first).toContainText('$150.00');

    // Delete: nothing selected → "Choose a flight"; then the second flight after confirming.
    await page.getByTestId('catalog-delete').click();
    const choose = dialog(page, 'Choose a flight');
    await expect(choose).toBeVisible();
    await choose.getByRole('button', { name: 'OK' }).click();
    await page.getByRole('checkbox', { name: 'Select the flight Iceland to Japan' }).check();
    await page.getByTestId('catalog-delete').click();
    const sure = dialog(page, 'Are you sure?');
    await expect(sure).toContainText("You won't be able to revert this!");
    await sure.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(toast(page, 'Deleted!')).toBeVisible();
    await expect(rows).toHaveCount(1);

    // --- The customer finds the new flight without reloading, and buys it.
    await customer.locator('form[role="search"] input[name="origin"]').fill('Iceland');
    await customer.locator('form[role="search"] input[name="destination"]').fill('Mongolia');
    await customer.locator('form[role="search"]').getByRole('button', { name: 'Search' }).click();
    const card = customer.getByTestId('flight-card').filter({ hasText: newAirline.name });
    await expect(card).toBeVisible();
    await expect(card.getByTestId('flight-price')).toContainText('150');
    expect(await customer.evaluate(() => (window as { e2eSamePage?: boolean }).e2eSamePage)).toBe(
      true,
    );
    await card.getByTestId('add-to-cart').click();
    await customer.getByTestId('cart-link').click();
    await customer.getByTestId('checkout').click();
    await expect(customer).toHaveURL(/\/payment$/);
    await customer.getByLabel('Card number').fill('4242 4242 4242 4242');
    await customer.getByLabel('Expiry (MM/YY)').fill('12/34');
    await customer.getByLabel('CVC').fill('123');
    await customer.getByTestId('pay').click();
    await expect(customer.getByRole('heading', { name: 'PAGO EXITOSO' })).toBeVisible();

    // --- The airline sees the sale and the chart (loaded only now).
    await page.goto('/sales');
    await expect(page.getByRole('heading', { name: 'Your sales' })).toBeVisible();
    const sale = page.getByTestId('sale-card').filter({ hasText: flightId });
    await expect(sale).toBeVisible();
    await expect(sale.getByTestId('sale-amount')).toHaveText('1');
    await expect(sale.getByTestId('sale-total')).toHaveText('$150.00');
    await expect(page.getByRole('heading', { name: 'Sales Chart' })).toBeVisible();
    await expect(page.locator('.apexcharts-canvas')).toBeVisible({ timeout: CHART_DRAWN_MS });
    const month = String(new Date().getMonth() + 1);
    const monthRow = page
      .getByTestId('sales-chart-data')
      .locator('tbody tr')
      .filter({ has: page.locator(`th:text-is("${month}")`) });
    await expect(monthRow.locator('td').nth(0)).toHaveText('$150.00');
    await expect(monthRow.locator('td').nth(1)).toHaveText('1');
    await expect(page.getByTestId('sales-chart-data').locator('tbody tr')).toHaveCount(12);
    expect(chartRequests.length, 'the chart code loads on the sales screen').toBeGreaterThan(0);
    await page.goto('/catalog');
    await expect(page.getByTestId('catalog-row').first()).toContainText('Sold out');

    // --- The business overview lists every airline's flights; the sold-out row stands out.
    await admin.goto('/business');
    await expect(admin.getByRole('heading', { name: 'Business', exact: true })).toBeVisible();
    const sections = admin.getByTestId('business-airline');
    await expect(sections.first()).toBeVisible({ timeout: 60_000 });
    expect(await sections.count()).toBeGreaterThan(2);
    // A long list comes ten flights at a time.
    const long = sections.filter({ has: admin.getByTestId('business-more') }).first();
    await expect(long.getByTestId('business-row')).toHaveCount(10);
    await long.getByTestId('business-more').click();
    await expect(long.getByTestId('business-row')).not.toHaveCount(10);
    const ours = sections.filter({ has: admin.getByRole('heading', { name: newAirline.name }) });
    await expect(ours.getByTestId('business-row')).toHaveCount(1);
    const soldOut = ours.getByTestId('business-row').first();
    await expect(soldOut).toHaveAttribute('data-zero-stock', 'true');
    await expect(soldOut.getByTestId('business-destination')).toHaveText('Mongolia');
    await expect(soldOut).toContainText('Sold out');

    // --- The admin disables a user, who is logged out and cannot log in again.
    const victim = { email: `e2e-disabled-${stamp}@skyport.test`, password: 'Customer123!' };
    const created = await admin.request.post('/api/auth/register', {
      headers: { Origin: origin },
      data: {
        name: 'Dana',
        lastName: 'Disabled',
        image: 'https://example.com/me.png',
        email: victim.email,
        phone: '+123 456 7890',
        password: victim.password,
        confirmPassword: victim.password,
      },
    });
    expect(created.status()).toBe(202);
    const other = await personIn(browser, origin, victim);
    await admin.goto('/userManagement');
    const userRow = admin.locator(`[data-testid="user-row"][data-email="${victim.email}"]`);
    await expect(userRow).toContainText('Dana Disabled');
    await userRow.getByTestId('disable-user').click();
    const disableSure = dialog(admin, 'Are you sure?');
    await expect(disableSure).toContainText(`${victim.email} will be logged out`);
    await disableSure.getByRole('button', { name: 'Yes, disable it!' }).click();
    await expect(userRow.getByTestId('disable-user')).toBeDisabled();
    await expect(userRow.getByTestId('disable-user')).toHaveText('Disabled');
    await expect(userRow.getByTestId('delete-user')).toBeDisabled();
    await other.goto('/profile');
    await expect(other.getByRole('link', { name: 'Log In' }).first()).toBeAttached();
    await other.goto('/login');
    await other.getByLabel('Email').fill(victim.email);
    await other.getByLabel('Password', { exact: true }).fill(victim.password);
    await other.getByRole('button', { name: 'Log In', exact: true }).click();
    await expect(dialog(other, 'Oops...')).toContainText('This account has been disabled');

    // --- The admin deletes the new airline after confirming; it is pending again.
    await admin.goto('/airlineManagement');
    await expect(
      admin.getByRole('heading', { name: 'All airlines using the website' }),
    ).toBeVisible();
    const airlineRow = admin.locator(
      `[data-testid="airline-row"][data-email="${newAirline.email}"]`,
    );
    await airlineRow.getByRole('button', { name: /^Delete Airline/ }).click();
    const confirmDelete = dialog(admin, 'Are you sure?');
    await expect(confirmDelete).toContainText("You won't be able to revert this!");
    await confirmDelete.getByRole('button', { name: 'Yes, delete it!' }).click();
    const deleted = dialog(admin, 'Deleted!');
    await expect(deleted).toBeVisible();
    await deleted.getByRole('button', { name: 'OK' }).click();
    await expect(airlineRow).toHaveCount(0);
    await admin.goto('/business');
    await expect(admin.getByTestId('business-airline').first()).toBeVisible({ timeout: 60_000 });
    await expect(
      admin
        .getByTestId('business-airline')
        .filter({ has: admin.getByRole('heading', { name: newAirline.name }) }),
    ).toHaveCount(0);
    await admin.goto('/airlinePendingRequests');
    await expect(
      admin.locator(`[data-testid="airline-row"][data-email="${newAirline.email}"]`),
    ).toBeVisible();
  });

  test('offline, catalogue and admin actions are disabled and say why; sales stay readable, with the routes and dates of deleted flights', async ({
    browser,
    baseURL,
  }) => {
    const gone = { origin: 'Norway', destination: 'Peru', day: isoDate(45) };
    const goneFlightId = await sellAndDeleteFlight(baseURL!, gone);
    const airline = await personIn(browser, baseURL!, accounts.airline);
    await airline.goto('/sales');
    // A fresh profile: the first sync stores the catalogue snapshot before it pulls the sales
    // (docs/architecture.md §4.7), which on a loaded machine takes longer than the usual 10 s.
    await expect(airline.getByTestId('sale-card').first()).toBeVisible({ timeout: 30_000 });
    const goneSale = airline.getByTestId('sale-card').filter({ hasText: goneFlightId });
    await expect(goneSale).toBeVisible();
    await airline.goto('/catalog');
    await expect(airline.getByTestId('catalog-row').first()).toBeVisible();
    await airline.context().setOffline(true);
    await expect(airline.getByTestId('catalog-offline')).toContainText('need a connection');
    await expect(airline.getByTestId('catalog-add')).toBeDisabled();
    await expect(airline.getByTestId('catalog-delete')).toBeDisabled();
    // Client-side navigation while offline: the sales kept on this device are shown.
    await airline.getByRole('link', { name: 'Sales', exact: true }).first().click();
    await expect(airline.getByTestId('sale-card').first()).toBeVisible();
    await expect(airline.getByTestId('sales-saved')).toBeVisible();
    // The sale of a flight deleted before this device ever had it still names it, by the route
    // and departure it was sold with (the replicated sale carries them), and keeps its id.
    const goneRoute = goneSale.getByTestId('sale-flight');
    await expect(goneRoute).toContainText(gone.origin);
    await expect(goneRoute).toContainText(gone.destination);
    const [year, month, day] = gone.day.split('-').map(Number) as [number, number, number];
    const departure = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
    await expect(goneRoute).toContainText(
      `Departure: ${departure.format(Date.UTC(year, month - 1, day))}`,
    );
    await expect(goneSale.getByTestId('sale-amount')).toHaveText('2');
    await expect(goneSale).toContainText(goneFlightId);
    await airline.context().setOffline(false);

    const admin = await personIn(browser, baseURL!, accounts.admin);
    await expect(admin.getByTestId('user-row').first()).toBeVisible();
    await admin.context().setOffline(true);
    await expect(admin.getByTestId('admin-offline')).toContainText('need a connection');
    await expect(admin.getByTestId('delete-user').first()).toBeDisabled();
    await admin.context().setOffline(false);
  });
});

// --- Screens in both themes, desktop and phone, with an axe check -------------------------------

/**
 * How long a sales chart may take to appear: its chunk (ApexCharts) loads lazily and draws once
 * the sales have replicated, which took over 10 s with three suites at once on two busy cores.
 */
const CHART_DRAWN_MS = 30_000;

async function visit(page: Page, path: string, ready: () => Promise<void>) {
  await page.goto(path);
  await ready();
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(() => {
    // The theme is chosen with the switch while the system prefers the other one: the brand
    // palette under an explicit data-theme is what is checked (support/theme.ts).
    test.use({ colorScheme: opposite(theme) });

    test(`airline and admin screens in the ${theme} theme @screens`, async ({ page }, info) => {
      // A dozen screens, each shot and checked with axe.
      test.setTimeout(600_000);
      const project = info.project.name;
      const snap = async (name: string, fullPage?: boolean) => {
        await shoot(page, `${name}-${theme}`, project, fullPage);
        await expectAccessible(page, `${name}-${theme}`);
      };

      await page.goto('/');
      await chooseTheme(page, theme);
      await expectBrandPalette(page, theme);
      await visit(page, '/register/airline', () =>
        expect(page.getByRole('heading', { name: 'Add your Airline' })).toBeVisible(),
      );
      await snap('register-airline');
      await page.getByRole('button', { name: 'Send request' }).click();
      await expect(page.getByTestId('form-error')).toBeVisible();
      await snap('register-airline-errors');

      // A pending airline (the choice stays with this browser through each login).
      await logIn(page, accounts.pending);
      await chooseTheme(page, theme);
      await visit(page, '/catalog', () =>
        expect(page.getByTestId('pending-approval')).toBeVisible(),
      );
      await snap('pending-approval');

      // An approved airline.
      await logIn(page, accounts.airline);
      await chooseTheme(page, theme);
      await visit(page, '/catalog', () =>
        expect(page.getByTestId('catalog-row').first()).toBeVisible(),
      );
      await snap('catalog');
      await page.getByTestId('catalog-add').click();
      const add = dialog(page, 'Add a flight');
      await expect(add).toBeVisible();
      await add.getByRole('button', { name: 'Save' }).click();
      // The §5 error texts of the flight form.
      await expect(add.getByTestId('error-origin')).toHaveText('Complete all fields');
      await snap('flight-form-errors');
      await add.getByRole('combobox', { name: 'Origin' }).fill('Ar');
      await expect(page.getByRole('option', { name: 'Argentina' })).toBeVisible();
      await snap('flight-form');
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await expect(add).toBeHidden();
      await page.getByTestId('catalog-row').first().dblclick();
      await expect(dialog(page, 'Edit flight')).toBeVisible();
      await snap('flight-form-edit');
      await page.keyboard.press('Escape');
      await visit(page, '/catalogProfile', () =>
        expect(page.getByTestId('catalog-row').first()).toBeVisible(),
      );
      await snap('catalog-profile');
      await visit(page, '/sales', () =>
        expect(page.locator('.apexcharts-canvas')).toBeVisible({ timeout: CHART_DRAWN_MS }),
      );
      await snap('sales');
      await visit(page, '/airlineProfile', () =>
        expect(page.locator('.apexcharts-canvas')).toBeVisible({ timeout: CHART_DRAWN_MS }),
      );
      await snap('airline-profile');

      // The super administrator.
      await logIn(page, accounts.admin);
      await chooseTheme(page, theme);
      await expect(page.getByTestId('user-row').first()).toBeVisible();
      await snap('admin-home');
      await visit(page, '/userManagement', () =>
        expect(page.getByTestId('user-row').first()).toBeVisible(),
      );
      await snap('user-management');
      await visit(page, '/airlineManagement', () =>
        expect(page.getByTestId('airline-row').first()).toBeVisible(),
      );
      await snap('airline-management');
      await page.getByTestId('delete-airline').first().click();
      await expect(dialog(page, 'Are you sure?')).toBeVisible();
      await snap('airline-management-confirm');
      await dialog(page, 'Are you sure?').getByRole('button', { name: 'Cancel' }).click();
      await visit(page, '/airlinePendingRequests', () =>
        expect(page.getByRole('heading', { name: 'Airline Pending Requests' })).toBeVisible(),
      );
      await expect(
        page.getByTestId('airline-row').or(page.getByTestId('pending-requests-empty')).first(),
      ).toBeVisible();
      await snap('pending-requests');
      // Every airline's flights from the local database: the first visit may wait for the first
      // sync.
      await visit(page, '/business', () =>
        expect(page.getByTestId('business-airline').first()).toBeVisible({ timeout: 60_000 }),
      );
      await snap('business', false);
      await expectBrandPalette(page, theme);
    });
  });
}
