// Runs every browser test of the PWA against the production build and a real server:
// the guest/customer journeys, the airline/admin journeys, the checkout against a slow payment
// provider, the signed e-tickets and the local-first harness.
// Needs Chromium: CHROMIUM_PATH, Debian's /usr/bin/chromium or a Playwright-managed one
// (find-chromium.mjs); every config launches the one found here.
import { spawnSync } from 'node:child_process';
import { findChromium, INSTALL_HINT } from './find-chromium.mjs';

const chromium = findChromium();
if (!chromium) {
  console.error(INSTALL_HINT);
  process.exit(1);
}
process.env.CHROMIUM_PATH = chromium;

const steps = [
  ['vite', 'build'],
  ['playwright', 'test', '-c', 'e2e/support/playwright.config.ts'],
  ['playwright', 'test', '-c', 'e2e/airline-admin/playwright.config.ts'],
  ['playwright', 'test', '-c', 'e2e/checkout/playwright.config.ts'],
  ['playwright', 'test', '-c', 'e2e/checkout/seat-hold.config.ts'],
  ['playwright', 'test', '-c', 'e2e/tickets/playwright.config.ts'],
  ['vite', 'build', '-c', 'e2e/local-first/vite.config.ts'],
  ['playwright', 'test', '-c', 'e2e/local-first/playwright.config.ts'],
];
for (const [bin, ...args] of steps) {
  console.log(`\n> ${bin} ${args.join(' ')}`);
  const run = spawnSync('pnpm', ['exec', bin, ...args], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
