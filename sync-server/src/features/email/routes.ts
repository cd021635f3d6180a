import { Hono } from 'hono';
import { z } from 'zod';
import { text } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { validate } from '../../lib/validate.ts';
import { requireRole, type AuthEnv } from '../identity/guard.ts';

const OutboxQuerySchema = z.strictObject({
  to: text().trim().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/**
 * `GET /api/admin/outbox`: the emails the database outbox holds (the mailer without SMTP), newest
 * first, optionally for one address.
 *
 * Security: the outbox holds live verification and reset links, so only a signed-in super
 * administrator may read it. It used to answer any request from a loopback address, which every
 * visitor is behind a reverse proxy on the same host: a reset link for the administrator's own
 * account was one request away. No address, header or proxy setting opens it now; in development
 * the links are also printed to the server's console (mailer.ts).
 */
export function outboxRoutes(sql: Sql) {
  return new Hono<AuthEnv>().get(
    '/admin/outbox',
    requireRole('super_admin'),
    validate('query', OutboxQuerySchema),
    async (c) => {
      const { to, limit } = c.req.valid('query');
      const rows = await sql<
        {
          id: string;
          to_address: string;
          subject: string;
          text_body: string;
          html_body: string;
          created_at: Date;
        }[]
      >`
        SELECT id, to_address, subject, text_body, html_body, created_at FROM email_outbox
        ${to ? sql`WHERE lower(to_address) = ${to.toLowerCase()}` : sql``}
        ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
      c.header('Cache-Control', 'no-store');
      return c.json(
        rows.map((row) => ({
          id: row.id,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
          createdAt: row.created_at.getTime(),
        })),
        200,
      );
    },
  );
}
