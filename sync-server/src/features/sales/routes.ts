import { Hono } from 'hono';
import { z } from 'zod';
import { CreateSalesBodySchema } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import { validate } from '../../lib/validate.ts';
import {
  ownAirlineId,
  requireApprovedAirline,
  requireUser,
  type AuthEnv,
} from '../identity/guard.ts';
import { getSalesReport, matchesConfirmedSales } from './queries.ts';

const SalesQuerySchema = z.object({
  year: z.coerce.number().int().min(2000).max(2100).optional(),
  /** The viewer's offset from UTC in minutes (UTC−3 is -180), so months are the viewer's. */
  utcOffsetMinutes: z.coerce.number().int().min(-840).max(840).default(0),
});

/**
 * `GET /sales`: the calling airline's own sales with the 12 monthly totals of the chart.
 * `POST /sales` (spec §7) keeps its path and payload but records nothing: sales are written by
 * the checkout with the order. A customer's call is acknowledged when it matches the sales of
 * one of their paid orders and refused with 409 otherwise.
 */
export function salesRoutes(deps: { sql: Sql; now?: () => Date }) {
  const app = new Hono<AuthEnv>();

  app.get('/sales', requireApprovedAirline(), validate('query', SalesQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const now = deps.now?.() ?? new Date();
    const year =
      query.year ?? new Date(now.getTime() + query.utcOffsetMinutes * 60_000).getUTCFullYear();
    return c.json(
      await getSalesReport(deps.sql, ownAirlineId(c.var.authUser), {
        year,
        utcOffsetMinutes: query.utcOffsetMinutes,
      }),
    );
  });

  app.post(
    '/sales',
    requireUser({ roles: ['customer'] }),
    validate('json', CreateSalesBodySchema),
    async (c) => {
      if (!(await matchesConfirmedSales(deps.sql, c.var.authUser.id, c.req.valid('json').sales))) {
        throw new AppError(ErrorCode.Conflict, 'Sales are only recorded by a paid checkout', {
          reason: 'no_captured_payment',
        });
      }
      return c.json({ recorded: false, reason: 'already_recorded_at_checkout' });
    },
  );

  return app;
}
