import { Server as NetServer } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Sql } from '../db/client.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Logger } from './logger.ts';

/** How often the drain looks for a moment with no request in flight to close idle connections. */
const IDLE_CHECK_MS = 25;

/**
 * Follows the requests in flight on an HTTP server, from the moment it is created, so that a
 * drain knows when none is left, and can ask every answer after the drain began to close its
 * connection (`Connection: close`) instead of keeping it alive for a next request.
 */
export function trackRequests(server: Server) {
  const open = new Set<ServerResponse>();
  let draining = false;
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    open.add(response);
    response.once('close', () => open.delete(response));
    if (draining && !response.headersSent) response.setHeader('Connection', 'close');
  });
  return {
    inFlight: () => open.size,
    drain() {
      draining = true;
      for (const response of open)
        if (!response.headersSent) response.setHeader('Connection', 'close');
    },
  };
}

export interface ShutdownParts {
  server: Server;
  requests: ReturnType<typeof trackRequests>;
  lifecycle: Lifecycle;
  sql: Sql;
  logger: Logger;
  /** The bound on the whole sequence (SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number;
}

/**
 * Graceful shutdown, in order:
 * 1. readiness turns 503 and every open sync stream ends with a reconnect hint (`retry:`), so the
 *    load balancer and the clients move to another instance;
 * 2. the listener stops accepting new connections; requests in flight finish, each answer closing
 *    its connection; connections with nothing in flight are closed only when no request at all is
 *    in flight, so that a request whose bytes wait unread while the server is busy is not cut
 *    (Node's own `server.close()` closes such "idle" connections at once);
 * 3. the app's parts stop, newest first: the payment reconciler (a running pass finishes), the
 *    change feed's LISTEN, background mail, the mailer;
 * 4. the database pool closes.
 * Everything shares one deadline, `timeoutMs` from the start: past it, connections still open are
 * cut and a part still stopping is left behind (and logged). Resolves whether the drain finished
 * in time.
 */
export async function shutDownGracefully(parts: ShutdownParts): Promise<{ drained: boolean }> {
  const { server, requests, lifecycle, sql, logger, timeoutMs } = parts;
  const deadline = Date.now() + timeoutMs;
  lifecycle.beginDrain();
  requests.drain();
  // net.Server's close: stop accepting, without http's closing of "idle" connections.
  const closed = new Promise<void>((resolve) =>
    NetServer.prototype.close.call(server, () => resolve()),
  );
  const idle = setInterval(() => {
    if (requests.inFlight() === 0) server.closeIdleConnections();
  }, IDLE_CHECK_MS);
  let timer: NodeJS.Timeout | undefined;
  const drained = await Promise.race([
    closed.then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false))),
  ]);
  clearTimeout(timer);
  clearInterval(idle);
  if (!drained) {
    logger.warn('shutdown: requests still open at the deadline; closing their connections');
    server.closeAllConnections();
  }
  await lifecycle.stopParts(deadline, logger);
  await sql.end({ timeout: Math.max(1, Math.ceil((deadline - Date.now()) / 1000)) });
  return { drained };
}
