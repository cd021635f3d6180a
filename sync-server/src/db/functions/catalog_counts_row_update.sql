-- The catalogue's counts (011 migration) when an update changes a flight's membership in a counted
-- set: selling out or restocking, deleting or undeleting, or a listed flight's airline, price band
-- or places changing. The trigger's WHEN clause is evaluated by PostgreSQL without calling the
-- function, so a stock change that leaves tickets (the checkout's usual `tickets = tickets - n`)
-- costs nothing and no checkout queues on a counter row.
--
-- This file is the function's one home, with its trigger (decision 033): edit it in place,
-- db/migrate.ts re-applies it when its text changes. Earlier definition: 011 migration.

CREATE OR REPLACE FUNCTION catalog_counts_row_update() RETURNS trigger
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

CREATE OR REPLACE TRIGGER flights_catalog_counts_update AFTER UPDATE ON flights FOR EACH ROW
  WHEN ((OLD.tickets > 0 AND NOT OLD.deleted) IS DISTINCT FROM (NEW.tickets > 0 AND NOT NEW.deleted)
        OR (NEW.tickets > 0 AND NOT NEW.deleted
            AND (OLD.airline_id, OLD.price_cents, OLD.origin, OLD.destination)
                IS DISTINCT FROM (NEW.airline_id, NEW.price_cents, NEW.origin, NEW.destination)))
  EXECUTE FUNCTION catalog_counts_row_update();
