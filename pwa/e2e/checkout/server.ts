import { execFileSync } from 'node:child_process';

/**
 * The checkout suite's server (playwright.config.ts beside this file) and a way to look at its
 * database: the tests count payments and orders where they are written, not only through the API.
 */
export const checkoutServer = {
  port: Number(process.env.E2E_CHECKOUT_PORT ?? 8797),
  database: process.env.E2E_CHECKOUT_DATABASE ?? 'skyport_e2e_checkout',
};

/** The URL of the database start-server.mjs made for this suite (a server's, or the embedded one). */
function databaseUrl(): string {
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${checkoutServer.database}`;
    return url.toString();
  }
  // The embedded PostgreSQL start-server.mjs starts at E2E_PORT + 1000 (sync-server/src/db/embedded.ts).
  return `postgres://postgres:skyport-local@127.0.0.1:${checkoutServer.port + 1000}/skyport`;
}

/** Runs one query with psql and returns its rows, each as its columns' texts. */
export function query(sql: string): string[][] {
  const out = execFileSync(
    'psql',
    [databaseUrl(), '-X', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', sql],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return out
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => line.split('\t'));
}
