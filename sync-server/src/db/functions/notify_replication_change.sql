-- Every committed write to a replicated table sends one notification on `skyport_sync`, delivered
-- by PostgreSQL to every listening server instance at commit (never for a rolled-back write), sync
-- pushes included (025 migration, decision 032). The payload names the table and the partition
-- that changed: `flights:` for a public table, `favourites:<user id>` for a customer's row,
-- `sales:<airline id>` for an airline's. Identical payloads of one transaction are delivered once,
-- so a bulk load of 10,000 flights is one notification. The payload carries no row data: a
-- listener reads the rows past its checkpoint.
--
-- This file is the function's one home, with its triggers (decision 033): edit it in place,
-- db/migrate.ts re-applies it when its text changes. Earlier definitions: 006, 018 (a setting that
-- silenced it for the announcer after commit) and 025 migrations; the triggers: 006.

CREATE OR REPLACE FUNCTION notify_replication_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  partition_key text := '';
BEGIN
  IF TG_TABLE_NAME IN ('favourites', 'cart_lines', 'preferences', 'review_drafts', 'orders') THEN
    partition_key := NEW.user_id::text;
  ELSIF TG_TABLE_NAME = 'sales' THEN
    partition_key := NEW.airline_id::text;
  END IF;
  PERFORM pg_notify('skyport_sync', TG_TABLE_NAME || ':' || partition_key);
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER airlines_notify AFTER INSERT OR UPDATE ON airlines
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE OR REPLACE TRIGGER flights_notify AFTER INSERT OR UPDATE ON flights
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE OR REPLACE TRIGGER reviews_notify AFTER INSERT OR UPDATE ON reviews
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE OR REPLACE TRIGGER orders_notify AFTER INSERT OR UPDATE ON orders
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE OR REPLACE TRIGGER sales_notify AFTER INSERT OR UPDATE ON sales
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE OR REPLACE TRIGGER favourites_notify AFTER INSERT OR UPDATE ON favourites
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE OR REPLACE TRIGGER cart_lines_notify AFTER INSERT OR UPDATE ON cart_lines
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE OR REPLACE TRIGGER preferences_notify AFTER INSERT OR UPDATE ON preferences
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE OR REPLACE TRIGGER review_drafts_notify AFTER INSERT OR UPDATE ON review_drafts
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
