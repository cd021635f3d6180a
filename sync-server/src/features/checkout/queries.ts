import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { calculateTotals, messages, type Totals } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { beginRetryingDeadlocks, lockFlights, lockPartition } from '../../db/locks.ts';
import { consumeHold } from './hold-queries.ts';
import { selectOrdersWithLines, toOrderView, type OrderView } from '../orders/queries.ts';

/**
 * The SQL of the checkout. A transaction that empties or refills a cart first takes that
 * customer's partition lock (db/locks.ts: a sync push of the same cart waits, nobody else does),
 * then its flights' rows in id order, so two checkouts of the same flights queue instead of
 * deadlocking.
 */

/** One line of a quote: tickets of one flight at the server's unit price when quoted. */
export interface QuotedLine {
  flightId: string;
  amount: number;
  unitPriceCents: number;
}

export interface Quote {
  lines: QuotedLine[];
  totals: Totals;
  /** Lines whose flight is gone or has fewer tickets than the cart asks for. */
  unavailable: { flightId: string; tickets: number }[];
  /** Fingerprint of the cart state (flight, amount, revision): a legacy client's implicit key. */
  cartVersion: string;
}

/** The caller's server-side cart priced with the server's own prices. */
export async function quoteCart(sql: Sql, userId: string): Promise<Quote> {
  const rows = await sql<
    {
      flight_id: string;
      amount: number;
      revision: number;
      price_cents: number;
      tickets: number;
      deleted: boolean;
    }[]
  >`
    SELECT c.flight_id, c.amount, c.revision, f.price_cents, f.tickets, f.deleted
    FROM cart_lines c JOIN flights f ON f.id = c.flight_id
    WHERE c.user_id = ${userId} AND NOT c.deleted
    ORDER BY c.flight_id`;
  const lines = rows.map((r) => ({
    flightId: r.flight_id,
    amount: r.amount,
    unitPriceCents: r.price_cents,
  }));
  return {
    lines,
    totals: calculateTotals(lines),
    unavailable: rows
      .filter((r) => r.deleted || r.tickets < r.amount)
      .map((r) => ({ flightId: r.flight_id, tickets: r.deleted ? 0 : r.tickets })),
    cartVersion: rows.map((r) => `${r.flight_id}:${r.amount}:${r.revision}`).join(','),
  };
}

export type PaymentStatus =
  'created' | 'approval_pending' | 'authorized' | 'captured' | 'released' | 'failed';

export interface PaymentRow {
  id: string;
  user_id: string;
  provider: string;
  provider_payment_id: string | null;
  idempotency_key: string;
  amount_cents: number;
  subtotal_cents: number | null;
  fee_cents: number | null;
  status: PaymentStatus;
  failure_code: string | null;
  failure_message: string | null;
  order_id: string | null;
  method: 'card' | 'wallet';
  payment_method: string | null;
  provider_order_id: string | null;
  approval_url: string | null;
  request_hash: string;
  lines: QuotedLine[];
  receipt_email: string | null;
  /** The seat hold this checkout pays (migration 012): its order consumes the hold. */
  hold_id: string | null;
  locked_until: Date;
  created_at: Date;
  updated_at: Date;
}

export async function findPaymentByKey(
  sql: Sql,
  userId: string,
  key: string,
): Promise<PaymentRow | undefined> {
  const [row] = await sql<
    PaymentRow[]
  >`SELECT * FROM payments WHERE user_id = ${userId} AND idempotency_key = ${key}`;
  return row;
}

export async function findPayment(sql: Sql, id: string): Promise<PaymentRow | undefined> {
  const [row] = await sql<PaymentRow[]>`SELECT * FROM payments WHERE id = ${id}`;
  return row;
}

export interface NewPayment {
  userId: string;
  provider: string;
  idempotencyKey: string;
  method: 'card' | 'wallet';
  paymentMethod: string | null;
  requestHash: string;
  lines: QuotedLine[];
  totals: Totals;
  receiptEmail: string | null;
  leaseMs: number;
  /** The seat hold it pays, whose quote `lines` and `totals` are. */
  holdId?: string | undefined;
}

/** Claims the idempotency key: the new row, or undefined when another request holds the key. */
export async function insertPayment(sql: Sql, p: NewPayment): Promise<PaymentRow | undefined> {
  const [row] = await sql<PaymentRow[]>`
    INSERT INTO payments (user_id, provider, idempotency_key, amount_cents, subtotal_cents, fee_cents, status,
                          method, payment_method, request_hash, lines, receipt_email, locked_until, hold_id)
    VALUES (${p.userId}, ${p.provider}, ${p.idempotencyKey}, ${p.totals.totalCents}, ${p.totals.subtotalCents},
            ${p.totals.feeCents}, 'created', ${p.method}, ${p.paymentMethod}, ${p.requestHash},
            ${sql.json(p.lines as never)}, ${p.receiptEmail}, now() + ${p.leaseMs} * interval '1 millisecond',
            ${p.holdId ?? null})
    ON CONFLICT (user_id, idempotency_key) DO NOTHING
    RETURNING *`;
  return row;
}

/**
 * Takes the row's lease if nobody holds it at `asOf` (now by default): only the holder moves a
 * checkout forward, so a retry, a duplicate and the reconciler never act on it at once.
 */
export async function takeLease(
  sql: Sql,
  id: string,
  leaseMs: number,
  asOf?: Date,
): Promise<PaymentRow | undefined> {
  const [row] = await sql<PaymentRow[]>`
    UPDATE payments SET locked_until = now() + ${leaseMs} * interval '1 millisecond'
    WHERE id = ${id} AND locked_until < ${asOf ?? sql`now()`}
      AND status IN ('created', 'approval_pending', 'authorized')
    RETURNING *`;
  return row;
}

export async function releaseLease(sql: Sql, id: string): Promise<void> {
  await sql`UPDATE payments SET locked_until = now() WHERE id = ${id}`;
}

/** Moves a payment to a new state, renewing the lease of the request that moves it. */
export async function updatePayment(
  sql: Sql,
  id: string,
  changes: Partial<
    Pick<
      PaymentRow,
      | 'status'
      | 'provider_payment_id'
      | 'provider_order_id'
      | 'approval_url'
      | 'failure_code'
      | 'failure_message'
    >
  >,
  leaseMs: number,
): Promise<PaymentRow> {
  const [row] = await sql<PaymentRow[]>`
    UPDATE payments SET ${sql(changes as Record<string, string | null>)}, updated_at = now(),
      locked_until = now() + ${leaseMs} * interval '1 millisecond'
    WHERE id = ${id}
    RETURNING *`;
  if (!row) throw new Error(`payment ${id} vanished`);
  return row;
}

/** Why the order transaction refused: its changes were rolled back and nothing was taken. */
export class OrderRefusedError extends Error {
  constructor(
    readonly reason: 'no_stock' | 'price_changed' | 'payment_moved' | 'hold_expired',
    message: string,
  ) {
    super(message);
  }
}

interface TakenFlight {
  id: string;
  airline_id: string;
  airline_name: string;
  origin: string;
  destination: string;
  /** Kept on the line for the sale's route and date (016 migration), not part of "moreinfo". */
  departure_date: string;
  departure_hour: string;
  arrival_hour: string;
}

/**
 * The order transaction (docs/architecture.md §6), right after the authorisation `authorizationId` (recorded
 * here, with the order, in the same commit): guarded stock decrement of every line at the quoted price,
 * the order (pending until captured) with its lines and their §3 "moreinfo" snapshot, one sale per
 * line, the bought flights out of the cart, the payment linked. All or nothing.
 * @throws OrderRefusedError (rolled back) when stock is short or a price moved.
 */
export async function writeOrder(
  sql: Sql,
  payment: Pick<
    PaymentRow,
    'id' | 'user_id' | 'lines' | 'subtotal_cents' | 'fee_cents' | 'amount_cents' | 'hold_id'
  >,
  authorizationId: string,
): Promise<PaymentRow> {
  const lines = [...payment.lines].sort((a, b) => (a.flightId < b.flightId ? -1 : 1));
  const ids = lines.map((l) => l.flightId);
  const amounts = lines.map((l) => l.amount);
  const prices = lines.map((l) => l.unitPriceCents);
  const orderId = randomUUID();
  return beginRetryingDeadlocks(sql, async (tx) => {
    await lockPartition(tx, payment.user_id);
    await lockFlights(tx, { ids });
    const taken = payment.hold_id
      ? await takeHeldSeats(tx, payment.hold_id, payment.user_id, payment.id, ids)
      : await tx<TakenFlight[]>`
      UPDATE flights f SET tickets = f.tickets - l.amount, updated_at = now()
      FROM unnest(${ids}::uuid[], ${amounts}::int[], ${prices}::bigint[]) AS l(id, amount, price)
      WHERE f.id = l.id AND NOT f.deleted AND f.tickets >= l.amount AND f.price_cents = l.price
      RETURNING f.id, f.airline_id, f.airline_name, f.origin, f.destination,
                to_char(f.departure_date, 'YYYY-MM-DD') AS departure_date,
                to_char(f.departure_hour, 'HH24:MI') AS departure_hour, to_char(f.arrival_hour, 'HH24:MI') AS arrival_hour`;
    if (taken.length !== lines.length) {
      const missing = ids.filter((id) => !taken.some((t) => t.id === id));
      const moved = await tx`
        SELECT 1 FROM flights f
        JOIN unnest(${ids}::uuid[], ${prices}::bigint[]) AS l(id, price) ON l.id = f.id
        WHERE f.id = ANY(${missing}::uuid[]) AND NOT f.deleted AND f.price_cents <> l.price`;
      throw moved.length > 0
        ? new OrderRefusedError('price_changed', 'Price changed')
        : new OrderRefusedError('no_stock', messages.noStockAvailable);
    }
    const byId = new Map(taken.map((t) => [t.id, t]));
    const snapshot = lines.map((l) => byId.get(l.flightId)!);
    // One statement: the order, its lines with their snapshot, a sale per line, the cart, and the
    // payment link, which only succeeds while the payment is still authorised and undecided.
    const [linked] = await tx<PaymentRow[]>`
      WITH new_order AS (
        INSERT INTO orders (id, user_id, payment_id, subtotal_cents, fee_cents, total_cents, status)
        VALUES (${orderId}, ${payment.user_id}, ${authorizationId}, ${payment.subtotal_cents},
                ${payment.fee_cents}, ${payment.amount_cents}, 'pending')
        RETURNING id
      ), new_lines AS (
        INSERT INTO order_lines (order_id, flight_id, airline_id, amount, unit_price_cents,
                                 airline_name, origin, destination, departure_date, departure_hour,
                                 arrival_hour)
        SELECT o.id, l.flight_id, l.airline_id, l.amount, l.price, l.airline_name, l.origin,
               l.destination, l.departure_date::date, l.departure_hour::time, l.arrival_hour::time
        FROM new_order o, unnest(${ids}::uuid[], ${snapshot.map((s) => s.airline_id)}::uuid[], ${amounts}::int[],
                    ${prices}::bigint[], ${snapshot.map((s) => s.airline_name)}::text[],
                    ${snapshot.map((s) => s.origin)}::text[], ${snapshot.map((s) => s.destination)}::text[],
                    ${snapshot.map((s) => s.departure_date)}::text[],
                    ${snapshot.map((s) => s.departure_hour)}::text[], ${snapshot.map((s) => s.arrival_hour)}::text[])
             AS l(flight_id, airline_id, amount, price, airline_name, origin, destination, departure_date,
                  departure_hour, arrival_hour)
        RETURNING id, airline_id, flight_id, unit_price_cents, amount
      ), new_sales AS (
        INSERT INTO sales (airline_id, flight_id, order_line_id, unit_price_cents, amount)
        SELECT airline_id, flight_id, id, unit_price_cents, amount FROM new_lines
      ), cleared AS (
        UPDATE cart_lines SET deleted = true, updated_at = now()
        WHERE user_id = ${payment.user_id} AND flight_id = ANY(${ids}::uuid[]) AND NOT deleted
      )
      UPDATE payments p SET status = 'authorized', provider_payment_id = ${authorizationId}, order_id = o.id, updated_at = now()
      FROM new_order o
      WHERE p.id = ${payment.id} AND p.status IN ('created', 'authorized') AND p.order_id IS NULL AND p.failure_code IS NULL
        AND (p.provider_payment_id IS NULL OR p.provider_payment_id = ${authorizationId})
      RETURNING p.*`;
    if (!linked)
      throw new OrderRefusedError('payment_moved', 'The payment changed state meanwhile');
    return linked;
  });
}

/**
 * A checkout against a seat hold: the hold already took the seats (at its quoted prices), so the
 * order transaction consumes it instead of taking stock; the flights' rows are locked already.
 * @throws OrderRefusedError `hold_expired` when the hold was released meanwhile (its expiry, or
 *         its owner), `no_stock` when a held flight was deleted.
 */
async function takeHeldSeats(
  tx: postgres.TransactionSql,
  holdId: string,
  userId: string,
  paymentId: string,
  ids: readonly string[],
): Promise<TakenFlight[]> {
  if (!(await consumeHold(tx, holdId, userId, paymentId))) {
    throw new OrderRefusedError('hold_expired', messages.holdExpired);
  }
  return tx<TakenFlight[]>`
    SELECT f.id, f.airline_id, f.airline_name, f.origin, f.destination,
           to_char(f.departure_hour, 'HH24:MI') AS departure_hour, to_char(f.arrival_hour, 'HH24:MI') AS arrival_hour
    FROM flights f WHERE f.id = ANY(${ids as string[]}::uuid[]) AND NOT f.deleted`;
}

/**
 * After a successful capture: the payment is captured and its order confirmed, together, with
 * whatever `onConfirmed` adds in the same transaction (the order's signed tickets, issue 17:
 * features/tickets/tickets.ts `issueForOrder`, which never throws).
 */
export async function markCaptured(
  sql: Sql,
  paymentId: string,
  onConfirmed?: (tx: postgres.TransactionSql, orderId: string) => Promise<unknown>,
): Promise<PaymentRow> {
  return sql.begin(async (tx) => {
    const [row] = await tx<PaymentRow[]>`
      WITH captured AS (
        UPDATE payments SET status = 'captured', captured_at = coalesce(captured_at, now()), updated_at = now(),
          locked_until = now()
        WHERE id = ${paymentId} AND status IN ('authorized', 'captured') AND order_id IS NOT NULL
        RETURNING *
      ), confirmed AS (
        UPDATE orders SET status = 'confirmed' FROM captured
        WHERE orders.id = captured.order_id AND orders.status = 'pending'
      )
      SELECT * FROM captured`;
    if (!row) throw new Error(`payment ${paymentId} cannot be marked captured`);
    if (onConfirmed && row.order_id) await onConfirmed(tx, row.order_id);
    return row;
  });
}

/**
 * The capture was refused after the order was written: the order is cancelled (tombstoned),
 * its sales too, the stock goes back and the tickets return to the cart.
 */
export async function cancelOrder(
  sql: Sql,
  payment: PaymentRow,
  code: string,
  message: string,
): Promise<PaymentRow> {
  return beginRetryingDeadlocks(sql, async (tx) => {
    const orderId = payment.order_id;
    await lockPartition(tx, payment.user_id);
    const lines = await tx<{ flight_id: string }[]>`
      SELECT flight_id FROM order_lines WHERE order_id = ${orderId}`;
    await lockFlights(tx, { ids: lines.map((line) => line.flight_id) });
    await tx`
      UPDATE flights f SET tickets = f.tickets + l.amount, updated_at = now()
      FROM order_lines l
      WHERE l.order_id = ${orderId} AND f.id = l.flight_id
        AND EXISTS (SELECT 1 FROM orders o WHERE o.id = ${orderId} AND o.status = 'pending')`;
    await tx`
      UPDATE sales SET deleted = true
      WHERE order_line_id IN (SELECT id FROM order_lines WHERE order_id = ${orderId}) AND NOT deleted`;
    await tx`
      INSERT INTO cart_lines AS c (user_id, flight_id, amount)
      SELECT ${payment.user_id}, flight_id, amount FROM order_lines WHERE order_id = ${orderId}
      ON CONFLICT (user_id, flight_id) DO UPDATE SET amount = EXCLUDED.amount, deleted = false, updated_at = now()
      WHERE c.deleted`;
    await tx`UPDATE orders SET status = 'cancelled', deleted = true WHERE id = ${orderId} AND status = 'pending'`;
    const [row] = await tx<PaymentRow[]>`
      UPDATE payments SET status = 'failed', failure_code = ${code}, failure_message = ${message},
        updated_at = now(), locked_until = now()
      WHERE id = ${payment.id}
      RETURNING *`;
    return row!;
  });
}

/** An order as the checkout answers and the receipt show it: the API order and its status. */
export type OrderSummary = OrderView & { status: string };

export async function getOrderSummary(
  sql: Sql,
  orderId: string,
): Promise<OrderSummary | undefined> {
  const [order] = await selectOrdersWithLines(sql, sql`o.id = ${orderId}`);
  if (!order) return undefined;
  // The status goes before the lines, where checkout answers have always had it.
  const { stocks, ...head } = toOrderView(order);
  return { ...head, status: order.status, stocks };
}

/** Open checkouts the reconciler may finish: nobody holds them and they have stalled. */
export async function findStalledPayments(
  sql: Sql,
  options: {
    asOf: Date;
    staleAfterMs: number;
    walletExpiryMs: number;
    limit: number;
    userId?: string | undefined;
  },
): Promise<{ id: string }[]> {
  return sql<{ id: string }[]>`
    SELECT id FROM payments
    WHERE status IN ('created', 'approval_pending', 'authorized')
      ${options.userId === undefined ? sql`` : sql`AND user_id = ${options.userId}`}
      AND locked_until < ${options.asOf}
      AND updated_at < ${options.asOf}::timestamptz - CASE WHEN status = 'approval_pending'
            THEN ${options.walletExpiryMs} * interval '1 millisecond'
            ELSE ${options.staleAfterMs} * interval '1 millisecond' END
    ORDER BY updated_at
    LIMIT ${options.limit}`;
}
