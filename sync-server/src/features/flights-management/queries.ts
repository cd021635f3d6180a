import { messages, type Flight, type FlightFieldsFromForm } from '@skyport/shared';
import type postgres from 'postgres';
import type { Sql } from '../../db/client.ts';
import { FLIGHT_WIRE_COLUMNS } from '../../db/flight-row.ts';
import { beginRetryingDeadlocks, lockFlights } from '../../db/locks.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';

type Tx = postgres.TransactionSql;

/**
 * An airline's own catalogue. Every function takes the airline id from the caller's session
 * (never from a body) and touches only that airline's flights; each write transaction takes the
 * replication lock first (see checkout/queries.ts).
 */

/** A flight's wire fields (the one mapping, db/flight-row.ts) in a SELECT or RETURNING list. */
const wireColumns = (sql: Sql | Tx) => sql.unsafe(FLIGHT_WIRE_COLUMNS);

/** The airline's live flights, with or without stock (its catalogue table). */
export async function listOwnFlights(sql: Sql, airlineId: string): Promise<Flight[]> {
  return sql<Flight[]>`
    SELECT ${wireColumns(sql)} FROM flights f WHERE f.airline_id = ${airlineId} AND NOT f.deleted
    ORDER BY f.created_at, f.id`;
}

/**
 * Refuses ids that are not live flights of `airlineId`: 404 for ids that are no live flight at
 * all, 403 for another airline's (flights are public, so naming the owner reveals nothing).
 */
async function assertOwnFlights(
  tx: Tx | Sql,
  airlineId: string,
  ids: readonly string[],
): Promise<void> {
  const rows = await tx<{ id: string; airline_id: string }[]>`
    SELECT id, airline_id FROM flights WHERE id = ANY(${ids as string[]}::uuid[]) AND NOT deleted`;
  const found = new Map(rows.map((r) => [r.id, r.airline_id]));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length > 0)
    throw new AppError(ErrorCode.NotFound, 'Flight not found', { flightIds: unknown });
  const foreign = ids.filter((id) => found.get(id) !== airlineId);
  if (foreign.length > 0) {
    throw new AppError(ErrorCode.Forbidden, 'You can only manage your own flights', {
      reason: 'not_flight_owner',
      flightIds: foreign,
    });
  }
}

export async function createFlight(
  sql: Sql,
  airlineId: string,
  fields: FlightFieldsFromForm & { logo?: string | undefined },
): Promise<Flight> {
  return sql.begin(async (tx) => {
    const [airline] = await tx<{ name: string; image: string }[]>`
      SELECT name, image FROM airlines WHERE id = ${airlineId} AND NOT deleted`;
    if (!airline)
      throw new AppError(ErrorCode.Forbidden, 'Your airline is not active', {
        reason: 'airline_deleted',
      });
    // Spec §3: a flight's logo is its airline's image.
    const logo = airline.image || fields.logo || '';
    const [flight] = await tx<Flight[]>`
      INSERT INTO flights AS f (airline_id, airline_name, origin, destination, departure_date, departure_hour,
                           arrival_date, arrival_hour, duration_estimated, price_cents, tickets, logo, description)
      VALUES (${airlineId}, ${airline.name}, ${fields.origin}, ${fields.destination}, ${fields.departureDate},
              ${fields.departureHour}, ${fields.arrivalDate}, ${fields.arrivalHour}, ${fields.durationEstimated},
              ${fields.priceCents}, ${fields.tickets}, ${logo}, ${fields.description})
      RETURNING ${wireColumns(tx)}`;
    return flight!;
  });
}

export async function updateFlight(
  sql: Sql,
  airlineId: string,
  flightId: string,
  fields: FlightFieldsFromForm,
): Promise<Flight> {
  return sql.begin(async (tx) => {
    await assertOwnFlights(tx, airlineId, [flightId]);
    const [flight] = await tx<Flight[]>`
      UPDATE flights f SET origin = ${fields.origin}, destination = ${fields.destination},
        departure_date = ${fields.departureDate}, departure_hour = ${fields.departureHour},
        arrival_date = ${fields.arrivalDate}, arrival_hour = ${fields.arrivalHour},
        duration_estimated = ${fields.durationEstimated}, price_cents = ${fields.priceCents},
        tickets = ${fields.tickets}, description = ${fields.description}, updated_at = now()
      WHERE f.id = ${flightId} AND f.airline_id = ${airlineId} AND NOT f.deleted
      RETURNING ${wireColumns(tx)}`;
    return flight!;
  });
}

/**
 * Takes flights out of the catalogue (tombstones): past orders, sales and reviews keep pointing
 * at them. All or nothing: one foreign or unknown id refuses the whole request.
 */
export async function deleteFlights(
  sql: Sql,
  airlineId: string,
  ids: readonly string[],
): Promise<string[]> {
  return beginRetryingDeadlocks(sql, async (tx) => {
    await lockFlights(tx, { ids });
    await assertOwnFlights(tx, airlineId, ids);
    const rows = await tx<{ id: string }[]>`
      UPDATE flights SET deleted = true, updated_at = now()
      WHERE id = ANY(${ids as string[]}::uuid[]) AND airline_id = ${airlineId} AND NOT deleted
      RETURNING id`;
    return rows.map((r) => r.id);
  });
}

/**
 * §7 `PUT /flights/stock` for the airline itself: takes `amount` tickets from each of its flights
 * (e.g. seats sold elsewhere), with the same guarded update as the checkout. All or nothing.
 */
export async function takeOwnStock(
  sql: Sql,
  airlineId: string,
  changes: readonly { id: string; amount: number }[],
): Promise<{ id: string; tickets: number }[]> {
  const ids = changes.map((c) => c.id);
  const amounts = changes.map((c) => c.amount);
  return beginRetryingDeadlocks(sql, async (tx) => {
    await lockFlights(tx, { ids });
    await assertOwnFlights(tx, airlineId, ids);
    const rows = await tx<{ id: string; tickets: number }[]>`
      UPDATE flights f SET tickets = f.tickets - l.amount, updated_at = now()
      FROM unnest(${ids}::uuid[], ${amounts}::int[]) AS l(id, amount)
      WHERE f.id = l.id AND f.airline_id = ${airlineId} AND NOT f.deleted AND f.tickets >= l.amount
      RETURNING f.id, f.tickets`;
    if (rows.length !== changes.length) {
      throw new AppError(ErrorCode.Conflict, messages.noStockAvailable, { reason: 'no_stock' });
    }
    return rows;
  });
}

/**
 * For a customer's legacy `PUT /flights/stock` after paying: the stock was already taken by the
 * checkout, so the call is only acknowledged when it matches the lines of one of the caller's
 * confirmed orders; it never moves stock.
 */
export async function matchesConfirmedOrder(
  sql: Sql,
  userId: string,
  changes: readonly { id: string; amount: number }[],
): Promise<boolean> {
  // Compared as byte strings on both sides (JS sort and COLLATE "C" agree).
  const wanted = changes
    .map((c) => `${c.id}:${c.amount}`)
    .sort()
    .join(',');
  const [row] = await sql<{ id: string }[]>`
    SELECT o.id FROM orders o
    WHERE o.user_id = ${userId} AND o.status = 'confirmed' AND NOT o.deleted
      AND (SELECT string_agg(l.flight_id::text || ':' || l.amount, ',' ORDER BY (l.flight_id::text || ':' || l.amount) COLLATE "C")
           FROM order_lines l WHERE l.order_id = o.id) = ${wanted}
    LIMIT 1`;
  return row !== undefined;
}
