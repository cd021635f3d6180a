import { devices } from '@playwright/test';

/** Desktop Chrome at 1280×800, in Debian's chromium (no channel: the launch options' binary). */
export const desktop = {
  ...devices['Desktop Chrome'],
  viewport: { width: 1280, height: 800 },
  channel: undefined,
};

/** A phone (Pixel 7), in Debian's chromium. */
export const phone = { ...devices['Pixel 7'], channel: undefined };
