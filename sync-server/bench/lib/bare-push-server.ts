// The write storm's baseline (c), in a process of its own (lib/child-server.ts starts it):
//   tsx bench/lib/bare-push-server.ts <databaseUrl> <pool>
// A bare Hono handler on @hono/node-server (the product's HTTP stack) at the product's push path:
// it reads the same JSON body and writes its rows with the product's favourite SQL (an upsert, or
// the tombstone update) in one statement, a transaction of its own, through the same triggers,
// which notify the change feeds at its commit, as the product's push does (one `sync_push`
// statement, src/sync/push.ts). No session, no validation, no conflict detection, no logging: the
// floor under `POST /api/sync/favourites/push`.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createSql } from '../../src/db/client.ts';
import { announceReady } from './child-server.ts';

const [databaseUrl, pool] = process.argv.slice(2);
if (!databaseUrl || !pool) {
  console.error('usage: bare-push-server.ts <databaseUrl> <pool>');
  process.exit(2);
}
const sql = createSql(databaseUrl, { max: Number(pool) });

interface Row {
  newDocumentState: { userId: string; flightId: string; _deleted: boolean };
}

const app = new Hono().post('/api/sync/favourites/push', async (c) => {
  const { rows } = (await c.req.json()) as { rows: Row[] };
  const documents = rows.map(({ newDocumentState: doc }) => ({
    user_id: doc.userId,
    flight_id: doc.flightId,
    deleted: doc._deleted,
  }));
  // One round trip, as the product's push is: the removals and the upserts in one statement.
  await sql`
    WITH doc AS (
      SELECT * FROM jsonb_to_recordset(${sql.json(documents)})
        AS d(user_id uuid, flight_id uuid, deleted boolean)
    ), removed AS (
      UPDATE favourites f SET deleted = true FROM doc
      WHERE doc.deleted AND f.user_id = doc.user_id AND f.flight_id = doc.flight_id AND NOT f.deleted
    )
    INSERT INTO favourites (user_id, flight_id)
    SELECT user_id, flight_id FROM doc WHERE NOT deleted
    ON CONFLICT (user_id, flight_id) DO UPDATE SET deleted = false, created_at = now()
    WHERE favourites.deleted`;
  return c.json([]);
});

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  announceReady(info.port),
);
process.on('SIGTERM', () => {
  server.close();
  void sql.end({ timeout: 1 }).finally(() => process.exit(0));
});
