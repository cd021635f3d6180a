-- An order that is cancelled (or tombstoned) voids its tickets in the same transaction, whichever
-- code cancels it: a ticket of a cancelled order is never reported valid (013 migration,
-- docs/decisions/014-signed-tickets.md).
--
-- This file is the function's one home, with its trigger (decision 033): edit it in place,
-- db/migrate.ts re-applies it when its text changes. Earlier definition: 013 migration.

CREATE OR REPLACE FUNCTION void_tickets_of_order() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET status = 'void', voided_at = now()
  WHERE order_id = NEW.id AND status = 'valid';
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER orders_void_tickets AFTER UPDATE OF status, deleted ON orders
  FOR EACH ROW
  WHEN ((NEW.status = 'cancelled' OR NEW.deleted)
        AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.deleted IS DISTINCT FROM NEW.deleted))
  EXECUTE FUNCTION void_tickets_of_order();
