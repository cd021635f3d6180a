// A disposable Skyport server for the PWA's tests, its browser tests and the sync bench:
//
//   tsx src/sync/test-server.ts [--flights N] [--public-dir DIR]
//
// Creates a fresh database on the PostgreSQL server of DATABASE_URL (else an embedded one),
// migrates it (or clones the run's template, TEST_POSTGRES_RUN), loads an airline with flights and one actor of each role (with sessions), serves
// the API (and the built PWA when given) on a free port of 127.0.0.1, and prints one JSON line on
// stdout: { url, actors: { name: { id, token, airlineId } }, airlineId, flightIds }. A small
// control API under /__test/ lets a test change server data. Ends (and drops the database) when
// its standard input closes or on SIGTERM/SIGINT.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApp } from '../app.ts';
import { createSql } from '../db/client.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.ts';
import { migrate } from '../db/migrate.ts';
import { generateSyntheticCatalog } from '../db/seed/synthetic.ts';
import { createLogger } from '../lib/logger.ts';
import { createActors } from '../test/actors.ts';
import { cloneTemplate } from '../test/test-postgres.ts';
import { insertAirline, insertFlights, insertOrder } from './test-fixtures.ts';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const flightCount = Number(option('flights') ?? '30');
const publicDir = option('public-dir');

let embedded: EmbeddedDatabase | undefined;
let adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  embedded = await startEmbeddedPostgres(
    path.resolve(import.meta.dirname, '../../../.data/test-server-pg'),
    54349,
  );
  adminUrl = embedded.adminUrl;
}
const admin = createSql(adminUrl, { max: 1 });
// Within a test run that prepared a migrated template (test/test-servers-setup.ts), a clone of it.
const templateRun = process.env.TEST_POSTGRES_RUN;
const name = templateRun
  ? await cloneTemplate(admin, templateRun)
  : `skyport_disposable_${randomBytes(6).toString('hex')}`;
if (!templateRun) await admin.unsafe(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const sql = createSql(url.toString(), { max: 10 });
if (!templateRun) await migrate(sql);

const actors = await createActors(sql);
const airlineId = await insertAirline(sql, 'Aurora Test Airways');
let flightIds: string[];
if (flightCount > 1000) {
  await generateSyntheticCatalog(sql, { flights: flightCount, airlines: 20 });
  flightIds = [];
} else {
  flightIds = await insertFlights(sql, airlineId, flightCount);
}

const control = new Hono()
  .post('/__test/flights/:id', async (c) => {
    const body = (await c.req.json()) as {
      priceCents?: number;
      tickets?: number;
      deleted?: boolean;
      description?: string;
    };
    await sql`UPDATE flights SET price_cents = coalesce(${body.priceCents ?? null}::int8, price_cents),
      tickets = coalesce(${body.tickets ?? null}::int, tickets), deleted = coalesce(${body.deleted ?? null}::bool, deleted),
      description = coalesce(${body.description ?? null}, description), updated_at = now()
      WHERE id = ${c.req.param('id')}`;
    return c.json({ ok: true });
  })
  .post('/__test/flights', async (c) => {
    const body = (await c.req.json()) as { count: number; airlineId?: string };
    return c.json({ flightIds: await insertFlights(sql, body.airlineId ?? airlineId, body.count) });
  })
  .post('/__test/orders', async (c) => {
    const body = (await c.req.json()) as { userId: string; flightIds: string[] };
    return c.json({ orderId: await insertOrder(sql, body.userId, body.flightIds) });
  })
  .get('/__test/rows/:table', async (c) => {
    const tables: Record<string, string> = {
      reviews:
        'SELECT id, order_id, flight_id, rating, name, comment FROM reviews ORDER BY created_at',
      review_drafts: 'SELECT id, user_id, status, reason FROM review_drafts ORDER BY updated_at',
      cart_lines:
        'SELECT user_id, flight_id, amount, deleted, revision FROM cart_lines ORDER BY flight_id',
      favourites: 'SELECT user_id, flight_id, deleted, revision FROM favourites ORDER BY flight_id',
      preferences: 'SELECT user_id, theme FROM preferences',
    };
    const query = tables[c.req.param('table')];
    if (!query) return c.json({ error: 'unknown table' }, 404);
    return c.json(await sql.unsafe(query));
  });

const app = createApp(
  { sql, logger: createLogger(process.env.LOG_LEVEL ?? 'silent') },
  publicDir ? { publicDir: path.resolve(publicDir) } : {},
);
const root = new Hono();
root.route('/', control);
root.route('/', app);

const server = serve(
  { fetch: root.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' },
  () => {
    const { port } = server.address() as AddressInfo;
    const summary = {
      url: `http://127.0.0.1:${port}`,
      database: name,
      airlineId,
      flightIds,
      actors: Object.fromEntries(
        Object.entries(actors).map(([key, actor]) => [
          key,
          {
            id: actor.user?.id ?? null,
            token: actor.token,
            airlineId: actor.airlineId,
            email: actor.email,
            password: actor.password,
          },
        ]),
      ),
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  },
);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  server.close();
  await sql.end({ timeout: 1 });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
  await embedded?.stop();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.on('close', () => void stop());
process.stdin.resume();
