import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';

/** Desktop Chrome at 1280×800, in Debian's chromium (no channel: the launch options' binary). */
export const desktop = {
  ...devices['Desktop Chrome'],
  viewport: { width: 1280, height: 800 },
  channel: undefined,
};

/** A phone (Pixel 7), in Debian's chromium. */
export const phone = { ...devices['Pixel 7'], channel: undefined };

/** The product a suite runs against: the built PWA and a real server (start-server.mjs). */
export interface ProductServer {
  port: number;
  /** The fresh database's name (start-server.mjs has one per port by default). */
  database?: string;
  /** The server's settings beyond its port and database. */
  env?: Record<string, string>;
}

/**
 * The Playwright config of a browser suite of pwa/e2e: one worker, its tests in order, no
 * retries, Debian's chromium keeping a trace and a screenshot of a failure; with `server`, the
 * product it runs against and its URL as `baseURL`. Relative paths are the suite config's.
 */
export function defineE2eConfig({
  server,
  use,
  ...config
}: PlaywrightTestConfig & { server?: ProductServer }) {
  return defineConfig({
    fullyParallel: false,
    workers: 1,
    retries: 0,
    expect: { timeout: 10_000 },
    reporter: [['list']],
    ...config,
    use: {
      launchOptions: chromiumLaunchOptions,
      trace: 'retain-on-failure',
      screenshot: 'only-on-failure',
      serviceWorkers: 'allow',
      // Dates and prices follow the browser's language (src/ui/format.ts); the specs read them in
      // en-US, whatever the machine's locale.
      locale: 'en-US',
      ...(server ? { baseURL: `http://localhost:${server.port}` } : {}),
      ...use,
    },
    ...(server ? { webServer: productWebServer(server) } : {}),
  });
}

function productWebServer({ port, database, env }: ProductServer) {
  return {
    command: `node ${new URL('./start-server.mjs', import.meta.url).pathname}`,
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      E2E_PORT: String(port),
      ...(database ? { E2E_DATABASE: database } : {}),
      ...env,
      // E2E_PUBLIC_DIR: serve a private copy of the build (other builds of pwa/dist may run meanwhile).
      ...(process.env.E2E_PUBLIC_DIR ? { PUBLIC_DIR: process.env.E2E_PUBLIC_DIR } : {}),
    },
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  };
}
