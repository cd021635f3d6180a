import { Hono } from 'hono';
import { CreateOrderBodySchema } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import { validate } from '../../lib/validate.ts';
import { assertCanAccessUserData, requireUser, type AuthEnv } from '../identity/guard.ts';
import { listOrders } from './queries.ts';

/**
 * `GET /orders`: the caller's own orders only (spec §6). `POST /orders` (spec §7) keeps its path
 * and payload but cannot create anything: orders are written by the checkout, after the payment
 * is authorised and before it is captured. It confirms the order a captured payment made
 * (`idpurchase`) when the body matches it, and refuses anything else with 409.
 */
export function orderRoutes(deps: { sql: Sql }) {
  const app = new Hono<AuthEnv>();
  const customer = () => requireUser({ roles: ['customer'] });

  app.get('/orders', customer(), async (c) =>
    c.json(await listOrders(deps.sql, c.var.authUser.id)),
  );

  app.post('/orders', customer(), validate('json', CreateOrderBodySchema), async (c) => {
    const user = c.var.authUser;
    const body = c.req.valid('json');
    // Security: nobody records an order in another customer's name.
    assertCanAccessUserData(user, body.userId);
    const [order] = await listOrders(deps.sql, user.id, { paymentId: body.idpurchase });
    if (!order) {
      throw new AppError(ErrorCode.Conflict, 'No captured payment matches this order', {
        reason: 'no_captured_payment',
      });
    }
    const sent = body.stocks
      .map((l) => `${l.flightId}:${l.amount}:${l.value}`)
      .sort()
      .join(',');
    const paid = order.stocks
      .map((l) => `${l.flightId}:${l.amount}:${l.valueCents}`)
      .sort()
      .join(',');
    if (body.price !== order.priceCents || sent !== paid) {
      throw new AppError(ErrorCode.Conflict, 'The order does not match the captured payment', {
        reason: 'order_mismatch',
        order,
      });
    }
    return c.json(order);
  });

  return app;
}
