import { execFileSync } from 'node:child_process';

/**
 * The tickets suite's server (playwright.config.ts beside this file) and a way to reach its
 * database: no route cancels a confirmed order yet, so the test cancels one where it is stored,
 * as a refund would, to see the page report its ticket void.
 */
export const ticketsServer = {
  port: Number(process.env.E2E_PORT ?? 8795),
  database: process.env.E2E_TICKETS_DATABASE ?? 'skyport_e2e_tickets',
};

/** The URL of the database start-server.mjs made for this suite (a server's, or the embedded one). */
function databaseUrl(): string {
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${ticketsServer.database}`;
    return url.toString();
  }
  // The embedded PostgreSQL start-server.mjs starts at E2E_PORT + 1000 (sync-server/src/db/embedded.ts).
  return `postgres://postgres:skyport-local@127.0.0.1:${ticketsServer.port + 1000}/skyport`;
}

/** Runs one statement with psql. */
export function execute(sql: string): void {
  execFileSync('psql', [databaseUrl(), '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
