import { expect, type Page } from '@playwright/test';
import { waitForApp } from './helpers.ts';

/**
 * The themes as a user sees them: chosen with the navbar switch, and painted in Skyport's brand
 * palette (pwa/src/styles.css) whichever way they were chosen, with every colour readable.
 */

export type Theme = 'light' | 'dark';

export const opposite = (theme: Theme): Theme => (theme === 'dark' ? 'light' : 'dark');

/**
 * Chooses a theme with the navbar switch, so that <html> carries it in data-theme: a user's
 * explicit choice, not the system's theme (which leaves data-theme out). When the system already
 * shows that theme, the switch goes to the other one and back.
 */
export async function chooseTheme(page: Page, theme: Theme) {
  await waitForApp(page);
  const html = page.locator('html');
  const toggle = page.getByTestId('theme-switch');
  if ((await html.getAttribute('data-theme')) !== theme) {
    if ((await toggle.getAttribute('data-theme-now')) === theme) {
      await toggle.click();
      await expect(html).toHaveAttribute('data-theme', opposite(theme));
    }
    await toggle.click();
  }
  await expect(html).toHaveAttribute('data-theme', theme);
  await expect(toggle).toHaveAttribute('data-theme-now', theme);
}

/**
 * The brand's primary and error colours as sRGB hex (src/styles.css, as Chromium renders them).
 * daisyUI's stock light theme has a violet primary (#422ad5) and a light red error (#ff657f, 2.87:1
 * on white), so a stock palette on screen fails these.
 */
const brand: Record<Theme, Record<'primary' | 'error', string>> = {
  light: { primary: '#1043a8', error: '#be222a' },
  dark: { primary: '#7cb4fc', error: '#ff657f' },
};

/** daisyUI colours that the app also uses as text (links, dialog titles, soft alerts, errors). */
const textColours = ['primary', 'secondary', 'accent', 'info', 'success', 'warning', 'error'];

/** Colours of the page, `--color-<name>` as rendered: sRGB channels 0–255. */
function renderedColours(page: Page, names: string[]): Promise<Record<string, number[]>> {
  return page.evaluate((names) => {
    // A canvas turns any CSS colour (the stylesheet's are oklch/lab) into sRGB bytes.
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    const probe = document.createElement('span');
    document.body.append(probe);
    const colours: Record<string, number[]> = {};
    for (const name of names) {
      probe.style.color = `var(--color-${name})`;
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = getComputedStyle(probe).color;
      context.fillRect(0, 0, 1, 1);
      colours[name] = [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    }
    probe.remove();
    return colours;
  }, names);
}

const hex = (rgb: number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2 contrast ratio of two sRGB colours. */
function contrast(a: number[], b: number[]): number {
  const luminance = (rgb: number[]) => {
    const [r, g, b] = rgb.map((c) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

/**
 * The page shows the brand's `theme` palette, and every daisyUI colour used as text reads at
 * 4.5:1 (WCAG AA) on the page's backgrounds (base-100/200/300) and under its -content colour.
 */
export async function expectBrandPalette(page: Page, theme: Theme) {
  const content = textColours.map((name) => `${name}-content`);
  const colours = await renderedColours(page, [
    ...textColours,
    ...content,
    'base-100',
    'base-200',
    'base-300',
  ]);
  for (const [name, want] of Object.entries(brand[theme])) {
    const got = colours[name]!;
    const off = Math.max(
      ...got.map((c, i) => Math.abs(c - parseInt(want.slice(1 + 2 * i, 3 + 2 * i), 16))),
    );
    expect(
      off,
      `--color-${name} in the ${theme} theme is ${hex(got)}, the brand's is ${want}`,
    ).toBeLessThanOrEqual(3);
  }
  const unreadable: string[] = [];
  for (const name of textColours) {
    for (const background of ['base-100', 'base-200', 'base-300', name]) {
      const text = background === name ? `${name}-content` : name;
      const ratio = contrast(colours[text]!, colours[background]!);
      if (ratio < 4.5) unreadable.push(`${text} on ${background}: ${ratio.toFixed(2)}:1`);
    }
  }
  expect(unreadable, `colours under 4.5:1 in the ${theme} theme`).toEqual([]);
}
