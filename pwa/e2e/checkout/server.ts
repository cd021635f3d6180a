import { execFileSync } from 'node:child_process';

/**
 * The checkout suite's server (playwright.config.ts beside this file) and a way to look at its
 * database: the tests count payments and orders where they are written, not only through the API.
 */
export const checkoutServer = {
  port: Number(process.env.E2E_CHECKOUT_PORT ?? 8797),
  database: process.env.E2E_CHECKOUT_DATABASE ?? 'skyport_e2e_checkout',
};

/**
 * The seat-hold suite's server (seat-hold.config.ts): holds of a few seconds, so that a test sees
 * one run out (issue 17).
 */
export const seatHoldServer = {
  port: Number(process.env.E2E_SEAT_HOLD_PORT ?? 8798),
  database: process.env.E2E_SEAT_HOLD_DATABASE ?? 'skyport_e2e_seat_hold',
};

type SuiteServer = typeof checkoutServer;

/** The URL of the database start-server.mjs made for a suite (a server's, or the embedded one). */
function databaseUrl(server: SuiteServer): string {
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${server.database}`;
    return url.toString();
  }
  // The embedded PostgreSQL start-server.mjs starts at E2E_PORT + 1000 (sync-server/src/db/embedded.ts).
  return `postgres://postgres:skyport-local@127.0.0.1:${server.port + 1000}/skyport`;
}

/** Runs one query with psql on the checkout suite's database; its rows, as columns' texts. */
export function query(sql: string): string[][] {
  return queryOn(checkoutServer, sql);
}

/** Runs one query with psql on `server`'s database and returns its rows. */
export function queryOn(server: SuiteServer, sql: string): string[][] {
  const out = execFileSync(
    'psql',
    [databaseUrl(server), '-X', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', sql],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return out
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => line.split('\t'));
}
