// The write storm's baseline (c), in a process of its own (lib/child-server.ts starts it):
//   tsx bench/lib/bare-push-server.ts <databaseUrl> <pool>
// A bare Hono handler on @hono/node-server (the product's HTTP stack) at the product's push path:
// it reads the same JSON body and writes each row with the product's favourite SQL (an upsert, or
// the tombstone update) in one pipelined transaction, through the same triggers, and announces it after the
// commit as the product does (src/sync/announcer.ts, decision 021). No session, no validation, no
// conflict detection, no logging: the floor under `POST /api/sync/favourites/push`.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createSql } from '../../src/db/client.ts';
import { inPipelinedTransaction } from '../../src/db/pipelined-transaction.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { createAnnouncer, sendWith } from '../../src/sync/announcer.ts';
import { announceReady } from './child-server.ts';

const [databaseUrl, pool] = process.argv.slice(2);
if (!databaseUrl || !pool) {
  console.error('usage: bare-push-server.ts <databaseUrl> <pool>');
  process.exit(2);
}
const sql = createSql(databaseUrl, { max: Number(pool) });
const announcer = createAnnouncer(sendWith(sql), createLogger('warn'));

interface Row {
  newDocumentState: { userId: string; flightId: string; _deleted: boolean };
}

const app = new Hono().post('/api/sync/favourites/push', async (c) => {
  const { rows } = (await c.req.json()) as { rows: Row[] };
  // One round trip, as the product's push is (BEGIN, the statements and COMMIT go out together).
  await inPipelinedTransaction(sql, (tx, commit) =>
    Promise.all([
      tx`SET LOCAL skyport.announce = after_commit`.execute(),
      ...rows.map(({ newDocumentState: doc }) =>
        (doc._deleted
          ? tx`UPDATE favourites SET deleted = true
              WHERE user_id = ${doc.userId} AND flight_id = ${doc.flightId} AND NOT deleted`
          : tx`
              INSERT INTO favourites (user_id, flight_id) VALUES (${doc.userId}, ${doc.flightId})
              ON CONFLICT (user_id, flight_id) DO UPDATE SET deleted = false, created_at = now()
              WHERE favourites.deleted`
        ).execute(),
      ),
      commit(),
    ]),
  );
  const userId = rows[0]?.newDocumentState.userId;
  if (userId) announcer.announce(`favourites:${userId}`);
  return c.json([]);
});

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  announceReady(info.port),
);
process.on('SIGTERM', () => {
  server.close();
  void sql.end({ timeout: 1 }).finally(() => process.exit(0));
});
