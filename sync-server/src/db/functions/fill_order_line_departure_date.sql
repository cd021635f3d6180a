-- An order line's snapshot of its flight carries the departure date (016 migration): the checkout
-- writes it with the rest of the snapshot; a writer that leaves it out (the demo seed, test
-- fixtures and benchmarks written before it) gets the flight's date as of the insert, which is the
-- sale's time too.
--
-- This file is the function's one home, with its trigger (decision 033): edit it in place,
-- db/migrate.ts re-applies it when its text changes. Earlier definition: 016 migration.

CREATE OR REPLACE FUNCTION fill_order_line_departure_date() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT f.departure_date INTO NEW.departure_date FROM flights f WHERE f.id = NEW.flight_id;
  RETURN NEW;
END
$$;

CREATE OR REPLACE TRIGGER order_lines_departure_date BEFORE INSERT ON order_lines
  FOR EACH ROW WHEN (NEW.departure_date IS NULL)
  EXECUTE FUNCTION fill_order_line_departure_date();
