import {
  calculateMonthlySalesTotals,
  saleTotalCents,
  type SaleLine,
  type SalesReport,
} from '@skyport/shared';
import type { Sql } from '../../db/client.ts';

/**
 * One airline's sales, newest first, from paid checkouts only (a sale whose order is still
 * waiting for its capture, or was cancelled, is not a sale yet), each with its flight's route and
 * departure as sold (the order line's snapshot, 016 migration: the replicated sale documents carry
 * the same, sync/documents.ts), and the monthly chart totals.
 */
export async function getSalesReport(
  sql: Sql,
  airlineId: string,
  options: { year: number; utcOffsetMinutes: number },
): Promise<SalesReport> {
  const rows = await sql<
    {
      id: string;
      airline_id: string;
      flight_id: string;
      unit_price_cents: number;
      amount: number;
      created_at: Date;
      origin: string;
      destination: string;
      departure_date: string;
      departure_hour: string;
    }[]
  >`
    SELECT s.id, s.airline_id, s.flight_id, s.unit_price_cents, s.amount, s.created_at,
      l.origin, l.destination, to_char(l.departure_date, 'YYYY-MM-DD') AS departure_date,
      to_char(l.departure_hour, 'HH24:MI') AS departure_hour
    FROM sales s
    JOIN order_lines l ON l.id = s.order_line_id
    JOIN orders o ON o.id = l.order_id
    WHERE s.airline_id = ${airlineId} AND NOT s.deleted AND o.status = 'confirmed' AND NOT o.deleted
    ORDER BY s.created_at DESC, s.id`;
  const sales = rows.map((r) => {
    const sale = {
      id: r.id,
      airlineId: r.airline_id,
      idFlight: r.flight_id,
      priceCents: r.unit_price_cents,
      amount: r.amount,
      createdAt: r.created_at.getTime(),
    };
    const flight = {
      origin: r.origin,
      destination: r.destination,
      departureDate: r.departure_date,
      departureHour: r.departure_hour,
    };
    return { ...sale, totalCents: saleTotalCents(sale), flight };
  });
  return {
    sales,
    monthly: calculateMonthlySalesTotals(sales, {
      year: options.year,
      utcOffsetMinutes: options.utcOffsetMinutes,
    }),
    year: options.year,
  };
}

/**
 * Whether the §7 `POST /sales` lines are exactly the sales of one of the caller's confirmed
 * orders (flight, airline, tickets and unit price): the legacy client reporting a sale the
 * checkout already recorded.
 */
export async function matchesConfirmedSales(
  sql: Sql,
  userId: string,
  lines: readonly SaleLine[],
): Promise<boolean> {
  // Compared as byte strings on both sides (JS sort and COLLATE "C" agree).
  const wanted = lines
    .map((l) => `${l.id}:${l.airlineId}:${l.amount}:${l.price}`)
    .sort()
    .join(',');
  const [row] = await sql`
    SELECT o.id FROM orders o
    WHERE o.user_id = ${userId} AND o.status = 'confirmed' AND NOT o.deleted
      AND (SELECT string_agg(k, ',' ORDER BY k COLLATE "C") FROM (
             SELECT s.flight_id::text || ':' || s.airline_id::text || ':' || s.amount || ':' || s.unit_price_cents AS k
             FROM sales s JOIN order_lines l ON l.id = s.order_line_id
             WHERE l.order_id = o.id AND NOT s.deleted) x) = ${wanted}
    LIMIT 1`;
  return row !== undefined;
}
