import { expect, test, type Page } from '@playwright/test';
import { messages } from '@skyport/shared';
import { expectAccessible } from './airline-admin/helpers.ts';
import { logIn, waitForApp, waitForFlights } from './support/helpers.ts';
import { chooseTheme, expectBrandPalette, opposite } from './support/theme.ts';

/**
 * Screenshots of the main screens in both themes, at the project's size (desktop and phone),
 * kept under pwa/test-results/screens/, and an axe check of each screen in each theme. Each theme
 * is chosen with the navbar switch while the system prefers the other one, so that what is checked
 * is the brand palette under an explicit data-theme (src/styles.css), not only the system's.
 */
const themes = ['light', 'dark'] as const;

async function shoot(page: Page, name: string, project: string) {
  // Let toasts and animations settle so the picture shows the screen itself.
  await page.waitForTimeout(400);
  await page.screenshot({ path: `test-results/screens/${project}/${name}.png`, fullPage: true });
}

for (const theme of themes) {
  test.describe(() => {
    test.use({ colorScheme: opposite(theme) });

    test(`main screens in the ${theme} theme`, async ({ page }, info) => {
      // ~17 screens, each visited, pictured and checked by axe: 1 min on a quiet machine, 5 under
      // the suites' load.
      test.setTimeout(600_000);
      const project = info.project.name;
      /** The screen as it is now: a screenshot and no serious axe finding. */
      const check = async (name: string) => {
        await shoot(page, `${name}-${theme}`, project);
        await expectAccessible(page, `${name}-${theme}`);
      };
      const visit = async (path: string, name: string, ready: () => Promise<void>) => {
        await page.goto(path);
        await ready();
        await check(name);
      };
      /** The dialog its button opens (both have this title), checked, then closed with Escape. */
      const checkDialog = async (title: string, name: string) => {
        await page.getByRole('button', { name: title }).click();
        const dialog = page.getByRole('dialog', { name: title });
        await expect(dialog).toBeVisible();
        await check(name);
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      };

      // Before any choice the system's theme shows, in the brand palette as well.
      await page.goto('/');
      await waitForApp(page);
      await expect(page.locator('html')).not.toHaveAttribute('data-theme');
      await expectBrandPalette(page, opposite(theme));
      await chooseTheme(page, theme);
      await expectBrandPalette(page, theme);

      await visit('/', 'home-guest', () => waitForFlights(page));
      await visit('/login', 'login', () =>
        expect(page.getByRole('heading', { name: 'Log In' })).toBeVisible(),
      );
      await checkDialog('Forgot your password', 'login-forgot-modal');
      await visit('/register', 'register', () =>
        expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible(),
      );
      // The §5 error texts, under the fields and above the button.
      await page.getByLabel('First name').fill('J4ne');
      await page.getByRole('button', { name: 'Create your account' }).click();
      await expect(page.getByTestId('error-name')).toHaveText(messages.firstNameInvalid);
      await expect(
        page.getByRole('alert').filter({ hasText: messages.completeAllFields }),
      ).toBeVisible();
      await check('register-errors');
      await visit('/nowhere', '404', () => expect(page.getByTestId('not-found')).toBeVisible());

      // The customer's account may bring its own theme (theme-sync.spec.ts): choose again.
      await logIn(page);
      await chooseTheme(page, theme);
      await expectBrandPalette(page, theme);
      await visit('/', 'home-customer', () => waitForFlights(page));
      const detail = (await page
        .getByRole('link', { name: /^Details:/ })
        .first()
        .getAttribute('href'))!;
      await page.getByTestId('add-to-cart').first().click();
      // Favourites sync with the account: an earlier run may have saved this one already.
      const heart = page.getByTestId('favourite-button').nth(1);
      if (await heart.isEnabled()) await heart.click();
      await expect(heart).toBeDisabled();
      await visit(detail, 'flight-detail', () =>
        expect(page.getByTestId('flight-detail')).toBeVisible(),
      );
      await visit('/favs', 'favourites', () =>
        expect(page.getByTestId('favourite').first()).toBeVisible(),
      );
      await visit('/cart', 'cart', () =>
        expect(page.getByTestId('cart-line').first()).toBeVisible(),
      );
      await visit('/payment', 'payment', () =>
        expect(page.getByTestId('card-field')).toBeVisible(),
      );
      await visit('/purchases', 'purchases', () =>
        expect(
          page.getByTestId('order-card').first().or(page.getByTestId('orders-empty')),
        ).toBeVisible(),
      );
      await visit('/profile', 'profile', () =>
        expect(page.getByRole('heading', { name: 'Account Information' })).toBeVisible(),
      );
      await checkDialog('Change Password', 'profile-change-password');
      await page.getByTestId('profile-menu-button').click();
      await expect(page.getByTestId('profile-menu')).toBeVisible();
      await check('profile-menu');
      await page.keyboard.press('Escape');
      await page.goto('/success');
      await expect(page.getByRole('heading', { name: 'PAGO EXITOSO' })).toBeVisible();
      // The title rises in: axe would measure it half transparent.
      await page.waitForTimeout(900);
      await check('success');
      await expectBrandPalette(page, theme);
    });
  });
}
