import type { Order, OrderLine } from '@skyport/shared';
import type postgres from 'postgres';
import type { Sql } from '../../db/client.ts';

/** An order as the API returns it: spec §3 fields plus the fee breakdown and airline names. */
export type OrderView = Omit<Order, 'stocks' | 'idpurchase' | 'creationdate'> & {
  idpurchase: string;
  creationdate: string;
  subtotalCents: number;
  feeCents: number;
  stocks: (OrderLine & { airlineName: string })[];
};

/** An order row with its lines, as `selectOrdersWithLines` reads it. */
export interface OrderWithLinesRow {
  id: string;
  user_id: string;
  payment_id: string;
  created_at: Date;
  total_cents: number;
  subtotal_cents: number;
  fee_cents: number;
  status: string;
  lines: {
    id: string;
    flight_id: string;
    airline_id: string;
    airline_name: string;
    amount: number;
    unit_price_cents: number;
    reviewed: boolean;
    /** The line's signed e-ticket, once issued (013 migration). */
    ticket: string | null;
    origin: string;
    destination: string;
    arrival_hour: string;
    departure_hour: string;
  }[];
}

/**
 * The orders that `where` (a fragment on `o`, the orders table) selects, newest first, each with
 * its lines ordered by flight.
 */
export async function selectOrdersWithLines(
  sql: Sql | postgres.TransactionSql,
  where: postgres.Fragment,
): Promise<OrderWithLinesRow[]> {
  return sql<OrderWithLinesRow[]>`
    SELECT o.id, o.user_id, o.payment_id, o.created_at, o.total_cents, o.subtotal_cents, o.fee_cents, o.status,
      (SELECT coalesce(json_agg(json_build_object(
          'id', l.id, 'flight_id', l.flight_id, 'airline_id', l.airline_id, 'airline_name', l.airline_name,
          'amount', l.amount, 'unit_price_cents', l.unit_price_cents, 'reviewed', l.reviewed,
          'ticket', (SELECT t.token FROM tickets t WHERE t.order_line_id = l.id),
          'origin', l.origin, 'destination', l.destination,
          'arrival_hour', to_char(l.arrival_hour, 'HH24:MI'), 'departure_hour', to_char(l.departure_hour, 'HH24:MI'))
          ORDER BY l.flight_id), '[]'::json)
       FROM order_lines l WHERE l.order_id = o.id) AS lines
    FROM orders o
    WHERE ${where}
    ORDER BY o.created_at DESC, o.id`;
}

/** The API shape of an order row (its status is not part of it). */
export function toOrderView(row: OrderWithLinesRow): OrderView {
  return {
    id: row.id,
    userId: row.user_id,
    idpurchase: row.payment_id,
    creationdate: row.created_at.toISOString(),
    priceCents: row.total_cents,
    subtotalCents: row.subtotal_cents,
    feeCents: row.fee_cents,
    stocks: row.lines.map((l) => ({
      id: l.id,
      flightId: l.flight_id,
      airlineId: l.airline_id,
      airlineName: l.airline_name,
      amount: l.amount,
      valueCents: l.unit_price_cents,
      review: l.reviewed,
      moreinfo: {
        origin: l.origin,
        destination: l.destination,
        arrivalHour: l.arrival_hour,
        departureHour: l.departure_hour,
      },
      ...(l.ticket ? { ticket: l.ticket } : {}),
    })),
  };
}

/**
 * Confirmed orders (their payment captured) of one user, newest first, each with its lines.
 * Pending orders (capture in flight) and cancelled ones are not shown.
 */
export async function listOrders(
  sql: Sql,
  userId: string,
  filter: { paymentId?: string } = {},
): Promise<OrderView[]> {
  const rows = await selectOrdersWithLines(
    sql,
    sql`o.user_id = ${userId} AND o.status = 'confirmed' AND NOT o.deleted
      ${filter.paymentId === undefined ? sql`` : sql`AND o.payment_id = ${filter.paymentId}`}`,
  );
  return rows.map(toOrderView);
}
