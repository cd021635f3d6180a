// Where the browser suites find Chromium: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else a
// Chromium that Playwright manages (`playwright install chromium`, where downloads work).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export const INSTALL_HINT =
  'Browser tests need Chromium: install it (Debian/Ubuntu: apt-get install chromium), ' +
  'or set CHROMIUM_PATH to a Chromium binary, or run `npx playwright install chromium`.';

/** The Chromium binary to drive, or undefined when there is none. */
export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'];
  try {
    const require = createRequire(import.meta.url);
    candidates.push(require('playwright-core').chromium.executablePath());
  } catch {
    // No Playwright browser installed: the other candidates remain.
  }
  return candidates.find((candidate) => candidate && existsSync(candidate));
}

// `node e2e/find-chromium.mjs`: says, in one line, what to install when there is no Chromium
// (npm test runs this first, so a newcomer learns it before the long server suites).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!findChromium()) console.warn(`\n${INSTALL_HINT}\n`);
}
