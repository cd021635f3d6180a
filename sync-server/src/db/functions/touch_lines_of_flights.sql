-- Cart lines and favourites replicate with their flight's id; clients read its price, stock and
-- hours from their replicated flights (pwa/src/features/cart/data/cart.ts). Only a flight leaving
-- or coming back to the catalogue (`deleted` changing) gives its live lines and favourites a new
-- revision, so that their documents say the flight is gone (`flightDeleted`, sync/documents.ts)
-- on every device, including one that does not hold that flight.
--
-- This file is the function's one home, with its trigger (decision 033): edit it in place,
-- db/migrate.ts re-applies it when its text changes. Earlier definitions: 006, 009 and 010 (no
-- rewrite of every line on a stock or price change) migrations; the trigger: 006.

CREATE OR REPLACE FUNCTION touch_lines_of_flights() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT n.id FROM new_flights n JOIN old_flights o ON o.id = n.id
    WHERE n.deleted IS DISTINCT FROM o.deleted
  ), carts AS (
    UPDATE cart_lines SET revision = revision
    WHERE NOT deleted AND flight_id IN (SELECT id FROM changed)
  )
  UPDATE favourites SET revision = revision
  WHERE NOT deleted AND flight_id IN (SELECT id FROM changed);
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER flights_touch_lines AFTER UPDATE ON flights
  REFERENCING OLD TABLE AS old_flights NEW TABLE AS new_flights
  FOR EACH STATEMENT EXECUTE FUNCTION touch_lines_of_flights();
