-- The price band of a price in cents (002 migration); the edges are shared/src/constants.ts's
-- PRICE_BAND_LOW_MAX_CENTS (20.000,00 is low) and PRICE_BAND_MID_MAX_CENTS (40.000,00 is high).
-- A catalogue test pins prices at both edges against the shared rule. The maintained counts
-- (catalog_counts_apply.sql) group by it: a change of the edges must recount
-- catalog_airline_counts and catalog_place_counts once the new definition is in place, below the
-- function in this file (a versioned migration would run before it, with the old definition).
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Earlier definition: 002 migration.

CREATE OR REPLACE FUNCTION catalog_price_band(price_cents bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN price_cents <= 2000000 THEN 'low' WHEN price_cents < 4000000 THEN 'mid' ELSE 'high' END
$$;
