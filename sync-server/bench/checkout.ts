// Checkout benchmark (issue 4): checkouts per second at N concurrent buyers on many flights,
// beside the bare SQL transaction (advisory lock + guarded stock update + order, line and sale
// inserts) measured in the same run; the ratio says what the whole path costs on top of it.
//
//   import { runCheckoutBench, printCheckoutBench } from './checkout.ts';
//   const report = await runCheckoutBench({ databaseUrl, connections: 50, seconds: 10, log });
//   printCheckoutBench(report);
//
// Standalone: `tsx bench/checkout.ts [--seconds N] [--connections N] [--pool N] [--flights N]`
// (uses DATABASE_URL, else 127.0.0.1:5432, else an embedded PostgreSQL; its own database).
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { calculateTotals } from '@skyport/shared';
import { createSql, type Sql } from '../src/db/client.ts';
import { createShopApp, insertBuyers, type Buyer } from '../src/features/checkout/testing.ts';
import { createTestPayments } from '../src/payments/index.ts';
import { runDirectLoad } from './lib/direct-load.ts';
import { openBenchServer, recreateDatabase } from './lib/database.ts';
import { table } from './lib/report.ts';
import { round, type LoadResult } from './lib/stats.ts';

export interface CheckoutBenchOptions {
  /** A migrated database the benchmark may fill (it adds users, flights, orders). */
  databaseUrl: string;
  connections?: number;
  seconds?: number;
  warmupSeconds?: number;
  /** postgres.js pool of each variant. */
  pool?: number;
  flights?: number;
  log?: (message: string) => void;
}

export interface CheckoutBenchReport {
  connections: number;
  flights: number;
  pool: number;
  /** (a) The bare SQL transaction: advisory lock, guarded UPDATE, INSERT order, line, sale. */
  bareSql: LoadResult;
  /** (b) The whole checkout: cart line, POST /api/stripe in-process (session, quote, payment
   *  row, authorise on the test provider, order transaction, capture, confirmation). */
  checkout: LoadResult;
  /** checkout.rps / bareSql.rps */
  ratio: number;
}

interface BenchFlight {
  id: string;
  priceCents: number;
}

async function seed(
  sql: Sql,
  flights: number,
  buyers: number,
): Promise<{ flights: BenchFlight[]; buyers: Buyer[] }> {
  const [owner] = await sql<{ id: string }[]>`
    INSERT INTO users (email, name, role, airline_status, email_verified)
    VALUES (${`bench-airline-${randomUUID()}@bench.test`}, 'Bench', 'airline', 'approved', true) RETURNING id`;
  const [airline] = await sql<{ id: string }[]>`
    INSERT INTO airlines (name, owner_user_id, image) VALUES ('Bench Air', ${owner!.id}, '/logo.png') RETURNING id`;
  const rows = await sql<BenchFlight[]>`
    INSERT INTO flights (airline_id, airline_name, origin, destination, departure_date, departure_hour,
                         arrival_date, arrival_hour, duration_estimated, price_cents, tickets)
    SELECT ${airline!.id}, 'Bench Air', 'Argentina', 'Chile', current_date + 30, '08:00', current_date + 30, '10:00',
           '02:00', 5000 + (g * 7919) % 95000, 10000000
    FROM generate_series(1, ${flights}) AS g
    RETURNING id, price_cents AS "priceCents"`;
  return { flights: rows, buyers: await insertBuyers(sql, buyers) };
}

/** A stack of buyers not in use: one checkout per buyer at a time (a cart is one customer's). */
function buyerPool(buyers: Buyer[]) {
  const free = [...buyers];
  return {
    take: () =>
      free.pop() ??
      (() => {
        throw new Error('more loops than buyers');
      })(),
    give: (b: Buyer) => void free.push(b),
  };
}

export async function runCheckoutBench(
  options: CheckoutBenchOptions,
): Promise<CheckoutBenchReport> {
  const connections = options.connections ?? 50;
  const seconds = options.seconds ?? 10;
  const warmupSeconds = options.warmupSeconds ?? 2;
  const pool = options.pool ?? 20;
  const flightCount = options.flights ?? 1000;
  const log = options.log ?? (() => {});
  const sql = createSql(options.databaseUrl, { max: pool });
  try {
    log(`checkout bench: seeding ${flightCount} flights and ${connections * 2} buyers …`);
    const { flights, buyers } = await seed(sql, flightCount, connections * 2);
    const pick = (i: number) => flights[(i * 7) % flights.length]!;

    log(`(a) bare SQL transaction, ${connections} concurrent, ${seconds} s …`);
    const bareSql = await runDirectLoad(
      async (i) => {
        const flight = pick(i);
        const buyer = buyers[i % buyers.length]!;
        const totals = calculateTotals([{ unitPriceCents: flight.priceCents, amount: 1 }]);
        await sql.begin(async (tx) => {
          await tx`SELECT pg_advisory_xact_lock(hashtext('skyport:replication'))`;
          const taken = await tx<
            {
              airline_id: string;
              airline_name: string;
              origin: string;
              destination: string;
              departure_hour: string;
              arrival_hour: string;
            }[]
          >`
          UPDATE flights SET tickets = tickets - 1, updated_at = now()
          WHERE id = ${flight.id} AND tickets >= 1 AND NOT deleted AND price_cents = ${flight.priceCents}
          RETURNING airline_id, airline_name, origin, destination, departure_hour, arrival_hour`;
          const f = taken[0];
          if (!f) throw new Error('no stock');
          await tx`
          WITH o AS (
            INSERT INTO orders (user_id, payment_id, subtotal_cents, fee_cents, total_cents)
            VALUES (${buyer.id}, 'bench', ${totals.subtotalCents}, ${totals.feeCents}, ${totals.totalCents}) RETURNING id
          ), l AS (
            INSERT INTO order_lines (order_id, flight_id, airline_id, amount, unit_price_cents, airline_name, origin,
                                     destination, departure_hour, arrival_hour)
            SELECT o.id, ${flight.id}, ${f.airline_id}, 1, ${flight.priceCents}, ${f.airline_name}, ${f.origin},
                   ${f.destination}, ${f.departure_hour}, ${f.arrival_hour} FROM o
            RETURNING id
          )
          INSERT INTO sales (airline_id, flight_id, order_line_id, unit_price_cents, amount)
          SELECT ${f.airline_id}, ${flight.id}, l.id, ${flight.priceCents}, 1 FROM l`;
        });
      },
      { concurrency: connections, seconds, warmupSeconds },
    );

    log(
      `(b) full checkout (POST /api/stripe in-process, test provider), ${connections} concurrent, ${seconds} s …`,
    );
    const { app } = createShopApp(sql, { payments: createTestPayments({ timeoutMs: 15_000 }) });
    const free = buyerPool(buyers);
    const checkout = await runDirectLoad(
      async (i) => {
        const buyer = free.take();
        try {
          const flight = pick(i);
          await sql`
          INSERT INTO cart_lines (user_id, flight_id, amount) VALUES (${buyer.id}, ${flight.id}, 1)
          ON CONFLICT (user_id, flight_id) DO UPDATE SET amount = 1, deleted = false, updated_at = now()`;
          const amount = calculateTotals([
            { unitPriceCents: flight.priceCents, amount: 1 },
          ]).totalCents;
          const res = await app.request('/api/stripe', {
            method: 'POST',
            headers: {
              ...buyer.headers,
              'Content-Type': 'application/json',
              'Idempotency-Key': randomUUID(),
            },
            body: JSON.stringify({ id: 'pm_card_visa', amount, receipt_email: 'bench@bench.test' }),
          });
          if (res.status !== 200)
            throw new Error(`checkout answered ${res.status}: ${await res.text()}`);
        } finally {
          free.give(buyer);
        }
      },
      { concurrency: connections, seconds, warmupSeconds },
    );

    return {
      connections,
      flights: flightCount,
      pool,
      bareSql,
      checkout,
      ratio: checkout.rps / bareSql.rps,
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export function printCheckoutBench(report: CheckoutBenchReport): void {
  const rows: (string | number)[][] = [['variant', 'per s', 'p50 ms', 'p99 ms', 'errors']];
  for (const [label, r] of [
    ['(a) bare SQL transaction', report.bareSql],
    ['(b) full checkout', report.checkout],
  ] as const) {
    rows.push([label, Math.round(r.rps), round(r.p50), round(r.p99), r.errors]);
  }
  console.log(
    `\nCheckout at ${report.connections} concurrent buyers on ${report.flights} flights (pool ${report.pool})\n`,
  );
  console.log(table(rows));
  console.log(`\nfull checkout / bare SQL: ${Math.round(report.ratio * 1000) / 10} %`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      pool: { type: 'string', default: '20' },
      flights: { type: 'string', default: '1000' },
    },
  });
  const server = await openBenchServer(console.log);
  try {
    const databaseUrl = await recreateDatabase(server, 'skyport_bench_checkout');
    console.log(
      `PostgreSQL (${server.source}): ${server.version}; ${os.availableParallelism()} cores, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const report = await runCheckoutBench({
      databaseUrl,
      seconds: Number(values.seconds),
      warmupSeconds: Number(values.warmup),
      connections: Number(values.connections),
      pool: Number(values.pool),
      flights: Number(values.flights),
      log: console.log,
    });
    printCheckoutBench(report);
  } finally {
    await server.stop();
  }
}
