/**
 * Debian's chromium (Playwright's own browsers cannot be downloaded on these machines) with what
 * it needs here: no sandbox (root), no GPU, and none of its own network traffic. Every
 * Playwright config of pwa/e2e launches it so.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
