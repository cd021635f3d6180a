-- A flight's minutes from departure to arrival (014 migration, docs/decisions/016-departure-dates-
-- and-fastest.md), both read as the wall-clock date and hour the flight carries (they hold no time
-- zone), to the minute as the wire's hh:mm: `flightMinutes` of @skyport/shared computes the same
-- number from the same fields. Seconds, if a row had any, are ignored on both sides.
--
-- The index flights_catalog_fastest_idx is built on this function's results, so it is created
-- here, after the function (000_baseline.sql holds every other index). A change of what the
-- function returns must rebuild that index once the new definition is in place, or the "fastest"
-- order reads stale keys: `REINDEX INDEX flights_catalog_fastest_idx;` then goes below the index
-- in this file (a versioned migration would run before it, with the old definition).
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Earlier definition: 014 migration (squashed into 000_baseline.sql).

CREATE OR REPLACE FUNCTION catalog_flight_minutes(
  departure_date date, departure_hour time, arrival_date date, arrival_hour time
) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ((arrival_date - departure_date) * 1440
    + (extract(hour FROM arrival_hour) * 60 + extract(minute FROM arrival_hour))::integer
    - (extract(hour FROM departure_hour) * 60 + extract(minute FROM departure_hour))::integer)
$$;

-- "fastest": in exactly its ORDER BY (minutes, then id), partial on listed flights like the other
-- orderings, with the filter columns (airline, price) and the function's own columns (PostgreSQL 15
-- only scans an expression index index-only when the expression's columns are in it).
CREATE INDEX IF NOT EXISTS flights_catalog_fastest_idx ON flights (
  catalog_flight_minutes(departure_date, departure_hour, arrival_date, arrival_hour), id)
  INCLUDE (airline_id, price_cents, departure_date, departure_hour, arrival_date, arrival_hour)
  WHERE tickets > 0 AND NOT deleted;
