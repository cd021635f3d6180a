import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { logIn, useTheme, waitForFlights } from './support/helpers.ts';

/**
 * Screenshots of the main screens in both themes, at the project's size (desktop and phone),
 * kept under pwa/test-results/screens/, and an axe check of each screen in each theme.
 */
const themes = ['light', 'dark'] as const;

async function shoot(page: Page, name: string, project: string) {
  // Let toasts and animations settle so the picture shows the screen itself.
  await page.waitForTimeout(400);
  await page.screenshot({ path: `test-results/screens/${project}/${name}.png`, fullPage: true });
}

async function axe(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const serious = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    serious.map((v) => `${screen}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(' ')}`),
  ).toEqual([]);
}

for (const theme of themes) {
  test(`main screens in the ${theme} theme`, async ({ page }, info) => {
    test.setTimeout(240_000);
    const project = info.project.name;
    const visit = async (path: string, name: string, ready: () => Promise<void>) => {
      await page.goto(path);
      await ready();
      await shoot(page, `${name}-${theme}`, project);
      await axe(page, `${name}-${theme}`);
    };

    await page.goto('/');
    await useTheme(page, theme);
    await visit('/', 'home-guest', () => waitForFlights(page));
    await visit('/login', 'login', () =>
      expect(page.getByRole('heading', { name: 'Log In' })).toBeVisible(),
    );
    await page.getByRole('button', { name: 'Forgot your password' }).click();
    await expect(page.getByRole('dialog', { name: 'Forgot your password' })).toBeVisible();
    await shoot(page, `login-forgot-modal-${theme}`, project);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Forgot your password' })).toBeHidden();
    await visit('/register', 'register', () =>
      expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible(),
    );
    await visit('/nowhere', '404', () => expect(page.getByTestId('not-found')).toBeVisible());

    await logIn(page);
    await useTheme(page, theme);
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
    await visit('/cart', 'cart', () => expect(page.getByTestId('cart-line').first()).toBeVisible());
    await visit('/payment', 'payment', () => expect(page.getByTestId('card-field')).toBeVisible());
    await visit('/purchases', 'purchases', () =>
      expect(
        page.getByTestId('order-card').first().or(page.getByTestId('orders-empty')),
      ).toBeVisible(),
    );
    await visit('/profile', 'profile', () =>
      expect(page.getByRole('heading', { name: 'Account Information' })).toBeVisible(),
    );
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByRole('dialog', { name: 'Change Password' })).toBeVisible();
    await shoot(page, `profile-change-password-${theme}`, project);
    await page.keyboard.press('Escape');
    await page.getByTestId('profile-menu-button').click();
    await expect(page.getByTestId('profile-menu')).toBeVisible();
    await shoot(page, `profile-menu-${theme}`, project);
    await page.keyboard.press('Escape');
    await page.goto('/success');
    await expect(page.getByRole('heading', { name: 'PAGO EXITOSO' })).toBeVisible();
    await page.waitForTimeout(900);
    await shoot(page, `success-${theme}`, project);
  });
}
