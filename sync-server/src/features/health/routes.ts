import { Hono } from 'hono';
import type { AppDeps } from '../../app.ts';

export function healthRoutes({ sql }: AppDeps) {
  return new Hono().get('/health', async (c) => {
    await sql`SELECT 1`;
    return c.json({ status: 'ok' });
  });
}
