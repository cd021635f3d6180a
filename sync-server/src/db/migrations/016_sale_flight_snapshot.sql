-- A sale names its flight by route and departure (issue 16), offline too: the replicated sale
-- document carries them (sync/documents.ts), read from its order line's snapshot of the flight at
-- purchase, so that a later edit or deletion of the flight changes nothing of a sale already made.
-- The snapshot (001) had the route and the hours but not the departure date; it gets it here.

ALTER TABLE order_lines ADD COLUMN departure_date date;

-- The lines sold before: the best date there is, their flight's current one (a flight row is never
-- removed once sold: order lines reference it). Their order documents do not show the date, so
-- the backfill gives them no new revision (the touch trigger of 006 is off meanwhile); the devices
-- that show the date pull their sales again when they first open the local layout that has it
-- (pwa/src/db/layout.ts).
ALTER TABLE order_lines DISABLE TRIGGER order_lines_touch_update;
UPDATE order_lines l SET departure_date = f.departure_date FROM flights f WHERE f.id = l.flight_id;
ALTER TABLE order_lines ENABLE TRIGGER order_lines_touch_update;

ALTER TABLE order_lines ALTER COLUMN departure_date SET NOT NULL;

-- The checkout writes the date with the rest of the snapshot. A writer that leaves it out (the demo
-- seed, test fixtures and benchmarks written before it) gets the flight's date as of the insert,
-- which is the sale's time too.
CREATE FUNCTION fill_order_line_departure_date() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT f.departure_date INTO NEW.departure_date FROM flights f WHERE f.id = NEW.flight_id;
  RETURN NEW;
END
$$;

CREATE TRIGGER order_lines_departure_date BEFORE INSERT ON order_lines
  FOR EACH ROW WHEN (NEW.departure_date IS NULL)
  EXECUTE FUNCTION fill_order_line_departure_date();
