// Renders the app icons (pwa/public/icons/*.png, apple-touch-icon.png) from one SVG in headless
// Chromium. Run again after changing the design: `node scripts/make-icons.mjs` (in pwa/).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const plane =
  'M17.8 19.2 16 11l3.5-3.5A2.1 2.1 0 0 0 16.5 4.5L13 8 4.8 6.2a.5.5 0 0 0-.5.2l-.6.6a.5.5 0 0 0 .1.8L10 11l-3 3H4l-1 1 3 2 2 3 1-1v-3l3-3 3.2 6.2a.5.5 0 0 0 .8.1l.6-.6a.5.5 0 0 0 .2-.5z';

/** `maskable`: full-bleed background, the plane inside the central safe zone (80 %). */
function svg(size, maskable) {
  const radius = maskable ? 0 : size * 0.22;
  const inner = maskable ? size * 0.5 : size * 0.66;
  const offset = (size - inner) / 2;
  const scale = inner / 24;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e40af"/><stop offset="1" stop-color="#0e7490"/></linearGradient></defs>
    <rect width="${size}" height="${size}" rx="${radius}" fill="url(#g)"/>
    <g transform="translate(${offset} ${offset}) scale(${scale})" fill="none" stroke="#fff" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><path d="${plane}"/></g>
  </svg>`;
}

const out = (name) => fileURLToPath(new URL(`../public/${name}`, import.meta.url));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage();
for (const [name, size, maskable] of [
  ['icons/icon-192.png', 192, false],
  ['icons/icon-512.png', 512, false],
  ['icons/maskable-192.png', 192, true],
  ['icons/maskable-512.png', 512, true],
  ['apple-touch-icon.png', 180, true],
]) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg(size, maskable)}</body></html>`,
  );
  await writeFile(out(name), await page.locator('svg').screenshot({ omitBackground: true }));
  console.log('wrote', name);
}
await browser.close();
