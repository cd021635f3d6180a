import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Sql } from '../../db/client.ts';
import { validate } from '../../lib/validate.ts';

const OutboxQuerySchema = z.strictObject({
  to: z.string().trim().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/**
 * Security: the outbox holds live verification and reset links, so it answers only to the machine
 * itself (the server listens on every interface by default). In-process requests (tests) have no
 * socket and count as local.
 */
function isLocalRequest(c: Context): boolean {
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    return true;
  }
  return (
    address === undefined ||
    address === '::1' ||
    address.startsWith('127.') ||
    address.startsWith('::ffff:127.')
  );
}

/**
 * `GET /api/dev/outbox`: the emails the database outbox holds, newest first, optionally for one
 * address. Mounted only in development and demo mode (never in production, never with SMTP), and
 * only for requests from this machine.
 */
export function devOutboxRoutes(sql: Sql) {
  return new Hono().get('/dev/outbox', validate('query', OutboxQuerySchema), async (c) => {
    if (!isLocalRequest(c)) return c.json({ code: 'not_found', message: 'Not found' }, 404);
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
  });
}
