import { expect, test, type Browser, type Page } from '@playwright/test';
import { decodeJwt } from 'jose';
import { TicketClaimsSchema, type TicketClaims } from '@skyport/shared';
import { phone } from '../support/devices.ts';
import {
  accountTheme,
  expectAccessible,
  fillCard,
  logIn,
  syncedCartCount,
  waitForApp,
} from '../support/helpers.ts';
import { chooseTheme } from '../support/theme.ts';
import { queryOn, ticketsServer } from '../support/servers.ts';

/**
 * Issue 17 in Chromium against the real server: a customer buys and My Orders shows each line's
 * signed e-ticket as a QR code with its code; a second browser profile that opened /verify-ticket
 * once online verifies the pasted ticket with no connection (the keys it kept on the device), and
 * online also learns from the server whether the ticket was voided.
 */

test.describe.configure({ mode: 'serial' });

/** What the purchase left: the order, its ticket and the ticket's claims. */
let bought: { orderId: string; ticket: string; claims: TicketClaims } | undefined;
const purchase = () => {
  if (!bought) throw new Error('the purchase test did not run');
  return bought;
};

/** The newest order of the signed-in customer and its first line, as the API answers them. */
async function newestOrder(page: Page) {
  const orders = (await (await page.request.get('/api/orders')).json()) as {
    id: string;
    stocks: { amount: number; ticket?: string }[];
  }[];
  return orders[0]!;
}

/** A second browser profile: its own storage, service worker and cookies (nobody signed in). */
async function secondProfile(browser: Browser, baseURL: string | undefined, options = {}) {
  const context = await browser.newContext({
    baseURL,
    locale: 'en-US',
    serviceWorkers: 'allow',
    ...options,
  });
  return { context, page: await context.newPage() };
}

async function verify(page: Page, ticket: string) {
  await page.getByLabel('Ticket code').fill(ticket);
  await page.getByTestId('verify-ticket').click();
}

test('a customer buys; My Orders shows the signed ticket as a QR code with its code', async ({
  page,
}) => {
  await logIn(page);
  const inCart = await syncedCartCount(page);
  await page.getByTestId('add-to-cart').first().click();
  await expect(page.getByTestId('cart-count')).toHaveText(String(inCart + 1));
  await page.goto('/payment');
  await fillCard(page);
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-success')).toBeVisible();
  await expect(page).toHaveURL(/\/purchases$/, { timeout: 10_000 });

  const order = await newestOrder(page);
  const ticket = order.stocks[0]!.ticket!;
  expect(ticket).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  const claims = TicketClaimsSchema.parse(decodeJwt(ticket));
  const me = (await (await page.request.get('/api/auth/me')).json()) as {
    user: { name: string | null; lastName: string | null; email: string };
  };
  expect(claims).toMatchObject({ order: order.id, seats: order.stocks[0]!.amount });
  expect(claims.name).toBe(
    [me.user.name, me.user.lastName].filter(Boolean).join(' ') || me.user.email,
  );
  bought = { orderId: order.id, ticket, claims };

  // The order replicated with its ticket: the newest card shows it, offline-ready.
  const card = page.getByTestId('order-card').first();
  await card.getByTestId('show-ticket').first().click();
  const shown = card.getByTestId('line-ticket');
  await expect(shown).toBeVisible();
  await expect(shown.getByTestId('ticket-qr')).toBeVisible();
  await expect(
    shown.getByRole('img', { name: `E-ticket: ${claims.airline}, ${claims.from} to ${claims.to}` }),
  ).toBeVisible();
  await expect(shown.getByTestId('ticket-code')).toHaveValue(ticket);
  // The QR code is a real symbol: a square of dark modules on a quiet zone.
  const path = await shown.locator('[data-testid="ticket-qr"] path').getAttribute('d');
  expect(path?.match(/M/g)?.length ?? 0).toBeGreaterThan(500);
});

test('phone screenshots in both themes: My Orders with a ticket and the verification page', async ({
  browser,
  baseURL,
}) => {
  const { ticket } = purchase();
  // One device for both themes: the second choice is an ordinary change of the account's theme.
  const { context, page } = await secondProfile(browser, baseURL, phone);
  await logIn(page);
  for (const theme of ['light', 'dark'] as const) {
    await chooseTheme(page, theme);
    // The choice is the account's once the server has it: only then may the page load again
    // (a reload before the push would bring the account's earlier theme back with the next pull).
    await expect.poll(() => accountTheme(page)).toBe(theme);
    await page.goto('/purchases');
    const card = page.getByTestId('order-card').first();
    await card.getByTestId('show-ticket').first().click();
    await expect(card.getByTestId('ticket-code')).toHaveValue(ticket);
    await card.getByTestId('line-ticket').scrollIntoViewIfNeeded();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `test-results/tickets/my-orders-ticket-${theme}.png` });
    await expectAccessible(page, `my-orders-ticket-${theme}`);

    // The navbar's menu leads anyone to the verification page.
    await page.getByTestId('profile-menu-button').click();
    await page.getByTestId('profile-menu').getByRole('link', { name: 'Verify ticket' }).click();
    await expect(page).toHaveURL(/\/verify-ticket$/);
    await expect(page.getByTestId('ticket-keys')).toHaveAttribute('data-keys', /^[1-9]/);
    await verify(page, ticket);
    await expect(page.getByTestId('ticket-server-status')).toHaveAttribute('data-status', 'valid');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.waitForTimeout(300);
    await page.screenshot({
      path: `test-results/tickets/verify-ticket-${theme}.png`,
      fullPage: true,
    });
    await expectAccessible(page, `verify-ticket-${theme}`);
  }
  await context.close();
});

test('a second profile that opened /verify-ticket once verifies the ticket offline; online it hears it is void once cancelled', async ({
  browser,
  baseURL,
}) => {
  const { ticket, claims, orderId } = purchase();
  const { context, page } = await secondProfile(browser, baseURL);

  // Once online, as a guest: the page keeps the key set on the device.
  await page.goto('/verify-ticket');
  await waitForApp(page);
  await expect(page.getByTestId('ticket-keys')).toHaveAttribute('data-keys', /^[1-9]/);
  // The service worker has the app shell, so the page opens again without a network.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
  await expect(page.getByTestId('ticket-keys')).toHaveAttribute('data-keys', /^[1-9]/);

  // Pasted (with the white space a copy brings), it verifies against the keys on the device.
  await verify(page, `  ${ticket}\n`);
  const result = page.getByTestId('ticket-result');
  await expect(result).toHaveAttribute('data-result', 'valid');
  await expect(result.getByTestId('ticket-passenger')).toHaveText(claims.name);
  await expect(result.getByTestId('ticket-airline')).toHaveText(claims.airline);
  await expect(result.getByTestId('ticket-route')).toHaveText(`${claims.from} → ${claims.to}`);
  const [year, month, day] = claims.date.split('-').map(Number) as [number, number, number];
  const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    Date.UTC(year, month - 1, day),
  );
  await expect(result.getByTestId('ticket-departure')).toContainText(date);
  await expect(result.getByTestId('ticket-seats')).toHaveText(String(claims.seats));
  await expect(result.getByTestId('ticket-order')).toHaveText(orderId);
  await expect(page.getByTestId('ticket-server-status')).toHaveAttribute('data-status', 'offline');

  // An altered ticket (more seats) fails offline too.
  const [header, payload, signature] = ticket.split('.') as [string, string, string];
  const altered = Buffer.from(
    JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), seats: 9 }),
  ).toString('base64url');
  await verify(page, `${header}.${altered}.${signature}`);
  await expect(result).toHaveAttribute('data-result', 'invalid');
  await expect(result).toHaveAttribute('data-problem', 'bad-signature');
  // Something that is not a ticket is refused at the field, and nothing is checked.
  await page.getByLabel('Ticket code').fill('not a ticket');
  await page.getByTestId('verify-ticket').click();
  await expect(page.getByTestId('error-ticket')).toContainText('This is not a ticket');
  await expect(result).toHaveCount(0);

  // Online, the server is asked too: valid, and void once its order is cancelled.
  await context.setOffline(false);
  await expect(page.getByTestId('offline-indicator')).toBeHidden();
  await verify(page, ticket);
  await expect(page.getByTestId('ticket-server-status')).toHaveAttribute('data-status', 'valid');
  // No route cancels a confirmed order yet: it is cancelled where it is stored, as a refund would.
  queryOn(
    ticketsServer,
    `UPDATE orders SET status = 'cancelled', deleted = true WHERE id = '${orderId}'`,
  );
  await verify(page, `${ticket} `);
  await expect(result).toHaveAttribute('data-result', 'valid');
  await expect(page.getByTestId('ticket-server-status')).toHaveAttribute('data-status', 'void');
  await expect(page.getByTestId('ticket-server-status')).toContainText('Void');
  await context.close();
});
