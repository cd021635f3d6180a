import { Hono } from 'hono';
import { PutCartBodySchema } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { validate } from '../../lib/validate.ts';
import { requireUser, type AuthEnv } from '../identity/guard.ts';
import { getCart, replaceCart } from './queries.ts';

/**
 * The customer's server-side cart (the one checkout charges): `GET /cart` with the server's
 * prices and totals, `PUT /cart` {lines: [{flightId, amount}]} to replace it (API clients, and the
 * guest cart merged at login). Airlines and administrators have no cart (spec §6).
 */
export function cartRoutes(deps: { sql: Sql }) {
  const app = new Hono<AuthEnv>();
  const customer = () => requireUser({ roles: ['customer'] });

  app.get('/cart', customer(), async (c) => c.json(await getCart(deps.sql, c.var.authUser.id)));

  app.put('/cart', customer(), validate('json', PutCartBodySchema), async (c) => {
    const userId = c.var.authUser.id;
    await replaceCart(deps.sql, userId, c.req.valid('json').lines);
    return c.json(await getCart(deps.sql, userId));
  });

  return app;
}
