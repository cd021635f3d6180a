-- Live replication (docs/architecture.md §4, issue 5): the revision lock taken before any row lock, change
-- notifications for the sync stream, and orders whose embedded lines changed getting a new revision.

-- The 004 row trigger takes the replication lock when a row is written, but PostgreSQL locks the
-- row (for UPDATE, and for INSERT … ON CONFLICT DO UPDATE) before a BEFORE ROW trigger runs. So a
-- transaction could hold a row lock while it waits for the replication lock, and the holder of
-- the replication lock could wait for that row: a deadlock (seen in the concurrent writers test;
-- PostgreSQL aborts one of them). Taking the same lock in a BEFORE STATEMENT trigger, before the
-- statement touches any row, means that every transaction holding a replicated row lock already
-- holds the replication lock, so no such cycle can form, whatever the writer remembers to do.
-- (A transaction may still take it explicitly first, as checkout and sync push do.)
CREATE FUNCTION lock_replication_revisions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('skyport:replication'));
  RETURN NULL;
END
$$;

CREATE TRIGGER airlines_revision_lock BEFORE INSERT OR UPDATE ON airlines
  FOR EACH STATEMENT EXECUTE FUNCTION lock_replication_revisions();
CREATE TRIGGER flights_revision_lock BEFORE INSERT OR UPDATE ON flights
  FOR EACH STATEMENT EXECUTE FUNCTION lock_replication_revisions();
CREATE TRIGGER reviews_revision_lock BEFORE INSERT OR UPDATE ON reviews
  FOR EACH STATEMENT EXECUTE FUNCTION lock_replication_revisions();
CREATE TRIGGER orders_revision_lock BEFORE INSERT OR UPDATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION lock_replication_revisions();
-- Order lines are part of the order document (below): their writes touch the order row.
CREATE TRIGGER order_lines_revision_lock BEFORE INSERT OR UPDATE ON order_lines
  FOR EACH STATEMENT EXECUTE FUNCTION lock_replication_revisions();
CREATE TRIGGER sales_revision_lock BEFORE INSERT OR UPDATE ON sales
  FOR EACH STATEMENT EXECUTE FUNCTION lock_replication_revisions();
CREATE TRIGGER favourites_revision_lock BEFORE INSERT OR UPDATE ON favourites
  FOR EACH STATEMENT EXECUTE FUNCTION lock_replication_revisions();
CREATE TRIGGER cart_lines_revision_lock BEFORE INSERT OR UPDATE ON cart_lines
  FOR EACH STATEMENT EXECUTE FUNCTION lock_replication_revisions();
CREATE TRIGGER preferences_revision_lock BEFORE INSERT OR UPDATE ON preferences
  FOR EACH STATEMENT EXECUTE FUNCTION lock_replication_revisions();
CREATE TRIGGER review_drafts_revision_lock BEFORE INSERT OR UPDATE ON review_drafts
  FOR EACH STATEMENT EXECUTE FUNCTION lock_replication_revisions();

-- Every committed write to a replicated table sends one notification on `skyport_sync`, delivered
-- by PostgreSQL to every listening server instance at commit (never for a rolled-back write).
-- The payload names the table and the partition that changed: `flights:` for a public table,
-- `favourites:<user id>` for a customer's row, `sales:<airline id>` for an airline's. Identical
-- payloads of one transaction are delivered once, so a bulk load of 10,000 flights is one
-- notification. The payload carries no row data: a listener reads the rows past its checkpoint.
CREATE FUNCTION notify_replication_change() RETURNS trigger
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

CREATE TRIGGER airlines_notify AFTER INSERT OR UPDATE ON airlines
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE TRIGGER flights_notify AFTER INSERT OR UPDATE ON flights
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE TRIGGER reviews_notify AFTER INSERT OR UPDATE ON reviews
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE TRIGGER orders_notify AFTER INSERT OR UPDATE ON orders
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE TRIGGER sales_notify AFTER INSERT OR UPDATE ON sales
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE TRIGGER favourites_notify AFTER INSERT OR UPDATE ON favourites
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE TRIGGER cart_lines_notify AFTER INSERT OR UPDATE ON cart_lines
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE TRIGGER preferences_notify AFTER INSERT OR UPDATE ON preferences
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();
CREATE TRIGGER review_drafts_notify AFTER INSERT OR UPDATE ON review_drafts
  FOR EACH ROW EXECUTE FUNCTION notify_replication_change();

-- An order document embeds its lines (a line turning `reviewed`, lines added at checkout), but
-- only `orders` carries a revision. Touching the parent order row lets its BEFORE trigger draw a
-- new revision, so the changed order replicates again. Statement-level with transition tables:
-- a checkout inserting ten lines touches its order once.
CREATE FUNCTION touch_orders_of_lines() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE orders SET revision = revision
  WHERE id IN (SELECT DISTINCT order_id FROM changed_lines);
  RETURN NULL;
END
$$;

CREATE TRIGGER order_lines_touch_insert AFTER INSERT ON order_lines
  REFERENCING NEW TABLE AS changed_lines
  FOR EACH STATEMENT EXECUTE FUNCTION touch_orders_of_lines();
CREATE TRIGGER order_lines_touch_update AFTER UPDATE ON order_lines
  REFERENCING NEW TABLE AS changed_lines
  FOR EACH STATEMENT EXECUTE FUNCTION touch_orders_of_lines();

-- Cart lines and favourites replicate with a summary of their flight (price, stock, hours…, read
-- from `flights` when pulled), so the cart and favourites render offline with current data. When
-- that summary changes, the live lines and favourites of the flight get a new revision, or a
-- client would keep a summary the server no longer has (the concurrent writers test compares
-- every client with the server document by document).
CREATE FUNCTION touch_lines_of_flights() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT n.id FROM new_flights n JOIN old_flights o ON o.id = n.id
    WHERE (n.airline_id, n.airline_name, n.origin, n.destination, n.departure_date, n.departure_hour,
           n.arrival_hour, n.price_cents, n.tickets, n.logo)
          IS DISTINCT FROM
          (o.airline_id, o.airline_name, o.origin, o.destination, o.departure_date, o.departure_hour,
           o.arrival_hour, o.price_cents, o.tickets, o.logo)
  ), carts AS (
    UPDATE cart_lines SET revision = revision
    WHERE NOT deleted AND flight_id IN (SELECT id FROM changed)
  )
  UPDATE favourites SET revision = revision
  WHERE NOT deleted AND flight_id IN (SELECT id FROM changed);
  RETURN NULL;
END
$$;

CREATE TRIGGER flights_touch_lines AFTER UPDATE ON flights
  REFERENCING OLD TABLE AS old_flights NEW TABLE AS new_flights
  FOR EACH STATEMENT EXECUTE FUNCTION touch_lines_of_flights();

-- Orders are written `pending` and become `confirmed` when the payment is captured (or cancelled,
-- 005 migration); only confirmed orders and their sales are shown, so the others replicate as
-- tombstones. When an order's status changes, its sales get a new revision too, so an airline's
-- client sees a sale appear (or go) with its order.
CREATE FUNCTION touch_sales_of_orders() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sales SET revision = revision
  WHERE order_line_id IN (
    SELECT l.id FROM order_lines l
    WHERE l.order_id IN (
      SELECT n.id FROM new_orders n JOIN old_orders o ON o.id = n.id
      WHERE (n.status, n.deleted) IS DISTINCT FROM (o.status, o.deleted)));
  RETURN NULL;
END
$$;

CREATE TRIGGER orders_touch_sales AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION touch_sales_of_orders();

CREATE INDEX sales_order_line_idx ON sales (order_line_id);
CREATE INDEX cart_lines_flight_idx ON cart_lines (flight_id) WHERE NOT deleted;
CREATE INDEX favourites_flight_idx ON favourites (flight_id) WHERE NOT deleted;

-- Pulls of the per-user and per-airline partitions read (partition, revision) ranges.
CREATE INDEX orders_user_revision_idx ON orders (user_id, revision);
CREATE INDEX sales_airline_revision_idx ON sales (airline_id, revision);
CREATE INDEX preferences_revision_idx ON preferences (user_id, revision);
