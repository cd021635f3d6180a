import { randomUUID } from 'node:crypto';
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';
import type { Sql } from '../db/client.ts';
import type { Queryable } from './documents.ts';

/** Test data for the sync tests: flights, orders with lines, sales, written with plain SQL. */

/** Headers every sync request carries, plus the actor's own. */
export function syncHeaders(actorHeaders: Record<string, string> = {}): Record<string, string> {
  return { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION), ...actorHeaders };
}

/** A JSON push request's init. */
export function pushInit(actorHeaders: Record<string, string>, body: unknown): RequestInit {
  return {
    method: 'POST',
    headers: { ...syncHeaders(actorHeaders), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
}

/** A replicated document as a client pushes or pulls it. */
export type SyncTestDoc = Record<string, unknown> & { id: string; _deleted: boolean };

/**
 * A cart line as the PWA pushes it. Its flight summary is stale on purpose: the server fills in
 * its own (docs/architecture.md §4.5), only `amount` is the client's.
 */
export function pushedCartLine(
  userId: string,
  flightId: string,
  amount: number,
  extra: Record<string, unknown> = {},
): SyncTestDoc {
  return {
    ...staleFlightSummary(userId, flightId),
    tickets: 100,
    amount,
    _deleted: false,
    ...extra,
  };
}

/** A favourite as the PWA pushes it, with a stale flight summary like `pushedCartLine`'s. */
export function pushedFavourite(
  userId: string,
  flightId: string,
  extra: Record<string, unknown> = {},
): SyncTestDoc {
  return {
    ...staleFlightSummary(userId, flightId),
    departureDate: '2030-01-01',
    createdAt: Date.now(),
    _deleted: false,
    ...extra,
  };
}

/** A pending review draft as the PWA pushes it (a new id each time). */
export function pushedReviewDraft(
  userId: string,
  orderId: string,
  flightId: string,
  extra: Record<string, unknown> = {},
): SyncTestDoc {
  return {
    id: randomUUID(),
    userId,
    orderId,
    flightId,
    rating: 4,
    name: 'Ana',
    comment: 'Smooth flight',
    status: 'pending',
    reason: null,
    _deleted: false,
    ...extra,
  };
}

function staleFlightSummary(userId: string, flightId: string) {
  return {
    id: flightId,
    userId,
    flightId,
    airlineId: randomUUID(),
    airlineName: 'Stale name',
    origin: 'Argentina',
    destination: 'Chile',
    departureHour: '08:30',
    arrivalHour: '10:45',
    priceCents: 1,
    logo: '',
  };
}

export async function insertAirline(sql: Sql, name = 'Test Air'): Promise<string> {
  const [row] = await sql<
    { id: string }[]
  >`INSERT INTO airlines (name, image) VALUES (${name}, '/logos/test.svg') RETURNING id`;
  if (!row) throw new Error('airline insert returned no row');
  return row.id;
}

/** Inserts `count` flights of an airline in one statement; returns their ids in insertion order. */
export async function insertFlights(
  sql: Queryable,
  airlineId: string,
  count: number,
  options: { tickets?: number; priceCents?: number } = {},
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    INSERT INTO flights (airline_id, airline_name, origin, destination, departure_date, departure_hour,
                         arrival_date, arrival_hour, duration_estimated, price_cents, tickets, logo, description)
    SELECT ${airlineId}, a.name, 'Argentina', 'Chile', current_date + 10, '08:30', current_date + 10, '10:45',
           '02:15', ${options.priceCents ?? 150_00} + g.i, ${options.tickets ?? 100}, a.image, 'Flight ' || g.i
    FROM generate_series(1, ${count}) AS g(i), airlines a WHERE a.id = ${airlineId}
    ORDER BY g.i
    RETURNING id`;
  return rows.map((row) => row.id);
}

/** A paid order of `userId` with one line per flight (amount 1 each) and the airline's sales. */
export async function insertOrder(
  sql: Sql,
  userId: string,
  flightIds: readonly string[],
  status: 'pending' | 'confirmed' = 'confirmed',
): Promise<string> {
  return sql.begin(async (tx) => {
    const [order] = await tx<{ id: string }[]>`
      INSERT INTO orders (user_id, payment_id, subtotal_cents, fee_cents, total_cents, status)
      VALUES (${userId}, 'pay_test', 10000, 10, 10010, ${status}) RETURNING id`;
    if (!order) throw new Error('order insert returned no row');
    for (const flightId of flightIds) {
      const [line] = await tx<{ id: string; airline_id: string; price_cents: number }[]>`
        INSERT INTO order_lines (order_id, flight_id, airline_id, amount, unit_price_cents, airline_name, origin,
                                 destination, departure_date, departure_hour, arrival_hour)
        SELECT ${order.id}, f.id, f.airline_id, 1, f.price_cents, f.airline_name, f.origin, f.destination,
               f.departure_date, f.departure_hour, f.arrival_hour
        FROM flights f WHERE f.id = ${flightId}
        RETURNING id, airline_id, unit_price_cents AS price_cents`;
      if (!line) throw new Error('order line insert returned no row');
      await tx`INSERT INTO sales (airline_id, flight_id, order_line_id, unit_price_cents, amount)
        VALUES (${line.airline_id}, ${flightId}, ${line.id}, ${line.price_cents}, 1)`;
    }
    return order.id;
  });
}

/** A readable pull URL. */
export function pullUrl(
  collection: string,
  params: Record<string, string | number | undefined> = {},
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) query.set(key, String(value));
  const text = query.toString();
  return `/api/sync/${collection}/pull${text ? `?${text}` : ''}`;
}
