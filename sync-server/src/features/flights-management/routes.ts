import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import {
  createFlightCreateBodySchema,
  createFlightUpdateBodySchema,
  flightFieldsFromForm,
  FlightDeleteBodySchema,
  FlightStockBodySchema,
} from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import { validate } from '../../lib/validate.ts';
import {
  ownAirlineId,
  requireApprovedAirline,
  requireUser,
  type AuthEnv,
} from '../identity/guard.ts';
import {
  createFlight,
  deleteFlights,
  listOwnFlights,
  matchesConfirmedOrder,
  takeOwnStock,
  updateFlight,
} from './queries.ts';

/** The JSON body parsed with `schema`, failing like `validate()` does (400 with the first message). */
async function parseJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new AppError(ErrorCode.BadRequest, 'Malformed JSON in request body');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
  }));
  const first = issues[0];
  throw new AppError(
    ErrorCode.BadRequest,
    first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'Invalid input',
    issues,
  );
}

/** Today by the server's clock (UTC), the only "today" the §5 date rules are judged by. */
export function serverToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * An approved airline manages its own catalogue (spec §7): create, update, delete, stock.
 * The airline is the caller's (session), never one named in the body.
 */
export function flightsManagementRoutes(deps: { sql: Sql; now?: () => Date }) {
  const { sql } = deps;
  const today = () => serverToday(deps.now?.());
  const app = new Hono<AuthEnv>();

  app.get('/airline/flights', requireApprovedAirline(), async (c) => {
    return c.json(await listOwnFlights(sql, ownAirlineId(c.var.authUser)));
  });

  app.post('/flights/create', requireApprovedAirline(), async (c) => {
    // The schema is built per request: "dates not in the past" is judged against today.
    const { flight } = await parseJson(c, createFlightCreateBodySchema({ today: today() }));
    const created = await createFlight(sql, ownAirlineId(c.var.authUser), {
      ...flightFieldsFromForm(flight),
      logo: flight.logo,
    });
    return c.json({ flight: created }, 201);
  });

  app.put('/flights/update', requireApprovedAirline(), async (c) => {
    const { flight } = await parseJson(c, createFlightUpdateBodySchema({ today: today() }));
    const updated = await updateFlight(
      sql,
      ownAirlineId(c.var.authUser),
      flight.id,
      flightFieldsFromForm(flight),
    );
    return c.json({ flight: updated });
  });

  app.post(
    '/flights/delete',
    requireApprovedAirline(),
    validate('json', FlightDeleteBodySchema),
    async (c) => {
      const deleted = await deleteFlights(
        sql,
        ownAirlineId(c.var.authUser),
        c.req.valid('json').flightIds,
      );
      return c.json({ deleted });
    },
  );

  // §7 PUT /flights/stock. An approved airline takes stock from its own flights. The spec's
  // original client (a customer's browser, after paying) also calls it: stock was already taken
  // by the checkout, so a customer's call is only acknowledged when it matches one of their
  // confirmed orders, and it never moves stock.
  app.put(
    '/flights/stock',
    requireUser({ roles: ['airline', 'customer'], approvedAirline: true }),
    validate('json', FlightStockBodySchema),
    async (c) => {
      const user = c.var.authUser;
      const { flightIdAmount } = c.req.valid('json');
      if (user.role === 'airline') {
        const flights = await takeOwnStock(sql, ownAirlineId(user), flightIdAmount);
        return c.json({ applied: true, flights });
      }
      if (!(await matchesConfirmedOrder(sql, user.id, flightIdAmount))) {
        throw new AppError(ErrorCode.Conflict, 'Stock only changes through a paid checkout', {
          reason: 'no_captured_payment',
        });
      }
      return c.json({ applied: false, reason: 'already_taken_at_checkout' });
    },
  );

  return app;
}
