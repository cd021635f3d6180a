-- The catalogue's maintained counts (docs/architecture.md §12): the total of every page of
-- GET /api/flights, searches included, is a sum over a few rows of the tables below, never a
-- count(*) over the matching flights; and the catalogue's revision (its ETag) is an O(1) lookup.
--
-- What is counted is what the catalogue lists (features/catalog/queries.ts, the shared rule
-- shared/src/rules/catalog-query.ts): flights with tickets left that are not deleted. So only a
-- change of a flight's membership in a counted set touches the counts: an insert, a (hard) delete,
-- selling out or restocking, deleting or undeleting, and a change of a field the counts group by
-- (airline, price band, origin, destination). A sale that leaves tickets (the checkout's usual
-- `tickets = tickets - n`) runs no trigger function at all (the WHEN clause below is checked by
-- PostgreSQL itself), so checkouts never queue on a counter row. There is no grand-total row:
-- the unfiltered total is the sum of the per-airline rows.
--
-- This replaces 002's catalog_listing_counts (per airline and band, kept by statement triggers
-- that ran on every UPDATE of flights, stock changes included); a view of the same name keeps its
-- shape for the code that reads it.

DROP TRIGGER flights_listing_counts_insert ON flights;
DROP TRIGGER flights_listing_counts_update ON flights;
DROP TRIGGER flights_listing_counts_delete ON flights;
DROP TRIGGER flights_listing_counts_truncate ON flights;
DROP FUNCTION catalog_count_listings();
DROP TABLE catalog_listing_counts;

-- Listed flights per airline, one column per price band (catalog_price_band, 002): the total of
-- every listing page (the home page, the band and airline filters). One row per airline, so the
-- unfiltered total reads one small heap page.
CREATE TABLE catalog_airline_counts (
  airline_id  uuid PRIMARY KEY,
  low         integer NOT NULL DEFAULT 0,
  mid         integer NOT NULL DEFAULT 0,
  high        integer NOT NULL DEFAULT 0
);

-- Listed flights per place, for searches, one column per price band. A row's grouping is given
-- by which keys are set (NULL: any):
--   (origin), (destination)          a search on one place, and the "either" level of two
--   (origin, destination)            a search on both places
--   (airline, origin), (airline, destination), (airline, origin, destination)
--                                    the same searches with the airline filter
-- Place keys are lower(origin) / lower(destination), the text a search prefix is compared with,
-- in the "C" collation so that `>=` / `<` on them are the byte-order ranges queries.ts uses for
-- prefixes. Rows that drop to zero stay (a flight coming back reuses them).
CREATE TABLE catalog_place_counts (
  airline_id       uuid,
  origin_key       text COLLATE "C",
  destination_key  text COLLATE "C",
  low              integer NOT NULL DEFAULT 0,
  mid              integer NOT NULL DEFAULT 0,
  high             integer NOT NULL DEFAULT 0,
  CONSTRAINT catalog_place_counts_key
    UNIQUE NULLS NOT DISTINCT (airline_id, origin_key, destination_key) INCLUDE (low, mid, high),
  CHECK (origin_key IS NOT NULL OR destination_key IS NOT NULL)
);
-- One index per grouping, each covering the counters, so that every sum of queries.ts is an
-- index-only range over its own grouping. (airline, origin, destination) uses the key's index.
CREATE INDEX catalog_place_counts_origin_idx ON catalog_place_counts (origin_key)
  INCLUDE (low, mid, high) WHERE airline_id IS NULL AND destination_key IS NULL;
CREATE INDEX catalog_place_counts_destination_idx ON catalog_place_counts (destination_key)
  INCLUDE (low, mid, high) WHERE airline_id IS NULL AND origin_key IS NULL;
CREATE INDEX catalog_place_counts_route_idx ON catalog_place_counts (origin_key, destination_key)
  INCLUDE (low, mid, high)
  WHERE airline_id IS NULL AND origin_key IS NOT NULL AND destination_key IS NOT NULL;
CREATE INDEX catalog_place_counts_airline_origin_idx ON catalog_place_counts (airline_id, origin_key)
  INCLUDE (low, mid, high)
  WHERE airline_id IS NOT NULL AND origin_key IS NOT NULL AND destination_key IS NULL;
CREATE INDEX catalog_place_counts_airline_destination_idx
  ON catalog_place_counts (airline_id, destination_key) INCLUDE (low, mid, high)
  WHERE airline_id IS NOT NULL AND origin_key IS NULL AND destination_key IS NOT NULL;

-- Adds +1/-1 per flight (`signs`; 0 = not listed, ignored) to every grouping of each flight.
-- One upsert per table, keys in a fixed order (so two writers lock shared rows in the same order),
-- and groups whose net change is zero (a listed flight whose price moved within its band) are
-- left alone.
CREATE FUNCTION catalog_counts_apply(
  airline_ids uuid[], origins text[], destinations text[], prices bigint[], signs integer[]
) RETURNS void
LANGUAGE sql AS $$
  WITH deltas AS (
    SELECT u.a, lower(u.o) COLLATE "C" AS o, lower(u.d) COLLATE "C" AS d,
           CASE WHEN catalog_price_band(u.p) = 'low' THEN u.s ELSE 0 END AS l,
           CASE WHEN catalog_price_band(u.p) = 'mid' THEN u.s ELSE 0 END AS m,
           CASE WHEN catalog_price_band(u.p) = 'high' THEN u.s ELSE 0 END AS h
    FROM unnest(airline_ids, origins, destinations, prices, signs) AS u (a, o, d, p, s)
    WHERE u.s <> 0
  ), by_airline AS (
    INSERT INTO catalog_airline_counts AS c (airline_id, low, mid, high)
    SELECT a, sum(l), sum(m), sum(h) FROM deltas
    GROUP BY a HAVING sum(l) <> 0 OR sum(m) <> 0 OR sum(h) <> 0 ORDER BY a
    ON CONFLICT (airline_id) DO UPDATE
      SET low = c.low + EXCLUDED.low, mid = c.mid + EXCLUDED.mid, high = c.high + EXCLUDED.high
  )
  INSERT INTO catalog_place_counts AS c (airline_id, origin_key, destination_key, low, mid, high)
  SELECT a, o, d, sum(l), sum(m), sum(h) FROM deltas
  GROUP BY GROUPING SETS ((o), (d), (o, d), (a, o), (a, d), (a, o, d))
  HAVING sum(l) <> 0 OR sum(m) <> 0 OR sum(h) <> 0
  ORDER BY a NULLS FIRST, o NULLS FIRST, d NULLS FIRST
  ON CONFLICT ON CONSTRAINT catalog_place_counts_key DO UPDATE
    SET low = c.low + EXCLUDED.low, mid = c.mid + EXCLUDED.mid, high = c.high + EXCLUDED.high
$$;

-- The catalogue's revision is max(flights.revision) (every insert and update of a flight draws a
-- new one, 004), except that a hard DELETE draws none; it raises this floor instead, in the same
-- transaction. Flights are tombstoned, not deleted, by the product: only tests and manual clean-ups
-- delete, so this row is never contended in practice.
CREATE TABLE catalog_revision_floor (
  only_row  boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  revision  bigint NOT NULL
);
INSERT INTO catalog_revision_floor (revision) VALUES (0);

CREATE FUNCTION catalog_counts_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM catalog_counts_apply(array_agg(airline_id), array_agg(origin), array_agg(destination),
                                 array_agg(price_cents), array_agg(1))
    FROM new_rows WHERE tickets > 0 AND NOT deleted;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM catalog_counts_apply(array_agg(airline_id), array_agg(origin), array_agg(destination),
                                 array_agg(price_cents), array_agg(-1))
    FROM old_rows WHERE tickets > 0 AND NOT deleted;
    UPDATE catalog_revision_floor SET revision = nextval('replication_revision');
  ELSE -- TRUNCATE
    DELETE FROM catalog_airline_counts;
    DELETE FROM catalog_place_counts;
    UPDATE catalog_revision_floor SET revision = nextval('replication_revision');
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION catalog_counts_row_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_counts_apply(
    ARRAY[OLD.airline_id, NEW.airline_id], ARRAY[OLD.origin, NEW.origin],
    ARRAY[OLD.destination, NEW.destination], ARRAY[OLD.price_cents, NEW.price_cents],
    ARRAY[CASE WHEN OLD.tickets > 0 AND NOT OLD.deleted THEN -1 ELSE 0 END,
          CASE WHEN NEW.tickets > 0 AND NOT NEW.deleted THEN 1 ELSE 0 END]);
  RETURN NULL;
END
$$;

-- Inserts and deletes are counted per statement (a bulk load of 100,000 flights is one upsert);
-- updates per row, and only those that change membership: the WHEN clause is evaluated by
-- PostgreSQL without calling the function, so a stock change that leaves tickets costs nothing.
CREATE TRIGGER flights_catalog_counts_insert AFTER INSERT ON flights
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_counts_statement();
CREATE TRIGGER flights_catalog_counts_delete AFTER DELETE ON flights
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_counts_statement();
CREATE TRIGGER flights_catalog_counts_truncate AFTER TRUNCATE ON flights
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_counts_statement();
CREATE TRIGGER flights_catalog_counts_update AFTER UPDATE ON flights FOR EACH ROW
  WHEN ((OLD.tickets > 0 AND NOT OLD.deleted) IS DISTINCT FROM (NEW.tickets > 0 AND NOT NEW.deleted)
        OR (NEW.tickets > 0 AND NOT NEW.deleted
            AND (OLD.airline_id, OLD.price_cents, OLD.origin, OLD.destination)
                IS DISTINCT FROM (NEW.airline_id, NEW.price_cents, NEW.origin, NEW.destination)))
  EXECUTE FUNCTION catalog_counts_row_update();

SELECT catalog_counts_apply(array_agg(airline_id), array_agg(origin), array_agg(destination),
                            array_agg(price_cents), array_agg(1))
FROM flights WHERE tickets > 0 AND NOT deleted;

-- 002's table, as it was read: listed flights per airline and band.
CREATE VIEW catalog_listing_counts AS
SELECT c.airline_id, b.price_band, b.listed
FROM catalog_airline_counts c
CROSS JOIN LATERAL (VALUES ('low', c.low), ('mid', c.mid), ('high', c.high)) AS b (price_band, listed);

-- Deep pages and keyset pages are index-only walks over the listing indexes of 002, which need the
-- visibility map: with the default thresholds (20 % of the table) a busy catalogue's stock changes
-- leave many heap pages not all-visible between vacuums, and every index entry on such a page
-- costs a heap fetch. Vacuum flights after ~2 % of its rows changed instead.
ALTER TABLE flights SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);
