-- Skyport's whole data model (spec §3) plus what identity, payments and sync need.
-- Money is stored in integer cents; dates as date, hours as time.
-- Replicated tables carry `revision` (server-assigned, see sync/) and a `deleted` tombstone flag.

CREATE SEQUENCE replication_revision;

CREATE TABLE users (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email           text NOT NULL,
  name            text,
  last_name       text,
  image           text,
  phone           text,
  -- The identity provider's uid (Firebase uid, or our own id for built-in accounts).
  uid             text NOT NULL UNIQUE DEFAULT gen_random_uuid()::text,
  role            text NOT NULL DEFAULT 'customer' CHECK (role IN ('customer', 'airline', 'super_admin')),
  -- Only airlines have a status: 'pending' until an administrator approves them.
  airline_status  text CHECK (airline_status IN ('pending', 'approved')),
  email_verified  boolean NOT NULL DEFAULT false,
  disabled        boolean NOT NULL DEFAULT false,
  password_hash   text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  -- A deleted user is anonymised and kept as a tombstone so that orders and reviews never dangle.
  deleted_at      timestamptz,
  CHECK ((role = 'airline') = (airline_status IS NOT NULL))
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE deleted_at IS NULL;

CREATE TABLE airlines (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name           text NOT NULL,
  owner_user_id  uuid REFERENCES users (id),
  image          text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  revision       bigint NOT NULL DEFAULT 0,
  deleted        boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX airlines_owner_key ON airlines (owner_user_id) WHERE NOT deleted;
CREATE INDEX airlines_revision_idx ON airlines (revision);

CREATE TABLE flights (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  airline_id          uuid NOT NULL REFERENCES airlines (id),
  -- Copied from airlines.name so that the catalogue can sort by airline without a join.
  airline_name        text NOT NULL,
  origin              text NOT NULL,
  destination         text NOT NULL,
  departure_date      date NOT NULL,
  departure_hour      time NOT NULL,
  arrival_date        date NOT NULL,
  arrival_hour        time NOT NULL,
  duration_estimated  text NOT NULL CHECK (duration_estimated ~ '^[0-9]{2}:[0-5][0-9]$'),
  price_cents         bigint NOT NULL CHECK (price_cents >= 100),
  tickets             integer NOT NULL CHECK (tickets >= 0),
  logo                text NOT NULL DEFAULT '',
  description         text NOT NULL DEFAULT '',
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  revision            bigint NOT NULL DEFAULT 0,
  deleted             boolean NOT NULL DEFAULT false,
  CHECK (origin <> destination),
  CHECK (arrival_date >= departure_date)
);
-- The public catalogue only lists flights with stock that are not deleted: partial indexes
-- matching each sort order and filter of the home screen.
CREATE INDEX flights_listed_price_idx ON flights (price_cents, id) WHERE tickets > 0 AND NOT deleted;
CREATE INDEX flights_listed_airline_name_idx ON flights (airline_name, id) WHERE tickets > 0 AND NOT deleted;
CREATE INDEX flights_listed_tickets_idx ON flights (tickets, id) WHERE tickets > 0 AND NOT deleted;
CREATE INDEX flights_listed_airline_idx ON flights (airline_id, price_cents) WHERE tickets > 0 AND NOT deleted;
CREATE INDEX flights_listed_origin_idx ON flights (lower(origin) text_pattern_ops) WHERE tickets > 0 AND NOT deleted;
CREATE INDEX flights_listed_destination_idx ON flights (lower(destination) text_pattern_ops) WHERE tickets > 0 AND NOT deleted;
CREATE INDEX flights_listed_created_idx ON flights (created_at, id) WHERE tickets > 0 AND NOT deleted;
CREATE INDEX flights_airline_idx ON flights (airline_id);
CREATE INDEX flights_revision_idx ON flights (revision);

CREATE TABLE orders (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id          uuid NOT NULL REFERENCES users (id),
  -- The captured payment's id at the provider (spec: idpurchase).
  payment_id       text NOT NULL,
  subtotal_cents   bigint NOT NULL CHECK (subtotal_cents > 0),
  fee_cents        bigint NOT NULL CHECK (fee_cents >= 0),
  total_cents      bigint NOT NULL CHECK (total_cents = subtotal_cents + fee_cents),
  created_at       timestamptz NOT NULL DEFAULT now(),
  revision         bigint NOT NULL DEFAULT 0,
  deleted          boolean NOT NULL DEFAULT false
);
CREATE INDEX orders_user_idx ON orders (user_id, created_at);
CREATE INDEX orders_revision_idx ON orders (revision);

CREATE TABLE order_lines (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id          uuid NOT NULL REFERENCES orders (id),
  flight_id         uuid NOT NULL REFERENCES flights (id),
  airline_id        uuid NOT NULL REFERENCES airlines (id),
  amount            integer NOT NULL CHECK (amount > 0),
  unit_price_cents  bigint NOT NULL CHECK (unit_price_cents > 0),
  reviewed          boolean NOT NULL DEFAULT false,
  -- Snapshot of the flight at purchase (spec §3 "moreinfo"), kept if the flight changes later.
  airline_name      text NOT NULL,
  origin            text NOT NULL,
  destination       text NOT NULL,
  departure_hour    time NOT NULL,
  arrival_hour      time NOT NULL
);
CREATE INDEX order_lines_order_idx ON order_lines (order_id);
CREATE INDEX order_lines_flight_idx ON order_lines (flight_id);

CREATE TABLE sales (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  airline_id        uuid NOT NULL REFERENCES airlines (id),
  flight_id         uuid NOT NULL REFERENCES flights (id),
  order_line_id     uuid NOT NULL UNIQUE REFERENCES order_lines (id),
  unit_price_cents  bigint NOT NULL CHECK (unit_price_cents > 0),
  amount            integer NOT NULL CHECK (amount > 0),
  created_at        timestamptz NOT NULL DEFAULT now(),
  revision          bigint NOT NULL DEFAULT 0,
  deleted           boolean NOT NULL DEFAULT false
);
CREATE INDEX sales_airline_idx ON sales (airline_id, created_at);
CREATE INDEX sales_revision_idx ON sales (revision);

CREATE TABLE reviews (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid REFERENCES users (id),
  order_id    uuid REFERENCES orders (id),
  flight_id   uuid NOT NULL REFERENCES flights (id),
  airline_id  uuid NOT NULL REFERENCES airlines (id),
  rating      smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  name        text NOT NULL,
  comment     text NOT NULL,
  -- Spec §3: list of {flightName, origin, destination}.
  more_info   jsonb NOT NULL DEFAULT '[]',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  revision    bigint NOT NULL DEFAULT 0,
  deleted     boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX reviews_order_flight_key ON reviews (order_id, flight_id) WHERE order_id IS NOT NULL;
CREATE INDEX reviews_airline_idx ON reviews (airline_id, created_at);
CREATE INDEX reviews_flight_idx ON reviews (flight_id);
CREATE INDEX reviews_revision_idx ON reviews (revision);

CREATE TABLE favourites (
  user_id     uuid NOT NULL REFERENCES users (id),
  flight_id   uuid NOT NULL REFERENCES flights (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  revision    bigint NOT NULL DEFAULT 0,
  deleted     boolean NOT NULL DEFAULT false,
  PRIMARY KEY (user_id, flight_id)
);
CREATE INDEX favourites_revision_idx ON favourites (user_id, revision);

CREATE TABLE cart_lines (
  user_id     uuid NOT NULL REFERENCES users (id),
  flight_id   uuid NOT NULL REFERENCES flights (id),
  amount      integer NOT NULL CHECK (amount > 0),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  revision    bigint NOT NULL DEFAULT 0,
  deleted     boolean NOT NULL DEFAULT false,
  PRIMARY KEY (user_id, flight_id)
);
CREATE INDEX cart_lines_revision_idx ON cart_lines (user_id, revision);

CREATE TABLE preferences (
  user_id     uuid PRIMARY KEY REFERENCES users (id),
  theme       text NOT NULL DEFAULT 'system' CHECK (theme IN ('light', 'dark', 'system')),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  revision    bigint NOT NULL DEFAULT 0,
  deleted     boolean NOT NULL DEFAULT false
);

CREATE TABLE review_drafts (
  id          uuid PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users (id),
  order_id    uuid NOT NULL,
  flight_id   uuid NOT NULL,
  rating      smallint,
  name        text NOT NULL DEFAULT '',
  comment     text NOT NULL DEFAULT '',
  status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected')),
  reason      text,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  revision    bigint NOT NULL DEFAULT 0,
  deleted     boolean NOT NULL DEFAULT false
);
CREATE INDEX review_drafts_revision_idx ON review_drafts (user_id, revision);

-- Identity ----------------------------------------------------------------------------------

CREATE TABLE sessions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- SHA-256 of the random session token; the token itself is never stored.
  token_hash    bytea NOT NULL UNIQUE,
  user_id       uuid NOT NULL REFERENCES users (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  user_agent    text,
  ip            text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE auth_tokens (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES users (id),
  purpose     text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  token_hash  bytea NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX auth_tokens_user_idx ON auth_tokens (user_id, purpose);

-- Fixed-window counters shared by every server instance (login rate limiting).
CREATE TABLE rate_limits (
  key           text PRIMARY KEY,
  window_start  timestamptz NOT NULL,
  hits          integer NOT NULL
);

CREATE TABLE email_outbox (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  to_address  text NOT NULL,
  subject     text NOT NULL,
  text_body   text NOT NULL,
  html_body   text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Payments ----------------------------------------------------------------------------------

CREATE TABLE payments (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id              uuid NOT NULL REFERENCES users (id),
  provider             text NOT NULL,
  provider_payment_id  text,
  idempotency_key      text NOT NULL,
  amount_cents         bigint NOT NULL CHECK (amount_cents > 0),
  status               text NOT NULL CHECK (status IN ('created', 'authorized', 'captured', 'released', 'failed')),
  failure_code         text,
  order_id             uuid REFERENCES orders (id),
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, idempotency_key)
);

-- Webhook events already handled, so a redelivered event is applied once.
CREATE TABLE payment_events (
  provider     text NOT NULL,
  event_id     text NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
