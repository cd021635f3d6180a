// Test helpers for the buying path (imported by *.test.ts and the checkout benchmark only).
import { randomUUID } from 'node:crypto';
import { calculateTotals } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { createPayments } from '../../payments/index.ts';
import { createTestPaymentProvider } from '../../payments/test-provider.ts';
import { insertSignedInUser, insertUser } from '../../test/actors.ts';
import { createTestApp, jsonRequest } from '../../test/harness.ts';
import { generateToken, hashToken } from '../identity/tokens.ts';

let day = 0;
/** A date `daysAhead` days after today (UTC), yyyy-mm-dd. */
export function futureDate(daysAhead = 30): string {
  return new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);
}

export interface FlightSeed {
  priceCents?: number;
  tickets?: number;
  origin?: string;
  destination?: string;
}

/** Inserts a flight of `airlineId` directly. */
export async function insertFlight(
  sql: Sql,
  airlineId: string,
  seed: FlightSeed = {},
): Promise<string> {
  day += 1;
  const date = futureDate(10 + (day % 300));
  const [row] = await sql<{ id: string }[]>`
    INSERT INTO flights (airline_id, airline_name, origin, destination, departure_date, departure_hour,
                         arrival_date, arrival_hour, duration_estimated, price_cents, tickets, logo)
    SELECT ${airlineId}, name, ${seed.origin ?? 'Argentina'}, ${seed.destination ?? 'Chile'}, ${date}, '08:00',
           ${date}, '10:30', '02:30', ${seed.priceCents ?? 150_00}, ${seed.tickets ?? 100}, image
    FROM airlines WHERE id = ${airlineId}
    RETURNING id`;
  if (!row) throw new Error(`no airline ${airlineId}`);
  return row.id;
}

/** Puts `amount` tickets of `flightId` in the customer's server-side cart. */
export async function putInCart(
  sql: Sql,
  userId: string,
  flightId: string,
  amount = 1,
): Promise<void> {
  await sql`
    INSERT INTO cart_lines (user_id, flight_id, amount) VALUES (${userId}, ${flightId}, ${amount})
    ON CONFLICT (user_id, flight_id) DO UPDATE SET amount = EXCLUDED.amount, deleted = false`;
}

/** Tickets left on a flight. */
export async function ticketsOf(sql: Sql, flightId: string): Promise<number> {
  const [row] = await sql<
    { tickets: number }[]
  >`SELECT tickets FROM flights WHERE id = ${flightId}`;
  return row!.tickets;
}

/**
 * A fresh signed-in customer (so tests never share a cart) with `amount` tickets of a new flight
 * of `airlineId` in the cart, and the total the server will ask for them.
 */
export async function buyerWithCart(
  sql: Sql,
  airlineId: string,
  { priceCents, amount, tickets = 10 }: { priceCents: number; amount: number; tickets?: number },
) {
  const buyer = await insertSignedInUser(sql);
  const flight = await insertFlight(sql, airlineId, { priceCents, tickets });
  await putInCart(sql, buyer.id, flight, amount);
  return {
    ...buyer,
    flight,
    total: calculateTotals([{ unitPriceCents: priceCents, amount }]).totalCents,
  };
}

/** The buyer's headers, with the checkout's `Idempotency-Key` when there is one. */
function withKey(headers: Record<string, string>, key: string | undefined) {
  return key ? { ...headers, 'Idempotency-Key': key } : headers;
}

/** Spec §7 `POST /api/stripe`: the cart paid by card `id` (a test card number or payment method). */
export function cardPayment(
  headers: Record<string, string>,
  body: Record<string, unknown>,
  key?: string,
): RequestInit {
  return jsonRequest(
    'POST',
    { receipt_email: 'buyer@example.test', ...body },
    withKey(headers, key),
  );
}

/** `POST /api/checkout/{paymentId}/confirm`: the buyer goes on after approving or authenticating. */
export function confirmCheckout(
  app: RequestingApp,
  paymentId: string,
  headers: Record<string, string>,
): Promise<Response> {
  return Promise.resolve(
    app.request(`/api/checkout/${paymentId}/confirm`, { method: 'POST', headers }),
  );
}

/**
 * `POST /api/checkout`: the cart paid by a card's payment method, or by the wallet; with a
 * `holdId`, the seat hold instead of the cart.
 */
export function startCheckout(
  headers: Record<string, string>,
  body: (
    | { method: 'card'; paymentMethodId: string; amount: number; receiptEmail?: string }
    | { method: 'wallet'; amount: number }
  ) & { holdId?: string },
  key?: string,
): RequestInit {
  return jsonRequest('POST', body, withKey(headers, key));
}

/**
 * `POST /api/checkout` paying a seat hold with the test card: its quote unless `amount` says
 * otherwise, under a new Idempotency-Key unless `key` is given.
 */
export function payHold(
  headers: Record<string, string>,
  hold: { holdId: string; totalCents: number },
  { amount = hold.totalCents, key = randomUUID() }: { amount?: number; key?: string } = {},
): RequestInit {
  return startCheckout(
    headers,
    { method: 'card', paymentMethodId: 'pm_card_visa', amount, holdId: hold.holdId },
    key,
  );
}

export interface Buyer {
  id: string;
  token: string;
  headers: Record<string, string>;
}

/** `count` verified customers with live sessions, inserted in bulk (for concurrency tests). */
export async function insertBuyers(sql: Sql, count: number): Promise<Buyer[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const tokens = ids.map(() => generateToken());
  await sql`
    INSERT INTO users (id, email, name, role, email_verified)
    SELECT id, 'buyer-' || id || '@buyers.test', 'Buyer', 'customer', true FROM unnest(${ids}::uuid[]) AS t(id)`;
  await sql`
    INSERT INTO sessions (token_hash, user_id, expires_at)
    SELECT decode(h, 'hex'), u, now() + interval '1 hour'
    FROM unnest(${tokens.map((t) => hashToken(t).toString('hex'))}::text[], ${ids}::uuid[]) AS t(h, u)`;
  return ids.map((id, i) => ({
    id,
    token: tokens[i]!,
    headers: { Authorization: `Bearer ${tokens[i]!}` },
  }));
}

/** Row counts of everything the buying path writes: equal before and after = nothing written. */
export async function buyingPathCounts(sql: Sql) {
  const [row] = await sql<Record<string, number>[]>`
    SELECT
      (SELECT count(*) FROM orders) AS orders,
      (SELECT count(*) FROM order_lines) AS order_lines,
      (SELECT count(*) FROM sales) AS sales,
      (SELECT count(*) FROM reviews) AS reviews,
      (SELECT count(*) FROM payments) AS payments,
      (SELECT count(*) FROM flights) AS flights,
      (SELECT coalesce(sum(tickets), 0) FROM flights) AS tickets,
      (SELECT md5(coalesce(string_agg(f::text, '|' ORDER BY id), '')) FROM flights f) AS flights_hash,
      (SELECT md5(coalesce(string_agg(c::text, '|' ORDER BY user_id, flight_id), '')) FROM cart_lines c) AS cart_hash`;
  return row!;
}

/** `checkInvariants` when every invariant holds. */
export const INVARIANTS_HOLD = {
  orders_without_capture: 0,
  captures_without_order: 0,
  sales_mismatch: 0,
  lines_without_sale: 0,
};

/**
 * The §9 invariants of the buying path, checked on the database:
 * every confirmed order has exactly one captured payment of exactly its total, every captured
 * payment has a confirmed order, stock + tickets sold (confirmed or pending) = initial stock.
 */
export async function checkInvariants(sql: Sql) {
  const [row] = await sql<
    {
      orders_without_capture: number;
      captures_without_order: number;
      sales_mismatch: number;
      lines_without_sale: number;
    }[]
  >`
    SELECT
      (SELECT count(*) FROM orders o WHERE o.status = 'confirmed' AND NOT o.deleted AND NOT EXISTS (
         SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.status = 'captured' AND p.amount_cents = o.total_cents
           AND p.provider_payment_id = o.payment_id)) AS orders_without_capture,
      (SELECT count(*) FROM payments p WHERE p.status = 'captured' AND NOT EXISTS (
         SELECT 1 FROM orders o WHERE o.id = p.order_id AND o.status = 'confirmed' AND NOT o.deleted)) AS captures_without_order,
      (SELECT count(*) FROM orders o WHERE o.subtotal_cents <> (
         SELECT sum(l.amount * l.unit_price_cents) FROM order_lines l WHERE l.order_id = o.id)) AS sales_mismatch,
      (SELECT count(*) FROM order_lines l WHERE NOT EXISTS (SELECT 1 FROM sales s WHERE s.order_line_id = l.id)) AS lines_without_sale`;
  return row!;
}

/** What the helpers need of an app: its requests. */
type RequestingApp = {
  request: (path: string, init?: RequestInit) => Response | Promise<Response>;
};

/** An order as the checkout answers it. */
export interface Purchase {
  id: string;
  idpurchase: string;
  priceCents: number;
  stocks: { id: string; flightId: string; airlineId: string; amount: number; valueCents: number }[];
}

/** Buys `amount` tickets of `flightId` as `buyer` through the real checkout; returns the order. */
export async function purchase(
  app: RequestingApp,
  sql: Sql,
  buyer: { id: string; headers: Record<string, string> },
  flightId: string,
  amount = 1,
): Promise<Purchase> {
  await putInCart(sql, buyer.id, flightId, amount);
  const cart = (await (await app.request('/api/cart', { headers: buyer.headers })).json()) as {
    totalCents: number;
  };
  const res = await app.request(
    '/api/stripe',
    cardPayment(buyer.headers, { id: 'pm_card_visa', amount: cart.totalCents }, randomUUID()),
  );
  if (res.status !== 200) throw new Error(`purchase failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { order: Purchase }).order;
}

/**
 * The body of the spec's `POST /api/orders` the PWA sends after paying, for an order `purchase`
 * made of `insertFlight`'s flights (their route and hours).
 */
export function orderConfirmation(order: Purchase, userId: string) {
  return {
    price: order.priceCents,
    stocks: order.stocks.map((l) => ({
      flightId: l.flightId,
      airlineId: l.airlineId,
      amount: l.amount,
      value: l.valueCents,
      moreinfo: {
        origin: 'Argentina',
        destination: 'Chile',
        arrivalHour: '10:30',
        departureHour: '08:00',
      },
    })),
    userId,
    idpurchase: order.idpurchase,
    creationdate: new Date().toISOString(),
  };
}

/** A fresh verified customer with a bearer session. */
export async function newBuyer(sql: Sql): Promise<Buyer> {
  const [buyer] = await insertBuyers(sql, 1);
  return buyer!;
}

/**
 * The stage of an oversell storm: an approved airline's flight with `seats` seats at $199.99,
 * `count` buyers with one seat of it in their carts, and the app on a test payment provider.
 */
export async function stormStage(sql: Sql, seats: number, count: number) {
  const priceCents = 199_99;
  const airline = await insertUser(sql, { role: 'airline', airlineStatus: 'approved' });
  const flight = await insertFlight(sql, airline.airlineId!, { priceCents, tickets: seats });
  const buyers = await insertBuyers(sql, count);
  for (const buyer of buyers) await putInCart(sql, buyer.id, flight, 1);
  const provider = createTestPaymentProvider();
  const { app } = createTestApp(sql, {
    payments: createPayments([provider], { timeoutMs: 10_000 }),
  });
  const amount = calculateTotals([{ unitPriceCents: priceCents, amount: 1 }]).totalCents;
  return { airline, flight, buyers, provider, app, amount };
}

/**
 * Sends a checkout request again while it answers 503 "retry with the same Idempotency-Key", as a
 * client does (on a loaded machine a database error can interrupt a checkout): up to 5 retries.
 */
export async function sendRetrying(send: () => Response | Promise<Response>): Promise<Response> {
  let res = await send();
  for (let retry = 0; res.status === 503 && retry < 5; retry++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    res = await send();
  }
  return res;
}
