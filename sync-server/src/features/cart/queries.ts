import {
  calculateCartTotals,
  messages,
  notEnoughStockWithAmount,
  type CartItem,
  type CartLine,
} from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { lockPartition } from '../../db/locks.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';

/**
 * The refusal of a flight that is not in the catalogue (unknown or deleted), with 404: here and
 * for a synced favourite or cart line that names one (sync/push.ts).
 */
export const FLIGHT_NOT_FOUND = 'Flight not found';

/** A cart line as the server shows it: the flight's current snapshot and whether it can be bought. */
export type ServerCartLine = CartLine & { available: boolean };

export interface CartView {
  lines: ServerCartLine[];
  subtotalCents: number;
  feeCents: number;
  totalCents: number;
}

/** The customer's cart priced with the server's prices; totals by the shared pricing rules. */
export async function getCart(sql: Sql, userId: string): Promise<CartView> {
  const rows = await sql<
    {
      flight_id: string;
      amount: number;
      airline_id: string;
      airline_name: string;
      origin: string;
      destination: string;
      price_cents: number;
      logo: string;
      departure_hour: string;
      arrival_hour: string;
      tickets: number;
      deleted: boolean;
    }[]
  >`
    SELECT c.flight_id, c.amount, f.airline_id, f.airline_name, f.origin, f.destination, f.price_cents, f.logo,
           to_char(f.departure_hour, 'HH24:MI') AS departure_hour, to_char(f.arrival_hour, 'HH24:MI') AS arrival_hour,
           f.tickets, f.deleted
    FROM cart_lines c JOIN flights f ON f.id = c.flight_id
    WHERE c.user_id = ${userId} AND NOT c.deleted
    ORDER BY c.updated_at, c.flight_id`;
  const lines = rows.map((r) => ({
    flightId: r.flight_id,
    airlineId: r.airline_id,
    airlineName: r.airline_name,
    origin: r.origin,
    destination: r.destination,
    priceCents: r.price_cents,
    logo: r.logo,
    departureHour: r.departure_hour,
    arrivalHour: r.arrival_hour,
    tickets: r.deleted ? 0 : r.tickets,
    amount: r.amount,
    available: !r.deleted && r.tickets >= r.amount,
  }));
  return { lines, ...calculateCartTotals(lines) };
}

/**
 * Replaces the customer's cart with `items` (all or nothing): every flight must exist, be listed
 * and have at least the asked amount in stock (spec §4: amount between 1 and the stock).
 * Lines that go are tombstoned (replicated rows are never deleted); unchanged lines are not
 * rewritten, so their revision does not move.
 */
export async function replaceCart(
  sql: Sql,
  userId: string,
  items: readonly CartItem[],
): Promise<void> {
  const ids = items.map((i) => i.flightId);
  const amounts = items.map((i) => i.amount);
  await sql.begin(async (tx) => {
    await lockPartition(tx, userId);
    // The customer's own seat hold (issue 17, checkout/holds.ts) took its seats out of
    // `tickets`; they are still theirs to keep in the cart (saving the cart again on the payment
    // page, or before holding them again).
    const flights = await tx<{ id: string; tickets: number }[]>`
      SELECT f.id, f.tickets + coalesce((
               SELECT sum(l.amount) FROM seat_hold_lines l JOIN seat_holds h ON h.id = l.hold_id
               WHERE l.flight_id = f.id AND h.user_id = ${userId} AND h.status = 'active'), 0)::int8 AS tickets
      FROM flights f WHERE f.id = ANY(${ids}::uuid[]) AND NOT f.deleted`;
    const stock = new Map(flights.map((f) => [f.id, f.tickets]));
    const unknown = ids.filter((id) => !stock.has(id));
    if (unknown.length > 0)
      throw new AppError(ErrorCode.NotFound, FLIGHT_NOT_FOUND, { flightIds: unknown });
    for (const item of items) {
      const tickets = stock.get(item.flightId) ?? 0;
      if (item.amount > tickets) {
        throw new AppError(
          ErrorCode.Conflict,
          tickets <= 0 ? messages.noStockAvailable : notEnoughStockWithAmount(tickets),
          { flightId: item.flightId, tickets },
        );
      }
    }
    await tx`
      UPDATE cart_lines SET deleted = true, updated_at = now()
      WHERE user_id = ${userId} AND NOT deleted AND NOT (flight_id = ANY(${ids}::uuid[]))`;
    if (items.length > 0) {
      await tx`
        INSERT INTO cart_lines AS c (user_id, flight_id, amount)
        SELECT ${userId}, l.flight_id, l.amount FROM unnest(${ids}::uuid[], ${amounts}::int[]) AS l(flight_id, amount)
        ON CONFLICT (user_id, flight_id) DO UPDATE SET amount = EXCLUDED.amount, deleted = false, updated_at = now()
        WHERE c.deleted OR c.amount <> EXCLUDED.amount`;
    }
  });
}
