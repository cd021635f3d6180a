/**
 * A flight as the `flights` table holds it (db/migrations/000_baseline.sql), and the one mapping
 * from that row to the wire flight (`FlightSchema` in @skyport/shared). The catalogue, the sync documents and
 * an airline's own table all read flights through `FLIGHT_WIRE_COLUMNS`, so a flight is the same
 * wherever it is sent: dates `yyyy-mm-dd`, hours `hh:mm`, `createdAt` in epoch milliseconds.
 */

/** A `flights` row's flight fields, dates and hours as text (what the demo seed writes). */
export interface FlightRow {
  id: string;
  airline_id: string;
  airline_name: string;
  origin: string;
  destination: string;
  departure_date: string;
  departure_hour: string;
  arrival_date: string;
  arrival_hour: string;
  duration_estimated: string;
  price_cents: number;
  tickets: number;
  logo: string;
  description: string;
  created_at: Date;
}

/**
 * The wire fields of a flight, in `FlightSchema`'s order, read from `flights f`: SQL text for a
 * SELECT or RETURNING list (PostgreSQL shapes the row, so nothing maps it again in JavaScript).
 */
export const FLIGHT_WIRE_COLUMNS = `
    f.id,
    f.airline_id AS "airlineId",
    f.airline_name AS "airlineName",
    f.origin,
    f.destination,
    to_char(f.departure_date, 'YYYY-MM-DD') AS "departureDate",
    to_char(f.departure_hour, 'HH24:MI') AS "departureHour",
    to_char(f.arrival_date, 'YYYY-MM-DD') AS "arrivalDate",
    to_char(f.arrival_hour, 'HH24:MI') AS "arrivalHour",
    f.duration_estimated AS "durationEstimated",
    f.price_cents AS "priceCents",
    f.tickets,
    f.logo,
    f.description,
    (extract(epoch FROM f.created_at) * 1000)::int8 AS "createdAt"`;
