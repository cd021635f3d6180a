import { expect, test, type Page } from '@playwright/test';
import { accountTheme, CATCH_UP_MS, logIn, waitForApp } from './support/helpers.ts';
import { expectBrandPalette, opposite, type Theme } from './support/theme.ts';

/**
 * The theme is a customer's preference: chosen on one device, it is saved with the account, comes
 * to a new device at login without being chosen there, and follows a change live.
 */

/** `theme` is the one on screen, chosen (data-theme), in the brand palette and the browser's bar. */
async function expectTheme(page: Page, theme: Theme) {
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  await expect(page.getByTestId('theme-switch')).toHaveAttribute('data-theme-now', theme);
  await expectThemeColour(page, theme);
  await expectBrandPalette(page, theme);
}

/** Only the chosen theme's `theme-color` (index.html) applies, whatever the system prefers. */
async function expectThemeColour(page: Page, theme: Theme) {
  await expect(page.locator(`meta[data-theme-color="${theme}"]`)).toHaveAttribute('media', 'all');
  await expect(page.locator(`meta[data-theme-color="${opposite(theme)}"]`)).toHaveAttribute(
    'media',
    'not all',
  );
}

test('a chosen theme is on the first paint, in the brand palette, before the app runs', async ({
  browser,
}) => {
  for (const theme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ colorScheme: opposite(theme) });
    const page = await context.newPage();
    // A choice this browser remembers (THEME_STORAGE_KEY in src/ui/theme.ts).
    await page.addInitScript((value) => localStorage.setItem('skyport:theme', value), theme);
    // Only index.html's inline script runs: the app's scripts are held back.
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expect(page.locator('html')).not.toHaveAttribute('data-app', 'ready');
    await expectThemeColour(page, theme);
    await expectBrandPalette(page, theme);
    await context.close();
  }
});

test("a customer's theme follows them to a new device and across devices live", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const laptopContext = await browser.newContext({ colorScheme: 'light' });
  const laptop = await laptopContext.newPage();
  await logIn(laptop);
  // An earlier run may have saved a theme with the account. Then the system prefers the other
  // one, so that seeing the account's on screen shows it has synced: a choice made before that
  // would count as the device's, and the device follows an account that has a theme.
  const saved = await accountTheme(laptop);
  const before: Theme = saved === 'dark' || saved === 'light' ? saved : 'light';
  await laptop.emulateMedia({ colorScheme: saved ? opposite(before) : before });
  await expect(laptop.getByTestId('theme-switch')).toHaveAttribute('data-theme-now', before);
  const chosen = opposite(before);
  await laptop.getByTestId('theme-switch').click();
  await expectTheme(laptop, chosen);
  await expect.poll(() => accountTheme(laptop)).toBe(chosen);

  // A new device whose system prefers the other theme: logging in is enough.
  const phoneContext = await browser.newContext({ colorScheme: before });
  const phone = await phoneContext.newPage();
  await phone.goto('/');
  await expect(phone.getByTestId('theme-switch')).toHaveAttribute('data-theme-now', before);
  await logIn(phone);
  await expectTheme(phone, chosen);
  // Remembered for the first paint of the next visit too.
  expect(await phone.evaluate(() => localStorage.getItem('skyport:theme'))).toBe(chosen);
  await phone.reload();
  await expectTheme(phone, chosen);
  // What follows is a change made on a running device, not during its start-up.
  await waitForApp(phone);
  // After a reload the device catches up first.
  await expect(phone.getByTestId('sync-status')).toHaveAttribute('data-status', 'up-to-date', {
    timeout: CATCH_UP_MS,
  });

  // A change on the phone reaches the laptop, which is still open, without a reload.
  await phone.getByTestId('theme-switch').click();
  await expectTheme(phone, before);
  await expectTheme(laptop, before);
  await expect.poll(() => accountTheme(laptop)).toBe(before);

  await phoneContext.close();
  await laptopContext.close();
});
