-- Deleted flights everywhere (issue 14): when a flight leaves the catalogue (`flights.deleted`
-- false → true, by its airline's DELETE, an administrator deleting the airline, or the owner's
-- account being deleted), the live cart lines and favourites naming it get a new revision, like
-- any other change of the flight summary they carry (006). Their documents then say that the flight
-- is gone (`flightDeleted: true`, and a cart line's `tickets` 0: sync/documents.ts), so every client
-- shows them as no longer available at once instead of keeping the old stock until checkout
-- refuses it. The 006 function compared the summary's columns but not `deleted`; this version
-- compares `deleted` too and is otherwise the same (a flight brought back, deleted true → false,
-- touches them again, and its documents lose the flag).
CREATE OR REPLACE FUNCTION touch_lines_of_flights() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT n.id FROM new_flights n JOIN old_flights o ON o.id = n.id
    WHERE (n.airline_id, n.airline_name, n.origin, n.destination, n.departure_date, n.departure_hour,
           n.arrival_hour, n.price_cents, n.tickets, n.logo, n.deleted)
          IS DISTINCT FROM
          (o.airline_id, o.airline_name, o.origin, o.destination, o.departure_date, o.departure_hour,
           o.arrival_hour, o.price_cents, o.tickets, o.logo, o.deleted)
  ), carts AS (
    UPDATE cart_lines SET revision = revision
    WHERE NOT deleted AND flight_id IN (SELECT id FROM changed)
  )
  UPDATE favourites SET revision = revision
  WHERE NOT deleted AND flight_id IN (SELECT id FROM changed);
  RETURN NULL;
END
$$;
