// Runs every browser test of the PWA against the production build and a real server:
// the guest/customer journeys, the airline/admin journeys and the local-first harness.
// Needs Chromium (Debian's /usr/bin/chromium, or CHROMIUM_PATH): Playwright's own browser
// download is not used.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    `Browser tests need Chromium at ${chromium}. Install it (Debian/Ubuntu: apt-get install chromium) ` +
      'or point CHROMIUM_PATH at a Chromium binary.',
  );
  process.exit(1);
}

const steps = [
  ['vite', 'build'],
  ['playwright', 'test', '-c', 'e2e/support/playwright.config.ts'],
  ['playwright', 'test', '-c', 'e2e/airline-admin/playwright.config.ts'],
  ['vite', 'build', '-c', 'e2e/local-first/vite.config.ts'],
  ['playwright', 'test', '-c', 'e2e/local-first/playwright.config.ts'],
];
for (const [bin, ...args] of steps) {
  console.log(`\n> ${bin} ${args.join(' ')}`);
  const run = spawnSync('pnpm', ['exec', bin, ...args], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
