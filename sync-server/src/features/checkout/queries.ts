import type postgres from 'postgres';
import { calculateTotals, messages, type Totals } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import {
  beginRetryingDeadlocks,
  lockFlights,
  lockPartition,
  retryingDeadlocks,
} from '../../db/locks.ts';
import { selectOrdersWithLines, toOrderView, type OrderView } from '../orders/queries.ts';
import { insertTickets, type NewTicket } from '../tickets/queries.ts';

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
  /**
   * A card's 3-D Secure step (migration 026): what the buyer's browser needs to complete it, while
   * `approval_pending`. Security: answered only to the payment's owner.
   */
  client_secret: string | null;
  /** The shop origin a wallet checkout started from, where the wallet sends the buyer back. */
  wallet_origin: string | null;
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
  /** A wallet checkout's shop origin (`wallet_origin`). */
  walletOrigin?: string | undefined;
}

/** Claims the idempotency key: the new row, or undefined when another request holds the key. */
export async function insertPayment(sql: Sql, p: NewPayment): Promise<PaymentRow | undefined> {
  const [row] = await sql<PaymentRow[]>`
    INSERT INTO payments (user_id, provider, idempotency_key, amount_cents, subtotal_cents, fee_cents, status,
                          method, payment_method, request_hash, lines, receipt_email, locked_until, hold_id,
                          wallet_origin)
    VALUES (${p.userId}, ${p.provider}, ${p.idempotencyKey}, ${p.totals.totalCents}, ${p.totals.subtotalCents},
            ${p.totals.feeCents}, 'created', ${p.method}, ${p.paymentMethod}, ${p.requestHash},
            ${sql.json(p.lines as never)}, ${p.receiptEmail}, now() + ${p.leaseMs} * interval '1 millisecond',
            ${p.holdId ?? null}, ${p.walletOrigin ?? null})
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

/**
 * The buyer's turn (a card's 3-D Secure step still open): the lease is given back so that their
 * next confirm takes it, and the step's client secret kept (`updated_at`, the reconciler's clock
 * for an abandoned step, stays).
 */
export async function pauseForBuyer(
  sql: Sql,
  id: string,
  clientSecret: string,
): Promise<PaymentRow> {
  const [row] = await sql<PaymentRow[]>`
    UPDATE payments SET client_secret = ${clientSecret}, locked_until = now()
    WHERE id = ${id}
    RETURNING *`;
  if (!row) throw new Error(`payment ${id} vanished`);
  return row;
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
      | 'client_secret'
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

/** What `checkout_write_order` (019 migration) raises for each refusal; the statement rolled back. */
const REFUSALS: Record<string, { reason: OrderRefusedError['reason']; message: string }> = {
  SKP01: { reason: 'no_stock', message: messages.noStockAvailable },
  SKP02: { reason: 'price_changed', message: 'Price changed' },
  SKP03: { reason: 'payment_moved', message: 'The payment changed state meanwhile' },
  SKP04: { reason: 'hold_expired', message: messages.holdExpired },
};

/**
 * The order transaction (docs/architecture.md §6), right after the authorisation `authorizationId` (recorded
 * here, with the order, in the same commit): guarded stock decrement of every line at the quoted price
 * (or, paying a seat hold, the hold consumed), the order (pending until captured) with its lines and
 * their §3 "moreinfo" snapshot, one sale per line, the bought flights out of the cart, the payment
 * linked. All or nothing, in one statement and one round trip: the 019 migration's
 * `checkout_write_order`, which reads the quote from the payment's row and takes the partition lock
 * and the flights' rows in the order db/locks.ts describes. Its own transaction: a deadlock's victim
 * (nothing of it kept) runs again (db/locks.ts `retryingDeadlocks`).
 *
 * `readAfter` sends reads on the same connection right behind it, in its round trip: they see the
 * order just written (the confirmation's tickets, tickets.ts `signForPayment`). Its answer is
 * `after`; when the order was refused it is not waited for.
 * @throws OrderRefusedError (rolled back) when stock is short, a price moved, the hold was released
 *         or the payment changed state meanwhile.
 */
export async function writeOrder<T = undefined>(
  sql: Sql,
  payment: Pick<PaymentRow, 'id'>,
  authorizationId: string,
  readAfter?: (db: postgres.ReservedSql) => Promise<T>,
): Promise<{ payment: PaymentRow; after: T | undefined }> {
  const db = await sql.reserve();
  try {
    return await retryingDeadlocks(async () => {
      const written = db<PaymentRow[]>`
        SELECT * FROM checkout_write_order(${payment.id}, ${authorizationId})`.execute();
      const after = readAfter?.(db);
      // Settled before the connection goes back to the pool, whatever the order statement did.
      const [linked] = await Promise.allSettled([written, after]);
      if (linked.status === 'rejected') throw linked.reason;
      return { payment: linked.value[0]!, after: await after };
    });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const refusal = typeof code === 'string' ? REFUSALS[code] : undefined;
    if (refusal) throw new OrderRefusedError(refusal.reason, refusal.message);
    throw error;
  } finally {
    db.release();
  }
}

/**
 * After a successful capture: the payment is captured and its order confirmed, together with the
 * order's signed `tickets` (tickets.ts `signForPayment`), and the confirmed order read back for the
 * buyer's answer. One transaction: `BEGIN`, then the confirmation, the tickets' insert (which
 * stores only tickets of a confirmed order) and the order's summary (which sees both) sent
 * together in one round trip (they run in the order sent), then `COMMIT`. When the insert fails,
 * the transaction rolls the confirmation back too, so the order is confirmed again alone (its
 * tickets come later: tickets.ts `issueMissing`): a ticket never stops an order.
 */
export async function markCaptured(
  sql: Sql,
  payment: Pick<PaymentRow, 'id' | 'order_id'>,
  tickets: readonly NewTicket[] = [],
): Promise<{ payment: PaymentRow; order: OrderSummary | undefined }> {
  const orderId = payment.order_id;
  if (orderId === null) throw new Error(`payment ${payment.id} has no order to confirm`);
  let ticketsFailed = false;
  try {
    return await sql.begin(async (tx) => {
      const captured = tx<PaymentRow[]>`
        WITH captured AS (
          UPDATE payments SET status = 'captured', captured_at = coalesce(captured_at, now()), updated_at = now(),
            locked_until = now()
          WHERE id = ${payment.id} AND status IN ('authorized', 'captured') AND order_id IS NOT NULL
          RETURNING *
        ), confirmed AS (
          UPDATE orders SET status = 'confirmed' FROM captured
          WHERE orders.id = captured.order_id AND orders.status = 'pending'
        )
        SELECT * FROM captured`.execute(); // sent now, before the two behind it
      const stored = insertTickets(tx, tickets).catch((error: unknown) => {
        ticketsFailed = true;
        throw error;
      });
      const order = getOrderSummary(tx, orderId);
      const [[row], , summary] = await Promise.all([captured, stored, order]);
      if (!row) throw new Error(`payment ${payment.id} cannot be marked captured`);
      return { payment: row, order: summary };
    });
  } catch (error) {
    if (!ticketsFailed) throw error;
    return markCaptured(sql, payment);
  }
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
  sql: Sql | postgres.TransactionSql,
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
