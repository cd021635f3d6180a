// The checkout suite's baseline, in a process of its own (lib/child-server.ts starts it):
//   tsx bench/lib/bare-checkout-server.ts <databaseUrl> <pool>
// A bare Hono handler on @hono/node-server: `POST /bare/checkout {userId, flightId, priceCents}`
// runs the order transaction's SQL bare (the guarded stock decrement, the order, its line, the
// sale, the cart line out), through the same triggers and whatever locks they take, with no
// session, validation, payment, idempotency or logging.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { calculateTotals } from '@skyport/shared';
import { createSql } from '../../src/db/client.ts';
import { announceReady } from './child-server.ts';

const [databaseUrl, pool] = process.argv.slice(2);
if (!databaseUrl || !pool) {
  console.error('usage: bare-checkout-server.ts <databaseUrl> <pool>');
  process.exit(2);
}
const sql = createSql(databaseUrl, { max: Number(pool) });

interface Taken {
  airline_id: string;
  airline_name: string;
  origin: string;
  destination: string;
  departure_date: string;
  departure_hour: string;
  arrival_hour: string;
}

const app = new Hono().post('/bare/checkout', async (c) => {
  const { userId, flightId, priceCents } = (await c.req.json()) as {
    userId: string;
    flightId: string;
    priceCents: number;
  };
  const totals = calculateTotals([{ unitPriceCents: priceCents, amount: 1 }]);
  await sql.begin(async (tx) => {
    const [f] = await tx<Taken[]>`
      UPDATE flights SET tickets = tickets - 1, updated_at = now()
      WHERE id = ${flightId} AND tickets >= 1 AND NOT deleted AND price_cents = ${priceCents}
      RETURNING airline_id, airline_name, origin, destination, departure_date::text AS departure_date,
                departure_hour, arrival_hour`;
    if (!f) throw new Error('no stock');
    await tx`
      WITH o AS (
        INSERT INTO orders (user_id, payment_id, subtotal_cents, fee_cents, total_cents)
        VALUES (${userId}, 'bench', ${totals.subtotalCents}, ${totals.feeCents}, ${totals.totalCents}) RETURNING id
      ), l AS (
        INSERT INTO order_lines (order_id, flight_id, airline_id, amount, unit_price_cents, airline_name, origin,
                                 destination, departure_date, departure_hour, arrival_hour)
        SELECT o.id, ${flightId}, ${f.airline_id}, 1, ${priceCents}, ${f.airline_name}, ${f.origin},
               ${f.destination}, ${f.departure_date}, ${f.departure_hour}, ${f.arrival_hour} FROM o
        RETURNING id
      ), s AS (
        INSERT INTO sales (airline_id, flight_id, order_line_id, unit_price_cents, amount)
        SELECT ${f.airline_id}, ${flightId}, l.id, ${priceCents}, 1 FROM l
      )
      UPDATE cart_lines SET deleted = true, updated_at = now()
      WHERE user_id = ${userId} AND flight_id = ${flightId} AND NOT deleted`;
  });
  return c.json({ status: 'succeeded' });
});

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  announceReady(info.port),
);
process.on('SIGTERM', () => {
  server.close();
  void sql.end({ timeout: 1 }).finally(() => process.exit(0));
});
