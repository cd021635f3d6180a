import { execFileSync } from 'node:child_process';

/**
 * The product each browser suite runs against: the built PWA and a real server
 * (start-server.mjs) on a fresh database of its own, with the demo data. Suites run side by side,
 * so each has its own port (from E2E_BASE_PORT, default 8795) and database.
 */
export interface ProductServer {
  port: number;
  /** The fresh database's name, on DATABASE_URL's server (else an embedded PostgreSQL). */
  database: string;
  /** The server's settings beyond its port and database. */
  env?: Record<string, string>;
}

const basePort = Number(process.env.E2E_BASE_PORT ?? 8795);

/** A server with the product's defaults, for the `offset`-th suite. */
const plain = (offset: number, name: string): ProductServer => ({
  port: basePort + offset,
  database: `skyport_e2e_${name}`,
});

/** The guest and customer journeys (e2e/*.spec.ts), in two halves that run side by side. */
export const journeysServer = plain(0, 'journeys');
export const moreJourneysServer = plain(5, 'more_journeys');

/** The screenshots of every screen at phone size (screens.spec.ts). */
export const phoneScreensServer = plain(6, 'phone_screens');

/** The airline and administrator journeys (airline-admin.spec.ts), and their phone screenshots. */
export const airlineServer = plain(1, 'airline');
export const airlinePhoneScreensServer = plain(7, 'airline_phone_screens');

/**
 * The payment page against a payment provider that does not answer in time (issue 14): the
 * built-in test provider with the TEST-ONLY setting TEST_PAYMENT_SLOW_AUTHORIZATIONS
 * (sync-server/src/payments/index.ts, ignored in production): the first two authorisations of
 * every checkout answer after the 1.5 s provider timeout, so the server answers 503
 * payment_pending and only a retry with the same key completes.
 */
export const checkoutServer: ProductServer = {
  port: basePort + 2,
  database: 'skyport_e2e_checkout',
  env: {
    PAYMENT_PROVIDER: 'test',
    PAYMENT_TIMEOUT_MS: '1500',
    TEST_PAYMENT_SLOW_AUTHORIZATIONS: '2',
  },
};

/**
 * The payment page's seat hold running out (issue 17): seats held for 5 seconds and a release
 * job every half second, so that a test watches the countdown reach zero and the seats go back.
 */
export const seatHoldServer: ProductServer = {
  port: basePort + 3,
  database: 'skyport_e2e_seat_hold',
  env: { PAYMENT_PROVIDER: 'test', SEAT_HOLD_SECONDS: '5', SEAT_HOLD_RELEASE_EVERY_MS: '500' },
};

/** Signed e-tickets, verified online and offline (tickets/tickets.spec.ts). */
export const ticketsServer = plain(4, 'tickets');

/** The URL of the database start-server.mjs made for `server` (a server's, or the embedded one). */
function databaseUrl(server: ProductServer): string {
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${server.database}`;
    return url.toString();
  }
  // The embedded PostgreSQL start-server.mjs starts at E2E_PORT + 1000 (sync-server/src/db/embedded.ts).
  return `postgres://postgres:skyport-local@127.0.0.1:${server.port + 1000}/skyport`;
}

/** Runs one query with psql on `server`'s database; its rows, as columns' texts. */
export function queryOn(server: ProductServer, sql: string): string[][] {
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
