-- A flight's minutes from departure to arrival (014 migration, docs/decisions/016-departure-dates-
-- and-fastest.md), both read as the wall-clock date and hour the flight carries (they hold no time
-- zone), to the minute as the wire's hh:mm: `flightMinutes` of @skyport/shared computes the same
-- number from the same fields. Seconds, if a row had any, are ignored on both sides.
--
-- The index flights_catalog_fastest_idx (014) is built on this function's results: a change of
-- what it returns must rebuild that index once the new definition is in place, or the "fastest"
-- order reads stale keys. So `REINDEX INDEX flights_catalog_fastest_idx;` goes below the function
-- in this file (a versioned migration would run before it, with the old definition).
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Earlier definition: 014 migration.

CREATE OR REPLACE FUNCTION catalog_flight_minutes(
  departure_date date, departure_hour time, arrival_date date, arrival_hour time
) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ((arrival_date - departure_date) * 1440
    + (extract(hour FROM arrival_hour) * 60 + extract(minute FROM arrival_hour))::integer
    - (extract(hour FROM departure_hour) * 60 + extract(minute FROM departure_hour))::integer)
$$;
