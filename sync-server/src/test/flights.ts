import type { Flight } from '@skyport/shared';
import type { Sql } from '../db/client.ts';

/** A wire flight as a test stores it, tombstoned or not. */
export type StoredFlight = Flight & { deleted: boolean };

/**
 * Inserts wire flights as they are, ids and creation times included (the inverse of
 * `FLIGHT_WIRE_COLUMNS`, db/flight-row.ts): what a catalogue test compares its answers with.
 */
export async function insertWireFlights(sql: Sql, flights: readonly StoredFlight[]): Promise<void> {
  const rows = flights.map((f) => ({
    id: f.id,
    airline_id: f.airlineId,
    airline_name: f.airlineName,
    origin: f.origin,
    destination: f.destination,
    departure_date: f.departureDate,
    departure_hour: f.departureHour,
    arrival_date: f.arrivalDate,
    arrival_hour: f.arrivalHour,
    duration_estimated: f.durationEstimated,
    price_cents: f.priceCents,
    tickets: f.tickets,
    logo: f.logo,
    description: f.description,
    created_at: new Date(f.createdAt).toISOString(),
    deleted: f.deleted,
  }));
  await sql`INSERT INTO flights ${sql(rows)}`;
}
