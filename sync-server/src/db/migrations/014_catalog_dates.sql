-- Departure dates and the "fastest" order of GET /api/flights (docs/decisions/016-departure-dates-
-- and-fastest.md; the rule: shared/src/rules/catalog-query.ts, the SQL: features/catalog/queries.ts).

-- A flight's minutes from departure to arrival, both read as the wall-clock date and hour the flight
-- carries (they hold no time zone), to the minute as the wire's hh:mm: `flightMinutes` of
-- @skyport/shared computes the same number from the same fields. Seconds, if a row had any, are
-- ignored on both sides.
CREATE FUNCTION catalog_flight_minutes(
  departure_date date, departure_hour time, arrival_date date, arrival_hour time
) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ((arrival_date - departure_date) * 1440
    + (extract(hour FROM arrival_hour) * 60 + extract(minute FROM arrival_hour))::integer
    - (extract(hour FROM departure_hour) * 60 + extract(minute FROM departure_hour))::integer)
$$;

-- "fastest": in exactly its ORDER BY (minutes, then id), partial on listed flights like 002's
-- orderings, with the filter columns (airline, price) and the function's own columns (PostgreSQL 15
-- only scans an expression index index-only when the expression's columns are in it).
CREATE INDEX flights_catalog_fastest_idx ON flights (
  catalog_flight_minutes(departure_date, departure_hour, arrival_date, arrival_hour), id)
  INCLUDE (airline_id, price_cents, departure_date, departure_hour, arrival_date, arrival_hour)
  WHERE tickets > 0 AND NOT deleted;

-- A departure range: its listed flights are one range of this index, which carries every column a
-- dated page filters, sorts or groups by (airline, price, places, every order's key), so that the
-- range is read from the index alone, counted, grouped by day and sorted. A home-screen range is a
-- week at most: ~2,000 of 100,000 flights spread over a year.
CREATE INDEX flights_catalog_departure_idx ON flights (departure_date)
  INCLUDE (id, airline_id, price_cents, tickets, created_at, airline_name, origin, destination,
           departure_hour, arrival_date, arrival_hour)
  WHERE tickets > 0 AND NOT deleted;
