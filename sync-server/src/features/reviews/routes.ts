import { Hono } from 'hono';
import { CreateReviewBodySchema, UpdateReviewBodySchema } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { validate } from '../../lib/validate.ts';
import { requireUser, type AuthEnv } from '../identity/guard.ts';
import { editReview, submitReview } from './queries.ts';

/**
 * `POST /comments` and `PUT /comments` (spec §7): a customer reviews a flight of one of their
 * paid orders, once per order and flight, and edits their own reviews. (`GET /comments` is the
 * catalogue's.) The §5 rules and messages come from the shared schemas.
 */
export function reviewRoutes(deps: { sql: Sql }) {
  const app = new Hono<AuthEnv>();
  const customer = () => requireUser({ roles: ['customer'] });

  app.post('/comments', customer(), validate('json', CreateReviewBodySchema), async (c) => {
    return c.json(await submitReview(deps.sql, c.var.authUser.id, c.req.valid('json')), 201);
  });

  app.put('/comments', customer(), validate('json', UpdateReviewBodySchema), async (c) => {
    return c.json(await editReview(deps.sql, c.var.authUser.id, c.req.valid('json')));
  });

  return app;
}
