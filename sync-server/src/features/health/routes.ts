import { Hono } from 'hono';
import type { Sql } from '../../db/client.ts';
import type { Lifecycle } from '../../lib/lifecycle.ts';

/** How long readiness waits for the database before it calls it unreachable. */
const DATABASE_CHECK_MS = 2_000;

/**
 * `GET /api/health/live`: the process answers (restart it when this fails).
 * `GET /api/health/ready`: send traffic here: migrations are done, the instance is not draining,
 * and the database answers. `GET /api/health` is readiness too (what earlier probes call).
 */
export function healthRoutes({ sql, lifecycle }: { sql: Sql; lifecycle: Lifecycle }) {
  const ready = async () => {
    if (lifecycle.state !== 'serving') return { status: lifecycle.state, ok: false };
    const database = await Promise.race([
      sql`SELECT 1`.then(
        () => 'ok',
        () => 'unreachable',
      ),
      new Promise<string>((resolve) => setTimeout(resolve, DATABASE_CHECK_MS, 'timeout').unref()),
    ]);
    return database === 'ok'
      ? { status: 'ok', ok: true }
      : { status: 'database_unavailable', database, ok: false };
  };
  return new Hono()
    .get('/health/live', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ status: 'ok' });
    })
    .on('GET', ['/health', '/health/ready'], async (c) => {
      const { ok, ...body } = await ready();
      c.header('Cache-Control', 'no-store');
      return c.json(body, ok ? 200 : 503);
    });
}
