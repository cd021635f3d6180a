// Checkout benchmark: checkouts per second at N concurrent buyers on many flights, both sides over
// HTTP against a server process, at the same concurrency:
//   (a) baseline: a minimal server running the order transaction's SQL bare (guarded stock
//       update, order, line, sale, cart line out; lib/bare-checkout-server.ts);
//   (b) the product (lib/product.ts: production bundle, shipped pool and logging):
//       `POST /api/checkout` with the test card (session, quote, payment row, authorisation,
//       order transaction, capture, receipt to the outbox).
// In both, each loop first puts one line in its buyer's cart (SQL, not timed), then times the POST.
// The ratio says what the whole path costs on top of its SQL.
//
//   const report = await runCheckoutBench({ server, build, logDir, log });
//   printCheckoutBench(report);
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { calculateTotals } from '@skyport/shared';
import { createSql, type Sql } from '../src/db/client.ts';
import { insertBuyers, type Buyer } from '../src/features/checkout/testing.ts';
import type { BenchBuild } from './lib/build.ts';
import { startChildServer, type ChildServer } from './lib/child-server.ts';
import { createBenchDatabase, type BenchServer } from './lib/database.ts';
import { httpClient, runLoops, type LoopResult } from './lib/http-client.ts';
import { configDefault, productSettings, startProduct, type ProductServer } from './lib/product.ts';
import { table, type LoadAverages, type Measurement } from './lib/report.ts';
import { round } from './lib/stats.ts';
import os from 'node:os';

export interface CheckoutBenchOptions {
  server: BenchServer;
  build: BenchBuild;
  logDir: string;
  connections?: number;
  seconds?: number;
  warmupSeconds?: number;
  flights?: number;
  log?: (message: string) => void;
}

export interface CheckoutBenchReport {
  database: string;
  connections: number;
  flights: number;
  pool: number;
  server: ReturnType<typeof productSettings>;
  /** (a) The bare order transaction behind a minimal HTTP server. */
  bareSql: LoopResult & { load: LoadAverages };
  /** (b) `POST /api/checkout` on the product. */
  checkout: LoopResult & { load: LoadAverages };
  /** checkout.rps / bareSql.rps */
  ratio: number;
  measurements: Measurement[];
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
    take: () => {
      const buyer = free.pop();
      if (!buyer) throw new Error('more loops than buyers');
      return buyer;
    },
    give: (b: Buyer) => void free.push(b),
  };
}

const loadNow = () => os.loadavg().map((l) => round(l, 2));

export async function runCheckoutBench(
  options: CheckoutBenchOptions,
): Promise<CheckoutBenchReport> {
  const connections = options.connections ?? 50;
  const seconds = options.seconds ?? 10;
  const warmupSeconds = options.warmupSeconds ?? 2;
  const flightCount = options.flights ?? 1000;
  const log = options.log ?? (() => {});
  const pool = configDefault<number>('DATABASE_POOL_MAX');
  const db = await createBenchDatabase(options.server, 'checkout', options.build.migrationsDir);
  const sql = createSql(db.url, { max: pool });
  const servers: (ChildServer | ProductServer)[] = [];
  try {
    log(
      `checkout bench: seeding ${flightCount} flights and ${connections * 2} buyers into ${db.name} …`,
    );
    const { flights, buyers } = await seed(sql, flightCount, connections * 2);
    const pick = (i: number) => flights[(i * 7) % flights.length]!;
    const free = buyerPool(buyers);
    let next = 0;

    /** One loop iteration: a cart line (not timed), then the timed POST. */
    const drive = async (
      baseUrl: string,
      post: (buyer: Buyer, flight: BenchFlight) => [string, string, Record<string, string>],
    ) => {
      const client = httpClient(baseUrl);
      const before = loadNow();
      try {
        const result = await runLoops(
          async () => {
            const buyer = free.take();
            try {
              const flight = pick(next++);
              await sql`
                INSERT INTO cart_lines (user_id, flight_id, amount) VALUES (${buyer.id}, ${flight.id}, 1)
                ON CONFLICT (user_id, flight_id) DO UPDATE SET amount = 1, deleted = false, updated_at = now()`;
              const [requestPath, body, headers] = post(buyer, flight);
              const started = performance.now();
              const answer = await client.request(
                'POST',
                requestPath,
                { 'Content-Type': 'application/json', ...headers },
                body,
              );
              const ms = performance.now() - started;
              if (answer.status !== 200 || !answer.body.includes('"succeeded"'))
                throw new Error(`checkout answered ${answer.status}: ${answer.body.slice(0, 200)}`);
              return ms;
            } finally {
              free.give(buyer);
            }
          },
          { loops: connections, seconds, warmupSeconds },
        );
        return { ...result, load: { before, after: loadNow() } };
      } finally {
        client.close();
      }
    };

    const bare = await startChildServer(
      path.join(import.meta.dirname, 'lib/bare-checkout-server.ts'),
      [db.url, String(pool)],
    );
    servers.push(bare);
    log(`(a) bare order transaction over HTTP, ${connections} concurrent, ${seconds} s …`);
    const bareSql = await drive(bare.baseUrl, (buyer, flight) => [
      '/bare/checkout',
      JSON.stringify({ userId: buyer.id, flightId: flight.id, priceCents: flight.priceCents }),
      {},
    ]);
    await bare.stop();
    servers.length = 0;

    const product = await startProduct({
      build: options.build,
      databaseUrl: db.url,
      publicDir: options.build.pwaDir(),
      logFile: path.join(options.logDir, 'checkout-server.log'),
      name: 'checkout server',
    });
    servers.push(product);
    log(
      `(b) POST /api/checkout (test card) on the product, ${connections} concurrent, ${seconds} s …`,
    );
    const checkout = await drive(product.baseUrl, (buyer, flight) => [
      '/api/checkout',
      JSON.stringify({
        method: 'card',
        paymentMethodId: 'pm_card_visa',
        amount: calculateTotals([{ unitPriceCents: flight.priceCents, amount: 1 }]).totalCents,
      }),
      { ...buyer.headers, 'Idempotency-Key': randomUUID() },
    ]);

    const ratio = round(checkout.rps / Math.max(bareSql.rps, 1e-9), 3);
    return {
      database: db.name,
      connections,
      flights: flightCount,
      pool,
      server: productSettings(),
      bareSql,
      checkout,
      ratio,
      measurements: [
        {
          suite: 'checkout',
          name: 'checkouts/s',
          value: Math.round(checkout.rps),
          unit: '/s',
          baseline: { name: 'bare SQL', value: Math.round(bareSql.rps) },
          ratio,
          load: checkout.load,
        },
        {
          suite: 'checkout',
          name: 'checkout p99',
          value: checkout.p99,
          unit: 'ms',
          baseline: { name: 'bare SQL', value: bareSql.p99 },
          load: checkout.load,
        },
      ],
    };
  } finally {
    for (const server of servers) await server.stop();
    await sql.end({ timeout: 5 });
  }
}

export function printCheckoutBench(report: CheckoutBenchReport): void {
  const rows: (string | number)[][] = [
    ['variant', 'per s', 'p50 ms', 'p99 ms', 'errors', 'load 1 min'],
  ];
  for (const [label, r] of [
    ['(a) bare order transaction (HTTP)', report.bareSql],
    ['(b) POST /api/checkout', report.checkout],
  ] as const) {
    rows.push([
      label,
      Math.round(r.rps),
      r.p50,
      r.p99,
      r.errors,
      `${r.load.before[0]} → ${r.load.after[0]}`,
    ]);
  }
  console.log(
    `\nCheckout at ${report.connections} concurrent buyers on ${report.flights} flights (pool ${report.pool})\n`,
  );
  console.log(table(rows));
  console.log(`\nfull checkout / bare SQL: ${Math.round(report.ratio * 1000) / 10} %`);
  for (const sample of [...report.bareSql.errorSamples, ...report.checkout.errorSamples])
    console.log(`  error: ${sample}`);
}
