import { Hono } from 'hono';
import { TicketStatusQuerySchema, VerifyTicketBodySchema } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { validate } from '../../lib/validate.ts';
import { requireRole, type AuthEnv } from '../identity/guard.ts';
import { clientIp } from '../identity/middleware.ts';
import { enforceRateLimit, type RateLimit } from '../identity/rate-limit.ts';
import type { IdentitySettings } from '../identity/settings.ts';
import type { TicketService } from './tickets.ts';

export interface TicketRouteDeps {
  sql: Sql;
  tickets: TicketService;
  settings: IdentitySettings;
  /** Ticket lookups (status and verify together) per client address. */
  lookupLimit?: RateLimit;
}

/**
 * Signed e-tickets (issue 17, docs/api/tickets.md):
 * - `GET /tickets/jwks.json`: the public keys tickets verify against (anyone; cacheable);
 * - `GET /tickets/status?jti=` and `POST /tickets/verify`: is a ticket valid or void (anyone,
 *   rate-limited per client address like the identity routes: the counters are in PostgreSQL);
 * - `POST /admin/tickets/rotate-key`: a new signing key (super administrator only).
 */
export function ticketRoutes(deps: TicketRouteDeps) {
  const { sql, tickets, settings } = deps;
  const lookupLimit = deps.lookupLimit ?? { max: 60, windowSeconds: 60 };
  const app = new Hono<AuthEnv>();

  app.get('/tickets/jwks.json', async (c) => {
    const jwks = await tickets.jwks();
    // Devices keep the set for offline checks and ask again when online; a rotation reaches
    // everyone within five minutes, and a cache may serve a stale copy for a day if we are down
    // (tickets signed before the rotation verify with the keys it has).
    c.header(
      'Cache-Control',
      'public, max-age=300, stale-while-revalidate=86400, stale-if-error=86400',
    );
    c.header('Content-Type', 'application/jwk-set+json');
    return c.body(JSON.stringify(jwks));
  });

  app.get('/tickets/status', validate('query', TicketStatusQuerySchema), async (c) => {
    // Security: public, so counted per address: ticket ids are random UUIDs, not guessable.
    await enforceRateLimit(sql, `tickets:ip:${clientIp(c, settings)}`, lookupLimit);
    c.header('Cache-Control', 'no-store');
    return c.json(await tickets.status(c.req.valid('query').jti));
  });

  app.post('/tickets/verify', validate('json', VerifyTicketBodySchema), async (c) => {
    await enforceRateLimit(sql, `tickets:ip:${clientIp(c, settings)}`, lookupLimit);
    c.header('Cache-Control', 'no-store');
    return c.json(await tickets.check(c.req.valid('json').ticket));
  });

  // Security: only the super administrator rotates keys.
  app.post('/admin/tickets/rotate-key', requireRole('super_admin'), async (c) =>
    c.json(await tickets.rotate()),
  );

  return app;
}
