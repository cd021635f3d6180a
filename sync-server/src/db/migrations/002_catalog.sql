-- The public catalogue (GET /api/flights): what lets the server list exactly the pages of the shared
-- rule (shared/src/rules/catalog-query.ts), fast at 100,000 flights. Decisions and EXPLAIN figures:
-- docs/decisions/003-catalog-queries.md.

-- Flights travel with `createdAt` in milliseconds and the "initial" order is (createdAt, id).
-- Microseconds in the database would order two flights of the same millisecond differently from
-- every client, so creation times are kept to the millisecond.
ALTER TABLE flights ALTER COLUMN created_at TYPE timestamptz(3);

-- Listing indexes. Every one is partial on the listed flights (tickets left, not deleted), is in
-- exactly the order of one ORDER BY of queries.ts (ties by id ascending, so a descending order needs
-- its own index: a backward scan would give ids descending), and carries the filter columns
-- (airline, price) so that a filtered page is read from the index alone, filters checked on index
-- tuples; the page's few rows are then fetched by id. They replace the first migration's
-- single-column catalogue indexes.
DROP INDEX IF EXISTS flights_listed_price_idx;
DROP INDEX IF EXISTS flights_listed_airline_name_idx;
DROP INDEX IF EXISTS flights_listed_tickets_idx;
DROP INDEX IF EXISTS flights_listed_airline_idx;
DROP INDEX IF EXISTS flights_listed_origin_idx;
DROP INDEX IF EXISTS flights_listed_destination_idx;
DROP INDEX IF EXISTS flights_listed_created_idx;

-- "initial" order.
CREATE INDEX flights_catalog_created_idx ON flights (created_at, id)
  INCLUDE (airline_id, price_cents) WHERE tickets > 0 AND NOT deleted;
-- Price low→high and high→low; also the price band alone (a range on the key).
CREATE INDEX flights_catalog_price_asc_idx ON flights (price_cents, id)
  INCLUDE (airline_id) WHERE tickets > 0 AND NOT deleted;
CREATE INDEX flights_catalog_price_desc_idx ON flights (price_cents DESC, id)
  INCLUDE (airline_id) WHERE tickets > 0 AND NOT deleted;
-- Airline A→Z and Z→A: lower-case name by code point ("C"), as the shared rule compares it. The
-- name itself is included: PostgreSQL 15 only scans an expression index index-only when the
-- expression's columns are in it.
CREATE INDEX flights_catalog_airline_asc_idx ON flights ((lower(airline_name) COLLATE "C"), id)
  INCLUDE (airline_id, price_cents, airline_name) WHERE tickets > 0 AND NOT deleted;
CREATE INDEX flights_catalog_airline_desc_idx ON flights ((lower(airline_name) COLLATE "C") DESC, id)
  INCLUDE (airline_id, price_cents, airline_name) WHERE tickets > 0 AND NOT deleted;
-- Availability low→high and high→low.
CREATE INDEX flights_catalog_tickets_asc_idx ON flights (tickets, id)
  INCLUDE (airline_id, price_cents) WHERE tickets > 0 AND NOT deleted;
CREATE INDEX flights_catalog_tickets_desc_idx ON flights (tickets DESC, id)
  INCLUDE (airline_id, price_cents) WHERE tickets > 0 AND NOT deleted;
-- One airline's flights (in a band), with every sort column: the page of an airline sorted by
-- airline name sorts these instead of walking the name index to wherever that airline sits.
CREATE INDEX flights_catalog_airline_idx ON flights (airline_id, price_cents)
  INCLUDE (id, created_at, tickets, airline_name) WHERE tickets > 0 AND NOT deleted;
-- Origin/destination search: case-insensitive prefix ranges (`~>=~` / `~<~`, byte order, which
-- the planner matches with parameters, also in generic plans, unlike LIKE $1). The route index
-- serves "origin" and "origin and destination", the destination index "destination". Both include
-- the searched columns themselves (for index-only scans, as above) and every column a search page
-- filters or sorts by, so a search is answered from these indexes alone.
CREATE INDEX flights_catalog_route_idx
  ON flights (lower(origin) text_pattern_ops, lower(destination) text_pattern_ops)
  INCLUDE (origin, destination, id, airline_id, price_cents, tickets, created_at, airline_name)
  WHERE tickets > 0 AND NOT deleted;
CREATE INDEX flights_catalog_destination_idx ON flights (lower(destination) text_pattern_ops)
  INCLUDE (destination, origin, id, airline_id, price_cents, tickets, created_at, airline_name)
  WHERE tickets > 0 AND NOT deleted;

-- The price band of a price in cents; the edges are shared/src/constants.ts's
-- PRICE_BAND_LOW_MAX_CENTS (20.000,00 is low) and PRICE_BAND_MID_MAX_CENTS (40.000,00 is high).
-- A catalogue test pins prices at both edges against the shared rule.
CREATE FUNCTION catalog_price_band(price_cents bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN price_cents <= 2000000 THEN 'low' WHEN price_cents < 4000000 THEN 'mid' ELSE 'high' END
$$;

-- Number of listed flights per airline and price band, kept exact by the statement triggers below.
-- Counting ~100,000 index entries costs ~10 ms on every unfiltered home page; summing at most
-- (airlines × 3) rows costs microseconds. Searches still count their (small) matches directly.
-- Writers to flights already serialise on the replication lock (004), so these updates add no
-- contention of their own and cannot deadlock each other.
CREATE TABLE catalog_listing_counts (
  airline_id  uuid NOT NULL,
  price_band  text NOT NULL CHECK (price_band IN ('low', 'mid', 'high')),
  listed      integer NOT NULL,
  PRIMARY KEY (airline_id, price_band)
);

CREATE FUNCTION catalog_count_listings() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM catalog_listing_counts;
    RETURN NULL;
  END IF;
  -- One upsert per statement (bulk loads included), keys in a fixed order.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO catalog_listing_counts AS c (airline_id, price_band, listed)
    SELECT airline_id, catalog_price_band(price_cents), count(*)
    FROM new_rows WHERE tickets > 0 AND NOT deleted
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (airline_id, price_band) DO UPDATE SET listed = c.listed + EXCLUDED.listed;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE catalog_listing_counts c SET listed = c.listed - d.n
    FROM (SELECT airline_id, catalog_price_band(price_cents) AS price_band, count(*) AS n
          FROM old_rows WHERE tickets > 0 AND NOT deleted GROUP BY 1, 2) d
    WHERE c.airline_id = d.airline_id AND c.price_band = d.price_band;
  ELSE
    INSERT INTO catalog_listing_counts AS c (airline_id, price_band, listed)
    SELECT airline_id, price_band, sum(delta)
    FROM (
      SELECT airline_id, catalog_price_band(price_cents) AS price_band, 1 AS delta
      FROM new_rows WHERE tickets > 0 AND NOT deleted
      UNION ALL
      SELECT airline_id, catalog_price_band(price_cents), -1
      FROM old_rows WHERE tickets > 0 AND NOT deleted
    ) d
    GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT (airline_id, price_band) DO UPDATE SET listed = c.listed + EXCLUDED.listed;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER flights_listing_counts_insert AFTER INSERT ON flights
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_count_listings();
CREATE TRIGGER flights_listing_counts_update AFTER UPDATE ON flights
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_count_listings();
CREATE TRIGGER flights_listing_counts_delete AFTER DELETE ON flights
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_count_listings();
CREATE TRIGGER flights_listing_counts_truncate AFTER TRUNCATE ON flights
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_count_listings();

INSERT INTO catalog_listing_counts (airline_id, price_band, listed)
SELECT airline_id, catalog_price_band(price_cents), count(*)
FROM flights WHERE tickets > 0 AND NOT deleted GROUP BY 1, 2;
