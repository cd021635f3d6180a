-- An order document embeds its lines (a line turning `reviewed`, lines added at checkout) and
-- their tickets (013 migration), but only `orders` carries a revision. Touching the parent order
-- row lets its BEFORE trigger draw a new revision, so the changed order replicates again.
-- Statement-level with transition tables: a checkout inserting ten lines touches its order once.
--
-- This file is the function's one home, with its triggers (decision 033): edit it in place,
-- db/migrate.ts re-applies it when its text changes. Earlier definition: 006 migration; the
-- trigger tickets_touch_orders: 013.

CREATE OR REPLACE FUNCTION touch_orders_of_lines() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE orders SET revision = revision
  WHERE id IN (SELECT DISTINCT order_id FROM changed_lines);
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER order_lines_touch_insert AFTER INSERT ON order_lines
  REFERENCING NEW TABLE AS changed_lines
  FOR EACH STATEMENT EXECUTE FUNCTION touch_orders_of_lines();
CREATE OR REPLACE TRIGGER order_lines_touch_update AFTER UPDATE ON order_lines
  REFERENCING NEW TABLE AS changed_lines
  FOR EACH STATEMENT EXECUTE FUNCTION touch_orders_of_lines();
CREATE OR REPLACE TRIGGER tickets_touch_orders AFTER INSERT ON tickets
  REFERENCING NEW TABLE AS changed_lines
  FOR EACH STATEMENT EXECUTE FUNCTION touch_orders_of_lines();
