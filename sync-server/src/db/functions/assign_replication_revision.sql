-- Every write to a replicated table stamps the row with the top-level transaction that wrote it
-- (`txid`) and a new `revision` from the one sequence: replication positions are (txid, revision)
-- pairs, read below the watermark (replication_watermark.sql; docs/decisions/010-transaction-
-- watermarks.md). PostgreSQL fires the BEFORE UPDATE trigger on the locked row, and an insert that
-- meets a row goes through its update, so a later write of a row draws a larger revision.
--
-- This file is the function's one home, with its triggers (decision 033): edit it in place,
-- db/migrate.ts re-applies it when its text changes. Earlier definitions: 004 (with the global
-- replication lock) and 010 migrations; the triggers: 004.

CREATE OR REPLACE FUNCTION assign_replication_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.txid := pg_current_xact_id()::text::int8;
  NEW.revision := nextval('replication_revision');
  RETURN NEW;
END
$$;

CREATE OR REPLACE TRIGGER airlines_revision BEFORE INSERT OR UPDATE ON airlines
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE OR REPLACE TRIGGER flights_revision BEFORE INSERT OR UPDATE ON flights
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE OR REPLACE TRIGGER reviews_revision BEFORE INSERT OR UPDATE ON reviews
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE OR REPLACE TRIGGER orders_revision BEFORE INSERT OR UPDATE ON orders
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE OR REPLACE TRIGGER sales_revision BEFORE INSERT OR UPDATE ON sales
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE OR REPLACE TRIGGER favourites_revision BEFORE INSERT OR UPDATE ON favourites
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE OR REPLACE TRIGGER cart_lines_revision BEFORE INSERT OR UPDATE ON cart_lines
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE OR REPLACE TRIGGER preferences_revision BEFORE INSERT OR UPDATE ON preferences
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE OR REPLACE TRIGGER review_drafts_revision BEFORE INSERT OR UPDATE ON review_drafts
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
