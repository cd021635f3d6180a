-- Orders are written `pending` and become `confirmed` when the payment is captured (or cancelled,
-- 005 migration); only confirmed orders and their sales are shown, so the others replicate as
-- tombstones. When an order's status changes, its sales get a new revision too, so an airline's
-- client sees a sale appear (or go) with its order.
--
-- This file is the function's one home, with its trigger (decision 033): edit it in place,
-- db/migrate.ts re-applies it when its text changes. Earlier definition: 006 migration.

CREATE OR REPLACE FUNCTION touch_sales_of_orders() RETURNS trigger
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

CREATE OR REPLACE TRIGGER orders_touch_sales AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION touch_sales_of_orders();
