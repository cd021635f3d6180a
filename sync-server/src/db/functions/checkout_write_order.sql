-- The checkout's order transaction in one statement (docs/decisions/008-checkout-state-machine.md,
-- "Fewer round trips"; called by features/checkout/queries.ts `writeOrder`). Its steps:
--
--   1. the customer's partition lock (lock_partition.sql), then the flights' rows in id order
--      (db/locks.ts `lockFlights`), the order every writer of these rows takes them in;
--   2. without a seat hold, the guarded stock decrement of every line at its quoted price; with
--      one (012 migration), the hold consumed instead (its seats were taken when it was made);
--   3. in one statement: the order (`pending`), its lines with their snapshot of the flight, a
--      sale per line, the bought flights out of the cart, and the payment linked to the order,
--      which only succeeds while the payment is still authorised and undecided.
--
-- The payment's lines, totals, customer and hold are read from its row (the quote recorded when
-- the checkout started), once, into arrays in flight id order (the order the rows are locked in);
-- every statement reaches the flights through `f.id = ANY (flight_ids)` (the primary key), so a
-- generic plan never scans the catalogue (023 migration). A refusal raises one of these SQLSTATEs,
-- so the statement and every write of it are rolled back; the caller maps them to
-- OrderRefusedError:
--   SKP01 no_stock       a flight is gone or short (with a hold: a held flight was deleted)
--   SKP02 price_changed  a flight's price is no longer the quoted one
--   SKP03 payment_moved  the payment changed state meanwhile (or does not exist)
--   SKP04 hold_expired   the seat hold is no longer active (released, expired, or bought)
-- Returns the linked payment row.
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Earlier definitions: 019 and 023 migrations.

CREATE OR REPLACE FUNCTION checkout_write_order(for_payment uuid, authorization_id text)
RETURNS SETOF payments
LANGUAGE plpgsql
-- Planned once per connection (decision 019 point 4): the plans do not depend on the values.
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  payment payments%ROWTYPE;
  line_count int;
  taken int;
  flight_ids uuid[];
  amounts int[];
  prices bigint[];
BEGIN
  SELECT * INTO payment FROM payments p WHERE p.id = for_payment;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'checkout_write_order: payment_moved' USING ERRCODE = 'SKP03';
  END IF;
  SELECT array_agg((e->>'flightId')::uuid ORDER BY (e->>'flightId')::uuid),
         array_agg((e->>'amount')::int ORDER BY (e->>'flightId')::uuid),
         array_agg((e->>'unitPriceCents')::bigint ORDER BY (e->>'flightId')::uuid)
  INTO flight_ids, amounts, prices
  FROM jsonb_array_elements(payment.lines) e;
  line_count := coalesce(cardinality(flight_ids), 0);

  PERFORM lock_partition(payment.user_id::text);
  PERFORM 1 FROM flights f WHERE f.id = ANY (flight_ids) ORDER BY f.id FOR NO KEY UPDATE;

  IF payment.hold_id IS NULL THEN
    UPDATE flights f SET tickets = f.tickets - l.amount, updated_at = now()
    FROM unnest(flight_ids, amounts, prices) AS l(id, amount, price)
    WHERE f.id = ANY (flight_ids) AND f.id = l.id
      AND NOT f.deleted AND f.tickets >= l.amount AND f.price_cents = l.price;
    GET DIAGNOSTICS taken = ROW_COUNT;
    IF taken <> line_count THEN
      -- Rows taken kept their quoted price, so a price that differs is a missing line's.
      IF EXISTS (
        SELECT 1 FROM flights f JOIN unnest(flight_ids, prices) AS l(id, price) ON l.id = f.id
        WHERE f.id = ANY (flight_ids) AND NOT f.deleted AND f.price_cents <> l.price
      ) THEN
        RAISE EXCEPTION 'checkout_write_order: price_changed' USING ERRCODE = 'SKP02';
      END IF;
      RAISE EXCEPTION 'checkout_write_order: no_stock' USING ERRCODE = 'SKP01';
    END IF;
  ELSE
    -- After the flights' rows, as every transaction moving a hold's seats (hold-queries.ts).
    UPDATE seat_holds h SET status = 'consumed', payment_id = payment.id
    WHERE h.id = payment.hold_id AND h.user_id = payment.user_id AND h.status = 'active';
    IF NOT FOUND THEN
      RAISE EXCEPTION 'checkout_write_order: hold_expired' USING ERRCODE = 'SKP04';
    END IF;
    SELECT count(*) INTO taken FROM flights f WHERE f.id = ANY (flight_ids) AND NOT f.deleted;
    IF taken <> line_count THEN
      RAISE EXCEPTION 'checkout_write_order: no_stock' USING ERRCODE = 'SKP01';
    END IF;
  END IF;

  RETURN QUERY
  WITH wanted AS (
    SELECT w.flight_id, w.amount, w.price
    FROM unnest(flight_ids, amounts, prices) AS w(flight_id, amount, price)
  ), new_order AS (
    INSERT INTO orders (user_id, payment_id, subtotal_cents, fee_cents, total_cents, status)
    VALUES (payment.user_id, authorization_id, payment.subtotal_cents, payment.fee_cents,
            payment.amount_cents, 'pending')
    RETURNING id
  ), new_lines AS (
    -- The §3 "moreinfo" snapshot of each flight as sold, at the quoted price.
    INSERT INTO order_lines (order_id, flight_id, airline_id, amount, unit_price_cents,
                             airline_name, origin, destination, departure_date, departure_hour,
                             arrival_hour)
    SELECT o.id, w.flight_id, f.airline_id, w.amount, w.price, f.airline_name, f.origin,
           f.destination, f.departure_date,
           -- To the minute, as the snapshot has always been taken (its wire form is HH:MM).
           to_char(f.departure_hour, 'HH24:MI')::time, to_char(f.arrival_hour, 'HH24:MI')::time
    FROM new_order o, wanted w JOIN flights f ON f.id = w.flight_id
    WHERE f.id = ANY (flight_ids)
    ORDER BY w.flight_id
    RETURNING id, airline_id, flight_id, unit_price_cents, amount
  ), new_sales AS (
    INSERT INTO sales (airline_id, flight_id, order_line_id, unit_price_cents, amount)
    SELECT l.airline_id, l.flight_id, l.id, l.unit_price_cents, l.amount FROM new_lines l
  ), cleared AS (
    UPDATE cart_lines c SET deleted = true, updated_at = now()
    WHERE c.user_id = payment.user_id AND c.flight_id = ANY (flight_ids)
      AND NOT c.deleted
  )
  UPDATE payments p SET status = 'authorized', provider_payment_id = authorization_id,
    order_id = o.id, updated_at = now()
  FROM new_order o
  WHERE p.id = payment.id AND p.status IN ('created', 'authorized') AND p.order_id IS NULL
    AND p.failure_code IS NULL
    AND (p.provider_payment_id IS NULL OR p.provider_payment_id = authorization_id)
  RETURNING p.*;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'checkout_write_order: payment_moved' USING ERRCODE = 'SKP03';
  END IF;
END
$$;
