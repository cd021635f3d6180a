-- The catalogue's counts (011 migration) for inserts, deletes and truncates of flights, per
-- statement: a bulk load of 100,000 flights is one upsert. A hard DELETE draws no flight revision,
-- so it raises the catalogue's revision floor instead (catalog_revision_floor, 011), in the same
-- transaction.
--
-- This file is the function's one home, with its triggers (decision 033): edit it in place,
-- db/migrate.ts re-applies it when its text changes. Earlier definition: 011 migration.

CREATE OR REPLACE FUNCTION catalog_counts_statement() RETURNS trigger
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

CREATE OR REPLACE TRIGGER flights_catalog_counts_insert AFTER INSERT ON flights
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_counts_statement();
CREATE OR REPLACE TRIGGER flights_catalog_counts_delete AFTER DELETE ON flights
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_counts_statement();
CREATE OR REPLACE TRIGGER flights_catalog_counts_truncate AFTER TRUNCATE ON flights
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_counts_statement();
