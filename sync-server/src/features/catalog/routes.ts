import { Hono } from 'hono';
import {
  AirlineListQuerySchema,
  CatalogQuerySchema,
  FlightIdParamSchema,
  ReviewListQuerySchema,
} from '@skyport/shared';
import type { AppDeps } from '../../app.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import { validate } from '../../lib/validate.ts';
import { findAirlinePage, findCatalogPage, findFlightById, findReviewPage } from './queries.ts';

/**
 * The public catalogue (spec §7 GET /flights, /airlines, /comments, and a flight's detail),
 * readable by anyone. Queries are parsed with the shared schemas, so the PWA's URL and the API
 * accept exactly the same parameters.
 */
export function catalogRoutes({ sql }: AppDeps) {
  return new Hono()
    .get('/flights', validate('query', CatalogQuerySchema), async (c) => {
      return c.json(await findCatalogPage(sql, c.req.valid('query')));
    })
    .get('/flights/:id', validate('param', FlightIdParamSchema), async (c) => {
      const { id } = c.req.valid('param');
      const flight = await findFlightById(sql, id);
      if (!flight) throw new AppError(ErrorCode.NotFound, 'Flight not found');
      return c.json(flight);
    })
    .get('/airlines', validate('query', AirlineListQuerySchema), async (c) => {
      return c.json(await findAirlinePage(sql, c.req.valid('query')));
    })
    .get('/comments', validate('query', ReviewListQuerySchema), async (c) => {
      return c.json(await findReviewPage(sql, c.req.valid('query')));
    });
}
