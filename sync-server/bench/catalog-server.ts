// A catalogue server for the benchmark, run in its own process by bench/catalog.ts:
//   tsx bench/catalog-server.ts full|minimal <databaseUrl> <pool> <logFile>
// `full` is the product: createApp (validation, session and CSRF middleware, request logging to
// <logFile>, one error path). `minimal` is variant (b): one bare Hono handler that runs the same SQL
// (findCatalogPage) with the query string taken as it comes, and returns its result.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import pino from 'pino';
import type { CatalogQuery, CatalogSort, PriceBand } from '@skyport/shared';
import { createApp } from '../src/app.ts';
import { createSql } from '../src/db/client.ts';
import { findCatalogPage } from '../src/features/catalog/queries.ts';
import { createLogger } from '../src/lib/logger.ts';
import { announceReady } from './lib/child-server.ts';

const [variant, databaseUrl, pool = '2', logFile = '/dev/null'] = process.argv.slice(2);
if ((variant !== 'full' && variant !== 'minimal') || !databaseUrl) {
  console.error('usage: catalog-server.ts full|minimal <databaseUrl> <pool> <logFile>');
  process.exit(2);
}

const sql = createSql(databaseUrl, { max: Number(pool) });
// Buffered (4 KiB per write): one write(2) per ~30 request lines instead of one per line.
const destination = pino.destination({ dest: logFile, sync: false, minLength: 4096 });

/** Variant (b)'s query: no validation at all, the minimum to call the same SQL. */
function looseCatalogQuery(q: Record<string, string>): CatalogQuery {
  return {
    origin: q.origin || undefined,
    destination: q.destination || undefined,
    airlineId: q.airlineId || undefined,
    band: (q.band ?? 'all') as PriceBand,
    sort: (q.sort ?? 'initial') as CatalogSort,
    page: Number(q.page ?? 1),
    pageSize: Number(q.pageSize ?? 6),
  };
}

function minimalApp() {
  return new Hono().get('/api/flights', async (c) =>
    c.json(await findCatalogPage(sql, looseCatalogQuery(c.req.query()))),
  );
}

const app =
  variant === 'full' ? createApp({ sql, logger: createLogger('info', destination) }) : minimalApp();
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  announceReady(info.port),
);

process.on('SIGTERM', () => {
  server.close();
  try {
    destination.flushSync();
  } catch {
    // Nothing buffered yet (the destination was never opened).
  }
  void sql.end({ timeout: 1 }).finally(() => process.exit(0));
});
