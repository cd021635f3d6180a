-- Seat holds (issue 17, docs/decisions/013-seat-holds.md, docs/architecture.md §6): when a customer
-- starts paying, the cart's seats are taken out of the flights' stock into a hold that expires.
-- A hold takes its seats with the same guarded `tickets = tickets - n` as the order transaction,
-- so the stock every other customer sees (the replicated flight, the catalogue) is what is left
-- after holds, and the oversell guarantees are the ones the checkout already had. Its seats leave
-- it exactly once: bought (`consumed` by the order transaction of a payment against it) or given
-- back to the flights (`released`: it expired, its owner cancelled it, or a new hold of another
-- cart replaced it). Expired holds are released by a job that keeps no state of its own: the
-- rows below are the state, so a restart loses nothing.
--
--   active ──order transaction──▶ consumed
--      └──expired (release job) / DELETE by its owner / replaced──▶ released (seats back)

CREATE TABLE seat_holds (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id          uuid NOT NULL REFERENCES users (id),
  -- The Idempotency-Key of the request that created it: replaying it answers this hold as it is.
  idempotency_key  text,
  status           text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'consumed', 'released')),
  -- The server's quote when the seats were taken: what a payment against the hold charges.
  subtotal_cents   bigint NOT NULL CHECK (subtotal_cents >= 0),
  fee_cents        bigint NOT NULL CHECK (fee_cents >= 0),
  total_cents      bigint NOT NULL CHECK (total_cents = subtotal_cents + fee_cents),
  expires_at       timestamptz NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  -- Released: when and why ('expired', 'cancelled', 'replaced').
  released_at      timestamptz,
  release_reason   text,
  -- Consumed: the payment whose order bought the seats.
  payment_id       uuid REFERENCES payments (id),
  CHECK ((status = 'released') = (released_at IS NOT NULL)),
  CHECK ((status = 'consumed') = (payment_id IS NOT NULL))
);

CREATE UNIQUE INDEX seat_holds_user_key ON seat_holds (user_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
-- A customer holds one cart at a time: a new hold of another cart replaces the active one.
CREATE UNIQUE INDEX seat_holds_one_active ON seat_holds (user_id) WHERE status = 'active';
-- The release job's work list.
CREATE INDEX seat_holds_expiry_idx ON seat_holds (expires_at) WHERE status = 'active';

CREATE TABLE seat_hold_lines (
  hold_id           uuid NOT NULL REFERENCES seat_holds (id),
  flight_id         uuid NOT NULL REFERENCES flights (id),
  amount            integer NOT NULL CHECK (amount > 0),
  unit_price_cents  bigint NOT NULL CHECK (unit_price_cents >= 0),
  PRIMARY KEY (hold_id, flight_id)
);
-- Seats held on a flight (the share cap counts them).
CREATE INDEX seat_hold_lines_flight_idx ON seat_hold_lines (flight_id);

-- A checkout that pays against a hold: its order transaction consumes the hold instead of taking
-- stock (the hold took it already).
ALTER TABLE payments ADD COLUMN hold_id uuid REFERENCES seat_holds (id);
