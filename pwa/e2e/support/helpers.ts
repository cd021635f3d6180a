import AxeBuilder from '@axe-core/playwright';
import {
  expect,
  test,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import {
  PULL_MAX_BATCH,
  SYNC_PROTOCOL_VERSION,
  SYNC_VERSION_HEADER,
  cartTicketCount,
} from '@skyport/shared';
import { CATALOGUE_SYNCED_KEY } from '../../src/features/catalog/data/catalogue-synced.ts';

/**
 * No Content Security Policy violation in any journey: the server sends a strict CSP
 * (sync-server/src/lib/security-headers.ts) and a test fails on anything it blocks, seen either as
 * Chromium's console message ("Refused to … because it violates the following Content Security
 * Policy directive …", also from frames and workers) or as a `securitypolicyviolation` event in
 * a page (also kept in `window.__cspViolations`).
 *
 * Every spec imports this module, but Playwright evaluates it once per worker process, so the hook
 * below joins only the first spec file a worker loads. It therefore watches the worker's browser:
 * every context opened after that (the `context` of any later test, in any file, and contexts a
 * test opens itself with `browser.newContext()`) is watched as well.
 */
const watchedBrowsers = new WeakSet<Browser>();
const watchedContexts = new WeakMap<BrowserContext, Promise<void>>();
/** Violations seen while no test was running; reported by the next test. */
const pendingViolations: string[] = [];

function reportCspViolation(violation: string) {
  try {
    test.info();
  } catch {
    pendingViolations.push(violation);
    return;
  }
  expect.soft(violation, 'Content Security Policy violation').toBe('');
}

/** Fails the running test on any CSP violation in this context's pages (idempotent). */
export function watchCsp(context: BrowserContext): Promise<void> {
  const watching = watchedContexts.get(context) ?? startWatching(context);
  watchedContexts.set(context, watching);
  return watching;
}

async function startWatching(context: BrowserContext) {
  pendingViolations.splice(0).forEach(reportCspViolation);
  context.on('console', (message) => {
    if (/content.security.policy/i.test(message.text()))
      reportCspViolation(`console ${message.type()}: ${message.text()}`);
  });
  await context.exposeBinding('__reportCspViolation', (_source, violation: string) =>
    reportCspViolation(`securitypolicyviolation: ${violation}`),
  );
  await context.addInitScript(() => {
    const page = window as unknown as {
      __cspViolations?: string[];
      __reportCspViolation?: (violation: string) => Promise<void>;
    };
    page.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      const violation =
        `${event.effectiveDirective} refused ${event.blockedURI || 'inline code'} ` +
        `in ${event.documentURI} (${event.sourceFile}:${event.lineNumber})`;
      page.__cspViolations?.push(violation);
      void page.__reportCspViolation?.(violation);
    });
  });
}

test.beforeEach(async ({ browser, context }) => {
  if (!watchedBrowsers.has(browser)) {
    watchedBrowsers.add(browser);
    // A context closed before it is set up has nothing left to watch.
    browser.on('context', (opened) => void watchCsp(opened).catch(() => {}));
  }
  await watchCsp(context);
});

/** Demo accounts loaded by SEED_DEMO (sync-server/src/db/seed/demo.ts). */
export const accounts = {
  admin: { email: 'admin@skyport.test', password: 'Admin123!' },
  airline: { email: 'airline@skyport.test', password: 'Airline123!' },
  pending: { email: 'pending@skyport.test', password: 'Pending123!' },
  customer: { email: 'customer@skyport.test', password: 'Customer123!' },
} as const;

export const customer = accounts.customer;

export const cards = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
};

/** Fills the payment page's test card form with a card number (the success card by default). */
export async function fillCard(page: Page, number: string = cards.success) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
}

export type Account = { email: string; password: string };

/** Logs in through the /login form and waits for the signed-in navbar (any kind of account). */
export async function logInWithForm(page: Page, account: Account) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('profile-menu-button')).toBeVisible();
}

/**
 * How long a device may take to catch up with the account after a login or a reload: its first
 * pulls, behind the catalogue's. With three suites at once on two busy cores (npm test's e2e
 * step, load ~20) that took over the default 10 s.
 */
export const CATCH_UP_MS = 30_000;

/**
 * Logs in a customer through the /login form and waits for the home page's flights and for the
 * account's theme.
 */
export async function logIn(page: Page, account: Account = customer) {
  await logInWithForm(page, account);
  await waitForFlights(page);
  // The account's theme (saved by an earlier run or device) arrives by sync: wait for it, so that
  // what a test does next (a screenshot, a theme switch) starts from the account's theme.
  const saved = await accountTheme(page);
  if (saved === 'light' || saved === 'dark') {
    await expect(page.getByTestId('theme-switch')).toHaveAttribute('data-theme-now', saved, {
      timeout: CATCH_UP_MS,
    });
  }
}

/** Fills an order's review form (its dialog) as Carla Customer and publishes it. */
export async function publishReview(form: Locator, stars: number, comment: string) {
  await form.getByRole('radio', { name: `${stars} out of 5` }).check();
  await form.getByLabel('Users name').fill('Carla Customer');
  await form.getByLabel('Your comment').fill(comment);
  await form.getByRole('button', { name: 'Publicar' }).click();
}

/** Chooses "Log Out" in the profile menu. */
export async function clickLogOut(page: Page) {
  await page.getByTestId('profile-menu-button').click();
  await page.getByTestId('profile-menu').getByRole('link', { name: 'Log Out' }).click();
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

/** Opens the home page and waits for its flights. */
export async function openHome(page: Page) {
  await page.goto('/');
  await waitForFlights(page);
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

/** Whether this device holds the whole catalogue (its first full pull is done). */
export async function catalogueOnDevice(page: Page): Promise<boolean> {
  return (await page.evaluate((key) => localStorage.getItem(key), CATALOGUE_SYNCED_KEY)) === '1';
}

/** Waits until this device holds the whole catalogue. */
export async function waitForCatalogueOnDevice(page: Page, timeout?: number) {
  await expect.poll(() => catalogueOnDevice(page), { timeout }).toBe(true);
}

/** Cuts this browser's network and waits for the app to say it is offline. */
export async function goOffline(page: Page) {
  await page.context().setOffline(true);
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
}

/** Opens the page again without a network: from what the service worker installed. */
export async function reopenOffline(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.context().setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
}

/** Today plus `days`, yyyy-mm-dd, in the browser's (and the server's) UTC calendar. */
export function isoDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A dialog of the app (native <dialog> opened with showModal) by its title. */
export function dialog(page: Page, title: string | RegExp): Locator {
  return page.getByRole('dialog', { name: title });
}

/** A toast with this text. */
export function toast(page: Page, text: string): Locator {
  return page.getByTestId('toast').filter({ hasText: text });
}

/** No serious or critical WCAG 2 A/AA violation on the page as it is. */
export async function expectAccessible(page: Page, screen: string) {
  // axe.run in the page itself: the default finishes each run in a new blank page (for frames of
  // other origins, which these screens do not have), and that page was half of axe's cost.
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa'])
    .setLegacyMode()
    .analyze();
  const serious = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    serious.map((v) => `${screen}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(' ')}`),
  ).toEqual([]);
}
