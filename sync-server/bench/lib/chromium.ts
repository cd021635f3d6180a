/** Debian's chromium (Playwright's own browsers cannot be downloaded on these machines). */
export const DEFAULT_CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What chromium needs here: no sandbox (root), no GPU, and none of its own network traffic. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
