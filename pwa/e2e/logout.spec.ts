import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PULL_MAX_BATCH, SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';
import { PENDING_LOGOUT_KEY } from '../src/features/identity/logout/deferred-logout.ts';
import {
  clickLogOut,
  customer,
  dialog,
  goOffline,
  logIn,
  syncedCartCount,
  toast,
  waitForApp,
} from './support/helpers.ts';

/**
 * Logout that loses nothing (issue 14): the choice when changes could not be sent, the offline
 * logout that wipes the device at once and ends the server session when the connection returns,
 * and a new login that a deferred logout must not end.
 */

/** The session cookie's value: the token the server knows this browser's session by. */
async function sessionToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name.endsWith('skyport_session'));
  expect(cookie).toBeDefined();
  return cookie!.value;
}

/** Logs the customer in; returns the new session's token. */
async function logInSession(page: Page): Promise<string> {
  await logIn(page);
  return sessionToken(page);
}

/** `GET /api/auth/me` with a session token, from outside the browser. */
async function me(request: APIRequestContext, token: string): Promise<number> {
  const response = await request.get('/api/auth/me', {
    headers: { Authorization: `Bearer ${token}` },
  });
  return response.status();
}

/** The customer's favourites on the server (signed in from outside the browser). */
async function serverFavourites(request: APIRequestContext): Promise<string[]> {
  const login = await request.post('/api/auth/login', { data: customer });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const response = await request.get(`/api/sync/favourites/pull?limit=${PULL_MAX_BATCH}`, {
    headers: {
      [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION),
      Authorization: `Bearer ${token}`,
    },
  });
  const body = (await response.json()) as { documents: { id: string; _deleted: boolean }[] };
  await request.post('/api/auth/logout', { headers: { Authorization: `Bearer ${token}` } });
  return body.documents.filter((doc) => !doc._deleted).map((doc) => doc.id);
}

async function pendingLogoutFlag(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), PENDING_LOGOUT_KEY);
}

/** Saves the first flight on the page that is not a favourite yet; returns how many are saved. */
async function saveAFavourite(page: Page): Promise<number> {
  const hearts = page.getByTestId('favourite-button');
  // The cards first: on a busy machine the page may still be drawing them.
  await expect(hearts.first()).toBeVisible();
  const states = await hearts.evaluateAll((buttons) =>
    buttons.map((button) => (button as HTMLButtonElement).disabled),
  );
  const index = states.indexOf(false);
  expect(index).toBeGreaterThanOrEqual(0);
  await hearts.nth(index).click();
  await expect(hearts.nth(index)).toBeDisabled();
  return states.filter(Boolean).length + 1;
}

/** The navbar of a guest (desktop: "Log In" in the bar, no profile menu button). */
async function expectGuest(page: Page) {
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Log In' })).toBeVisible();
  await expect(page.getByTestId('profile-menu-button')).toBeHidden();
}

/** "Log out!" is shown, and the navbar is a guest's. */
async function expectLoggedOut(page: Page) {
  await expect(toast(page, 'Log out!')).toBeVisible();
  await expectGuest(page);
}

test('offline logout: the unsent change is counted; "Stay signed in" keeps it, "Log out anyway" wipes the device at once and the session ends when the connection returns', async ({
  page,
  context,
  request,
}) => {
  const token = await logInSession(page);
  // The device holds the account's data (the local data layer is open) before the network goes.
  await syncedCartCount(page);

  // Offline, a favourite is saved on the device only.
  await goOffline(page);
  const saved = await saveAFavourite(page);

  await clickLogOut(page);
  const unsent = dialog(page, 'Some of your changes are not saved yet');
  await expect(unsent).toBeVisible();
  await expect(unsent.getByTestId('logout-unsent')).toContainText(
    '1 change made on this device could not be sent',
  );
  await expect(unsent.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
  await page.screenshot({ path: 'test-results/logout/unsent-changes-dialog.png' });

  // Stay signed in: back where the user was, still signed in, the change still here.
  await unsent.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(unsent).toBeHidden();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('profile-menu-button')).toBeVisible();
  await expect(page.getByTestId('favourite-button').and(page.locator(':disabled'))).toHaveCount(
    saved,
  );
  expect(await me(request, token)).toBe(200);

  // Back online, the kept change reaches the server.
  await context.setOffline(false);
  await expect
    .poll(async () => (await serverFavourites(request)).length, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(saved);
  const onServer = (await serverFavourites(request)).length;

  // Offline again: another favourite, then "Log out anyway".
  await goOffline(page);
  await saveAFavourite(page);
  await clickLogOut(page);
  await expect(unsent.getByTestId('logout-unsent')).toContainText('1 change');
  await unsent.getByRole('button', { name: 'Log out anyway' }).click();

  // At once, offline: "Log out!", home as a guest, nothing of the customer left on the device.
  await expectLoggedOut(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('favourite-button').and(page.locator(':disabled'))).toHaveCount(0);
  await expect(page.getByTestId('cart-count')).toHaveText('0');
  // The server session is still open, and the device remembers to end it.
  expect(await pendingLogoutFlag(page)).not.toBeNull();
  expect(await me(request, token)).toBe(200);

  // The connection returns: the old session is ended, the flag dropped.
  await context.setOffline(false);
  await expect.poll(() => me(request, token), { timeout: 15_000 }).toBe(401);
  await expect.poll(() => pendingLogoutFlag(page)).toBeNull();
  // The discarded change never reached the server.
  expect((await serverFavourites(request)).length).toBe(onServer);
});

test('a logout the server did not get: the next start ends that session before asking who is signed in', async ({
  page,
  request,
}) => {
  const token = await logInSession(page);

  // The logout request does not get through (the network drops it).
  await page.route('**/api/auth/logout', (route) => route.abort('internetdisconnected'));
  await clickLogOut(page);
  await expectLoggedOut(page);
  expect(await pendingLogoutFlag(page)).not.toBeNull();
  expect(await me(request, token)).toBe(200);

  // Next start: the deferred logout goes out first; the cookie it ends is nobody's session here.
  await page.unroute('**/api/auth/logout');
  const auth: string[] = [];
  page.on('request', (sent) => {
    const path = new URL(sent.url()).pathname;
    if (path.startsWith('/api/auth/')) auth.push(`${sent.method()} ${path}`);
  });
  await page.reload();
  await waitForApp(page);
  await expect.poll(() => me(request, token)).toBe(401);
  await expectGuest(page);
  expect(await pendingLogoutFlag(page)).toBeNull();
  expect(auth[0]).toBe('POST /api/auth/logout');
});

test('a new login before the deferred logout went out keeps its session', async ({
  page,
  context,
  request,
}) => {
  const oldToken = await logInSession(page);
  await context.setOffline(true);
  await clickLogOut(page);
  await expectLoggedOut(page);
  expect(await pendingLogoutFlag(page)).not.toBeNull();

  // The connection returns but the logout does not get through before the user logs in again.
  await page.route('**/api/auth/logout', (route) => route.abort('internetdisconnected'));
  await context.setOffline(false);
  await logIn(page);
  const newToken = await sessionToken(page);
  expect(newToken).not.toBe(oldToken);
  expect(await pendingLogoutFlag(page)).toBeNull();
  // The login ended the old session itself.
  expect(await me(request, oldToken)).toBe(401);

  // Later connection changes and a restart send no logout: the new session stays.
  await page.unroute('**/api/auth/logout');
  await context.setOffline(true);
  await context.setOffline(false);
  await page.reload();
  await waitForApp(page);
  await expect(page.getByTestId('profile-menu-button')).toBeVisible();
  expect(await me(request, newToken)).toBe(200);
});
