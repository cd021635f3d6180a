-- The schema as migrations 001 to 025 left it, in one file (decision 036): the tables, their
-- constraints and indexes, the one sequence and the one view, as `pg_dump --schema-only` printed
-- them, table by table, with the comments those migrations had put above them. Numbers in the
-- comments (002, 011…) name the squashed migrations: read them, and why each change was made, in
-- git at commit 05c9caf (`git show 05c9caf:sync-server/src/db/migrations/011_catalog_counts.sql`).
--
-- Not here: the functions and triggers, which functions/ defines and db/migrate.ts applies after
-- this file (decision 033), and the index on catalog_flight_minutes(), which needs that function
-- and lives beside it. A database that ran 001 to 025 already has all of this: migrate.ts records
-- this file as applied there without running it.
--
-- Like every versioned migration, this file is never edited once applied; changes go in a new
-- file with the next number.

CREATE TABLE airlines (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text NOT NULL,
    owner_user_id uuid,
    image text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    revision bigint DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    txid bigint DEFAULT 0 NOT NULL
);
ALTER TABLE airlines ADD CONSTRAINT airlines_pkey PRIMARY KEY (id);
CREATE UNIQUE INDEX airlines_owner_key ON airlines USING btree (owner_user_id) WHERE (NOT deleted);
-- Pulls read positions in order: (txid, revision), within a partition where there is one.
CREATE INDEX airlines_position_idx ON airlines USING btree (txid, revision);
CREATE INDEX airlines_revision_idx ON airlines USING btree (revision);

CREATE TABLE auth_tokens (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    purpose text NOT NULL,
    token_hash bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT auth_tokens_purpose_check CHECK ((purpose = ANY (ARRAY['verify_email'::text, 'reset_password'::text])))
);
ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_pkey PRIMARY KEY (id);
ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_token_hash_key UNIQUE (token_hash);
CREATE INDEX auth_tokens_expires_idx ON auth_tokens USING btree (expires_at);
CREATE INDEX auth_tokens_user_idx ON auth_tokens USING btree (user_id, purpose);

CREATE TABLE cart_lines (
    user_id uuid NOT NULL,
    flight_id uuid NOT NULL,
    amount integer NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    revision bigint DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    txid bigint DEFAULT 0 NOT NULL,
    CONSTRAINT cart_lines_amount_check CHECK ((amount > 0))
);
ALTER TABLE cart_lines ADD CONSTRAINT cart_lines_pkey PRIMARY KEY (user_id, flight_id);
CREATE INDEX cart_lines_flight_idx ON cart_lines USING btree (flight_id) WHERE (NOT deleted);
CREATE INDEX cart_lines_position_idx ON cart_lines USING btree (user_id, txid, revision);

-- Listed flights per airline, one column per price band (catalog_price_band, 002): the total of
-- every listing page (the home page, the band and airline filters). One row per airline, so the
-- unfiltered total reads one small heap page.
CREATE TABLE catalog_airline_counts (
    airline_id uuid NOT NULL,
    low integer DEFAULT 0 NOT NULL,
    mid integer DEFAULT 0 NOT NULL,
    high integer DEFAULT 0 NOT NULL
);
ALTER TABLE catalog_airline_counts ADD CONSTRAINT catalog_airline_counts_pkey PRIMARY KEY (airline_id);

-- Listed flights per place, for searches, one column per price band. A row's grouping is given
-- by which keys are set (NULL: any):
--   (origin), (destination)          a search on one place, and the "either" level of two
--   (origin, destination)            a search on both places
--   (airline, origin), (airline, destination), (airline, origin, destination)
--                                    the same searches with the airline filter
-- Place keys are lower(origin) / lower(destination), the text a search prefix is compared with,
-- in the "C" collation so that `>=` / `<` on them are the byte-order ranges queries.ts uses for
-- prefixes. Rows that drop to zero stay (a flight coming back reuses them).
CREATE TABLE catalog_place_counts (
    airline_id uuid,
    origin_key text COLLATE pg_catalog."C",
    destination_key text COLLATE pg_catalog."C",
    low integer DEFAULT 0 NOT NULL,
    mid integer DEFAULT 0 NOT NULL,
    high integer DEFAULT 0 NOT NULL,
    CONSTRAINT catalog_place_counts_check CHECK (((origin_key IS NOT NULL) OR (destination_key IS NOT NULL)))
);
ALTER TABLE catalog_place_counts ADD CONSTRAINT catalog_place_counts_key UNIQUE NULLS NOT DISTINCT (airline_id, origin_key, destination_key) INCLUDE (low, mid, high);
CREATE INDEX catalog_place_counts_airline_destination_idx ON catalog_place_counts USING btree (airline_id, destination_key) INCLUDE (low, mid, high) WHERE ((airline_id IS NOT NULL) AND (origin_key IS NULL) AND (destination_key IS NOT NULL));
CREATE INDEX catalog_place_counts_airline_origin_idx ON catalog_place_counts USING btree (airline_id, origin_key) INCLUDE (low, mid, high) WHERE ((airline_id IS NOT NULL) AND (origin_key IS NOT NULL) AND (destination_key IS NULL));
CREATE INDEX catalog_place_counts_destination_idx ON catalog_place_counts USING btree (destination_key) INCLUDE (low, mid, high) WHERE ((airline_id IS NULL) AND (origin_key IS NULL));
-- One index per grouping, each covering the counters, so that every sum of queries.ts is an
-- index-only range over its own grouping. (airline, origin, destination) uses the key's index.
CREATE INDEX catalog_place_counts_origin_idx ON catalog_place_counts USING btree (origin_key) INCLUDE (low, mid, high) WHERE ((airline_id IS NULL) AND (destination_key IS NULL));
CREATE INDEX catalog_place_counts_route_idx ON catalog_place_counts USING btree (origin_key, destination_key) INCLUDE (low, mid, high) WHERE ((airline_id IS NULL) AND (origin_key IS NOT NULL) AND (destination_key IS NOT NULL));

-- The catalogue's revision is max(flights.revision) (every insert and update of a flight draws a
-- new one, 004), except that a hard DELETE draws none; it raises this floor instead, in the same
-- transaction. Flights are tombstoned, not deleted, by the product: only tests and manual clean-ups
-- delete, so this row is never contended in practice.
CREATE TABLE catalog_revision_floor (
    only_row boolean DEFAULT true NOT NULL,
    revision bigint NOT NULL,
    CONSTRAINT catalog_revision_floor_only_row_check CHECK (only_row)
);
ALTER TABLE catalog_revision_floor ADD CONSTRAINT catalog_revision_floor_pkey PRIMARY KEY (only_row);

CREATE TABLE email_outbox (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    to_address text NOT NULL,
    subject text NOT NULL,
    text_body text NOT NULL,
    html_body text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_pkey PRIMARY KEY (id);
-- The development outbox is read newest first, optionally for one address.
CREATE INDEX email_outbox_to_idx ON email_outbox USING btree (lower(to_address), created_at DESC);

CREATE TABLE favourites (
    user_id uuid NOT NULL,
    flight_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    revision bigint DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    txid bigint DEFAULT 0 NOT NULL
);
ALTER TABLE favourites ADD CONSTRAINT favourites_pkey PRIMARY KEY (user_id, flight_id);
CREATE INDEX favourites_flight_idx ON favourites USING btree (flight_id) WHERE (NOT deleted);
CREATE INDEX favourites_position_idx ON favourites USING btree (user_id, txid, revision);

CREATE TABLE flights (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    airline_id uuid NOT NULL,
    airline_name text NOT NULL,
    origin text NOT NULL,
    destination text NOT NULL,
    departure_date date NOT NULL,
    departure_hour time without time zone NOT NULL,
    arrival_date date NOT NULL,
    arrival_hour time without time zone NOT NULL,
    duration_estimated text NOT NULL,
    price_cents bigint NOT NULL,
    tickets integer NOT NULL,
    logo text DEFAULT ''::text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    created_at timestamp(3) with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    revision bigint DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    txid bigint DEFAULT 0 NOT NULL,
    CONSTRAINT flights_check CHECK ((origin <> destination)),
    CONSTRAINT flights_check1 CHECK ((arrival_date >= departure_date)),
    CONSTRAINT flights_duration_estimated_check CHECK ((duration_estimated ~ '^[0-9]{2}:[0-5][0-9]$'::text)),
    CONSTRAINT flights_price_cents_check CHECK ((price_cents >= 100)),
    CONSTRAINT flights_tickets_check CHECK ((tickets >= 0))
)
WITH (autovacuum_vacuum_scale_factor='0.02', autovacuum_vacuum_insert_scale_factor='0.02');
ALTER TABLE flights ADD CONSTRAINT flights_pkey PRIMARY KEY (id);
CREATE INDEX flights_airline_idx ON flights USING btree (airline_id);
-- Airline A→Z and Z→A: lower-case name by code point ("C"), as the shared rule compares it. The
-- name itself is included: PostgreSQL 15 only scans an expression index index-only when the
-- expression's columns are in it.
CREATE INDEX flights_catalog_airline_asc_idx ON flights USING btree (lower(airline_name) COLLATE "C", id) INCLUDE (airline_id, price_cents, airline_name) WHERE ((tickets > 0) AND (NOT deleted));
CREATE INDEX flights_catalog_airline_desc_idx ON flights USING btree (lower(airline_name) COLLATE "C" DESC, id) INCLUDE (airline_id, price_cents, airline_name) WHERE ((tickets > 0) AND (NOT deleted));
-- One airline's flights (in a band), with every sort column: the page of an airline sorted by
-- airline name sorts these instead of walking the name index to wherever that airline sits.
CREATE INDEX flights_catalog_airline_idx ON flights USING btree (airline_id, price_cents) INCLUDE (id, created_at, tickets, airline_name) WHERE ((tickets > 0) AND (NOT deleted));
-- "initial" order.
CREATE INDEX flights_catalog_created_idx ON flights USING btree (created_at, id) INCLUDE (airline_id, price_cents) WHERE ((tickets > 0) AND (NOT deleted));
-- A departure range: its listed flights are one range of this index, which carries every column a
-- dated page filters, sorts or groups by (airline, price, places, every order's key), so that the
-- range is read from the index alone, counted, grouped by day and sorted. A home-screen range is a
-- week at most: ~2,000 of 100,000 flights spread over a year.
CREATE INDEX flights_catalog_departure_idx ON flights USING btree (departure_date) INCLUDE (id, airline_id, price_cents, tickets, created_at, airline_name, origin, destination, departure_hour, arrival_date, arrival_hour) WHERE ((tickets > 0) AND (NOT deleted));
CREATE INDEX flights_catalog_destination_idx ON flights USING btree (lower(destination) text_pattern_ops) INCLUDE (destination, origin, id, airline_id, price_cents, tickets, created_at, airline_name) WHERE ((tickets > 0) AND (NOT deleted));
-- Price low→high and high→low; also the price band alone (a range on the key).
CREATE INDEX flights_catalog_price_asc_idx ON flights USING btree (price_cents, id) INCLUDE (airline_id) WHERE ((tickets > 0) AND (NOT deleted));
CREATE INDEX flights_catalog_price_desc_idx ON flights USING btree (price_cents DESC, id) INCLUDE (airline_id) WHERE ((tickets > 0) AND (NOT deleted));
-- Origin/destination search: case-insensitive prefix ranges (`~>=~` / `~<~`, byte order, which
-- the planner matches with parameters, also in generic plans, unlike LIKE $1). The route index
-- serves "origin" and "origin and destination", the destination index "destination". Both include
-- the searched columns themselves (for index-only scans, as above) and every column a search page
-- filters or sorts by, so a search is answered from these indexes alone.
CREATE INDEX flights_catalog_route_idx ON flights USING btree (lower(origin) text_pattern_ops, lower(destination) text_pattern_ops) INCLUDE (origin, destination, id, airline_id, price_cents, tickets, created_at, airline_name) WHERE ((tickets > 0) AND (NOT deleted));
-- Availability low→high and high→low.
CREATE INDEX flights_catalog_tickets_asc_idx ON flights USING btree (tickets, id) INCLUDE (airline_id, price_cents) WHERE ((tickets > 0) AND (NOT deleted));
CREATE INDEX flights_catalog_tickets_desc_idx ON flights USING btree (tickets DESC, id) INCLUDE (airline_id, price_cents) WHERE ((tickets > 0) AND (NOT deleted));
CREATE INDEX flights_position_idx ON flights USING btree (txid, revision);
CREATE INDEX flights_revision_idx ON flights USING btree (revision);

-- Login device cookies (issue 14, item 7; docs/decisions/002-identity-on-primitives.md).
-- A browser or API client that logged in successfully gets a random device token (cookie
-- `skyport_device`); only its SHA-256 is kept here, bound to the account. A login attempt that
-- presents a live device token of that account is counted against that device's own limit
-- (`rate_limits` key `login:device:<id>`), never against the account-wide limit for untrusted
-- clients, so a stranger's wrong-password flood cannot lock the owner out of a known device.
CREATE TABLE login_devices (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    token_hash bytea NOT NULL,
    user_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL
);
ALTER TABLE login_devices ADD CONSTRAINT login_devices_pkey PRIMARY KEY (id);
ALTER TABLE login_devices ADD CONSTRAINT login_devices_token_hash_key UNIQUE (token_hash);
CREATE INDEX login_devices_expires_idx ON login_devices USING btree (expires_at);
-- Per-user housekeeping (expired rows, the cap on devices per account) and the expiry sweep.
CREATE INDEX login_devices_user_idx ON login_devices USING btree (user_id, created_at);

CREATE TABLE order_lines (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    order_id uuid NOT NULL,
    flight_id uuid NOT NULL,
    airline_id uuid NOT NULL,
    amount integer NOT NULL,
    unit_price_cents bigint NOT NULL,
    reviewed boolean DEFAULT false NOT NULL,
    airline_name text NOT NULL,
    origin text NOT NULL,
    destination text NOT NULL,
    departure_hour time without time zone NOT NULL,
    arrival_hour time without time zone NOT NULL,
    departure_date date NOT NULL,
    CONSTRAINT order_lines_amount_check CHECK ((amount > 0)),
    CONSTRAINT order_lines_unit_price_cents_check CHECK ((unit_price_cents > 0))
);
ALTER TABLE order_lines ADD CONSTRAINT order_lines_pkey PRIMARY KEY (id);
CREATE INDEX order_lines_flight_idx ON order_lines USING btree (flight_id);
CREATE INDEX order_lines_order_idx ON order_lines USING btree (order_id);

CREATE TABLE orders (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    payment_id text NOT NULL,
    subtotal_cents bigint NOT NULL,
    fee_cents bigint NOT NULL,
    total_cents bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    revision bigint DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    status text DEFAULT 'confirmed'::text NOT NULL,
    txid bigint DEFAULT 0 NOT NULL,
    CONSTRAINT orders_check CHECK ((total_cents = (subtotal_cents + fee_cents))),
    CONSTRAINT orders_fee_cents_check CHECK ((fee_cents >= 0)),
    CONSTRAINT orders_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'confirmed'::text, 'cancelled'::text]))),
    CONSTRAINT orders_subtotal_cents_check CHECK ((subtotal_cents > 0))
);
ALTER TABLE orders ADD CONSTRAINT orders_pkey PRIMARY KEY (id);
CREATE INDEX orders_pending_idx ON orders USING btree (created_at) WHERE (status = 'pending'::text);
CREATE INDEX orders_position_idx ON orders USING btree (user_id, txid, revision);
CREATE INDEX orders_revision_idx ON orders USING btree (revision);
CREATE INDEX orders_user_idx ON orders USING btree (user_id, created_at);

-- Webhook events already handled, so a redelivered event is applied once.
CREATE TABLE payment_events (
    provider text NOT NULL,
    event_id text NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE payment_events ADD CONSTRAINT payment_events_pkey PRIMARY KEY (provider, event_id);

CREATE TABLE payments (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    provider text NOT NULL,
    provider_payment_id text,
    idempotency_key text NOT NULL,
    amount_cents bigint NOT NULL,
    status text NOT NULL,
    failure_code text,
    order_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    method text DEFAULT 'card'::text NOT NULL,
    payment_method text,
    provider_order_id text,
    approval_url text,
    request_hash text DEFAULT ''::text NOT NULL,
    lines jsonb DEFAULT '[]'::jsonb NOT NULL,
    subtotal_cents bigint,
    fee_cents bigint,
    receipt_email text,
    failure_message text,
    locked_until timestamp with time zone DEFAULT now() NOT NULL,
    captured_at timestamp with time zone,
    hold_id uuid,
    CONSTRAINT payments_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT payments_method_check CHECK ((method = ANY (ARRAY['card'::text, 'wallet'::text]))),
    CONSTRAINT payments_status_check CHECK ((status = ANY (ARRAY['created'::text, 'approval_pending'::text, 'authorized'::text, 'captured'::text, 'released'::text, 'failed'::text]))),
    CONSTRAINT payments_totals_check CHECK (((subtotal_cents IS NULL) OR ((fee_cents IS NOT NULL) AND (amount_cents = (subtotal_cents + fee_cents)))))
);
ALTER TABLE payments ADD CONSTRAINT payments_pkey PRIMARY KEY (id);
ALTER TABLE payments ADD CONSTRAINT payments_user_id_idempotency_key_key UNIQUE (user_id, idempotency_key);
-- The reconciler's work list: checkouts that have not reached a final state.
CREATE INDEX payments_open_idx ON payments USING btree (updated_at) WHERE (status = ANY (ARRAY['created'::text, 'approval_pending'::text, 'authorized'::text]));
-- One payment per order, and one row per provider payment (webhooks find the row by it).
CREATE UNIQUE INDEX payments_order_key ON payments USING btree (order_id) WHERE (order_id IS NOT NULL);
CREATE UNIQUE INDEX payments_provider_payment_key ON payments USING btree (provider, provider_payment_id) WHERE (provider_payment_id IS NOT NULL);

CREATE TABLE preferences (
    user_id uuid NOT NULL,
    theme text DEFAULT 'system'::text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    revision bigint DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    txid bigint DEFAULT 0 NOT NULL,
    CONSTRAINT preferences_theme_check CHECK ((theme = ANY (ARRAY['light'::text, 'dark'::text, 'system'::text])))
);
ALTER TABLE preferences ADD CONSTRAINT preferences_pkey PRIMARY KEY (user_id);
CREATE INDEX preferences_position_idx ON preferences USING btree (user_id, txid, revision);

-- Fixed-window counters shared by every server instance (login rate limiting).
CREATE TABLE rate_limits (
    key text NOT NULL,
    window_start timestamp with time zone NOT NULL,
    hits integer NOT NULL
);
ALTER TABLE rate_limits ADD CONSTRAINT rate_limits_pkey PRIMARY KEY (key);
CREATE INDEX rate_limits_window_idx ON rate_limits USING btree (window_start);

CREATE TABLE review_drafts (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    order_id uuid NOT NULL,
    flight_id uuid NOT NULL,
    rating smallint,
    name text DEFAULT ''::text NOT NULL,
    comment text DEFAULT ''::text NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    reason text,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    revision bigint DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    txid bigint DEFAULT 0 NOT NULL,
    CONSTRAINT review_drafts_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'accepted'::text, 'rejected'::text])))
);
ALTER TABLE review_drafts ADD CONSTRAINT review_drafts_pkey PRIMARY KEY (id);
CREATE INDEX review_drafts_position_idx ON review_drafts USING btree (user_id, txid, revision);

CREATE TABLE reviews (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid,
    order_id uuid,
    flight_id uuid NOT NULL,
    airline_id uuid NOT NULL,
    rating smallint NOT NULL,
    name text NOT NULL,
    comment text NOT NULL,
    more_info jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    revision bigint DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    txid bigint DEFAULT 0 NOT NULL,
    CONSTRAINT reviews_rating_check CHECK (((rating >= 1) AND (rating <= 5)))
);
ALTER TABLE reviews ADD CONSTRAINT reviews_pkey PRIMARY KEY (id);
CREATE INDEX reviews_airline_idx ON reviews USING btree (airline_id, created_at);
CREATE INDEX reviews_flight_idx ON reviews USING btree (flight_id);
CREATE UNIQUE INDEX reviews_order_flight_key ON reviews USING btree (order_id, flight_id) WHERE (order_id IS NOT NULL);
CREATE INDEX reviews_position_idx ON reviews USING btree (txid, revision);
CREATE INDEX reviews_revision_idx ON reviews USING btree (revision);

CREATE TABLE sales (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    airline_id uuid NOT NULL,
    flight_id uuid NOT NULL,
    order_line_id uuid NOT NULL,
    unit_price_cents bigint NOT NULL,
    amount integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    revision bigint DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    txid bigint DEFAULT 0 NOT NULL,
    CONSTRAINT sales_amount_check CHECK ((amount > 0)),
    CONSTRAINT sales_unit_price_cents_check CHECK ((unit_price_cents > 0))
);
ALTER TABLE sales ADD CONSTRAINT sales_order_line_id_key UNIQUE (order_line_id);
ALTER TABLE sales ADD CONSTRAINT sales_pkey PRIMARY KEY (id);
CREATE INDEX sales_airline_idx ON sales USING btree (airline_id, created_at);
-- Sales charts read an airline's sales by month.
CREATE INDEX sales_flight_idx ON sales USING btree (flight_id);
CREATE INDEX sales_order_line_idx ON sales USING btree (order_line_id);
CREATE INDEX sales_position_idx ON sales USING btree (airline_id, txid, revision);
CREATE INDEX sales_revision_idx ON sales USING btree (revision);

CREATE TABLE seat_hold_lines (
    hold_id uuid NOT NULL,
    flight_id uuid NOT NULL,
    amount integer NOT NULL,
    unit_price_cents bigint NOT NULL,
    CONSTRAINT seat_hold_lines_amount_check CHECK ((amount > 0)),
    CONSTRAINT seat_hold_lines_unit_price_cents_check CHECK ((unit_price_cents >= 0))
);
ALTER TABLE seat_hold_lines ADD CONSTRAINT seat_hold_lines_pkey PRIMARY KEY (hold_id, flight_id);
-- Seats held on a flight (the share cap counts them).
CREATE INDEX seat_hold_lines_flight_idx ON seat_hold_lines USING btree (flight_id);

CREATE TABLE seat_holds (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    idempotency_key text,
    status text DEFAULT 'active'::text NOT NULL,
    subtotal_cents bigint NOT NULL,
    fee_cents bigint NOT NULL,
    total_cents bigint NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    released_at timestamp with time zone,
    release_reason text,
    payment_id uuid,
    CONSTRAINT seat_holds_check CHECK ((total_cents = (subtotal_cents + fee_cents))),
    CONSTRAINT seat_holds_check1 CHECK (((status = 'released'::text) = (released_at IS NOT NULL))),
    CONSTRAINT seat_holds_check2 CHECK (((status = 'consumed'::text) = (payment_id IS NOT NULL))),
    CONSTRAINT seat_holds_fee_cents_check CHECK ((fee_cents >= 0)),
    CONSTRAINT seat_holds_status_check CHECK ((status = ANY (ARRAY['active'::text, 'consumed'::text, 'released'::text]))),
    CONSTRAINT seat_holds_subtotal_cents_check CHECK ((subtotal_cents >= 0))
);
ALTER TABLE seat_holds ADD CONSTRAINT seat_holds_pkey PRIMARY KEY (id);
-- The release job's work list.
CREATE INDEX seat_holds_expiry_idx ON seat_holds USING btree (expires_at) WHERE (status = 'active'::text);
-- A customer holds one cart at a time: a new hold of another cart replaces the active one.
CREATE UNIQUE INDEX seat_holds_one_active ON seat_holds USING btree (user_id) WHERE (status = 'active'::text);
CREATE UNIQUE INDEX seat_holds_user_key ON seat_holds USING btree (user_id, idempotency_key) WHERE (idempotency_key IS NOT NULL);

CREATE TABLE sessions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    token_hash bytea NOT NULL,
    user_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    user_agent text,
    ip text
);
ALTER TABLE sessions ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);
ALTER TABLE sessions ADD CONSTRAINT sessions_token_hash_key UNIQUE (token_hash);
-- Expired sessions and tokens are deleted by expiry; rate-limit windows by their start.
CREATE INDEX sessions_expires_idx ON sessions USING btree (expires_at);
CREATE INDEX sessions_user_idx ON sessions USING btree (user_id);

-- The signing keys. One is current (retired_at NULL); rotation retires it and adds a new one in
-- one transaction. A retired key keeps verifying: it stays in the published key set while any
-- ticket it signed has not expired (sync-server/src/features/tickets/queries.ts).
CREATE TABLE ticket_signing_keys (
    kid text NOT NULL,
    public_jwk jsonb NOT NULL,
    private_key text NOT NULL,
    private_key_encrypted boolean NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    retired_at timestamp with time zone,
    CONSTRAINT ticket_signing_keys_check CHECK (((retired_at IS NULL) OR (retired_at >= created_at)))
);
ALTER TABLE ticket_signing_keys ADD CONSTRAINT ticket_signing_keys_pkey PRIMARY KEY (kid);
-- At most one current key, whatever several instances starting at once (or rotating at once) do:
-- the second insert of a first key finds the first one's and does nothing.
CREATE UNIQUE INDEX ticket_signing_keys_one_current ON ticket_signing_keys USING btree ((true)) WHERE (retired_at IS NULL);

-- The issued tickets, one per order line, stored as signed so that a ticket never changes (the
-- orders document carries `token`, sync-server/src/sync/documents.ts). `status` is the server's
-- word on it: `void` once its order is cancelled (trigger below).
CREATE TABLE tickets (
    id uuid NOT NULL,
    order_line_id uuid NOT NULL,
    order_id uuid NOT NULL,
    kid text NOT NULL,
    token text NOT NULL,
    status text DEFAULT 'valid'::text NOT NULL,
    issued_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    voided_at timestamp with time zone,
    CONSTRAINT tickets_check CHECK (((status = 'void'::text) = (voided_at IS NOT NULL))),
    CONSTRAINT tickets_status_check CHECK ((status = ANY (ARRAY['valid'::text, 'void'::text])))
);
ALTER TABLE tickets ADD CONSTRAINT tickets_order_line_id_key UNIQUE (order_line_id);
ALTER TABLE tickets ADD CONSTRAINT tickets_pkey PRIMARY KEY (id);
-- The key set: which retired keys still signed an unexpired ticket.
CREATE INDEX tickets_kid_expiry_idx ON tickets USING btree (kid, expires_at);
CREATE INDEX tickets_order_idx ON tickets USING btree (order_id);

CREATE TABLE users (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    email text NOT NULL,
    name text,
    last_name text,
    image text,
    phone text,
    uid text DEFAULT (gen_random_uuid())::text NOT NULL,
    role text DEFAULT 'customer'::text NOT NULL,
    airline_status text,
    email_verified boolean DEFAULT false NOT NULL,
    disabled boolean DEFAULT false NOT NULL,
    password_hash text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    CONSTRAINT users_airline_status_check CHECK ((airline_status = ANY (ARRAY['pending'::text, 'approved'::text]))),
    CONSTRAINT users_check CHECK (((role = 'airline'::text) = (airline_status IS NOT NULL))),
    CONSTRAINT users_role_check CHECK ((role = ANY (ARRAY['customer'::text, 'airline'::text, 'super_admin'::text])))
);
ALTER TABLE users ADD CONSTRAINT users_pkey PRIMARY KEY (id);
ALTER TABLE users ADD CONSTRAINT users_uid_key UNIQUE (uid);
CREATE UNIQUE INDEX users_email_key ON users USING btree (lower(email)) WHERE (deleted_at IS NULL);
-- Admin lists filter by role and airline status among live accounts.
CREATE INDEX users_role_idx ON users USING btree (role, airline_status, created_at) WHERE (deleted_at IS NULL);

-- 002's table, as it was read: listed flights per airline and band.
CREATE VIEW catalog_listing_counts AS
 SELECT c.airline_id,
    b.price_band,
    b.listed
   FROM (catalog_airline_counts c
     CROSS JOIN LATERAL ( VALUES ('low'::text,c.low), ('mid'::text,c.mid), ('high'::text,c.high)) b(price_band, listed));
CREATE SEQUENCE replication_revision
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER TABLE airlines ADD CONSTRAINT airlines_owner_user_id_fkey FOREIGN KEY (owner_user_id) REFERENCES users(id);
ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);
ALTER TABLE cart_lines ADD CONSTRAINT cart_lines_flight_id_fkey FOREIGN KEY (flight_id) REFERENCES flights(id);
ALTER TABLE cart_lines ADD CONSTRAINT cart_lines_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);
ALTER TABLE favourites ADD CONSTRAINT favourites_flight_id_fkey FOREIGN KEY (flight_id) REFERENCES flights(id);
ALTER TABLE favourites ADD CONSTRAINT favourites_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);
ALTER TABLE flights ADD CONSTRAINT flights_airline_id_fkey FOREIGN KEY (airline_id) REFERENCES airlines(id);
ALTER TABLE login_devices ADD CONSTRAINT login_devices_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;
ALTER TABLE order_lines ADD CONSTRAINT order_lines_airline_id_fkey FOREIGN KEY (airline_id) REFERENCES airlines(id);
ALTER TABLE order_lines ADD CONSTRAINT order_lines_flight_id_fkey FOREIGN KEY (flight_id) REFERENCES flights(id);
ALTER TABLE order_lines ADD CONSTRAINT order_lines_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders(id);
ALTER TABLE orders ADD CONSTRAINT orders_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);
ALTER TABLE payments ADD CONSTRAINT payments_hold_id_fkey FOREIGN KEY (hold_id) REFERENCES seat_holds(id);
ALTER TABLE payments ADD CONSTRAINT payments_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders(id);
ALTER TABLE payments ADD CONSTRAINT payments_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);
ALTER TABLE preferences ADD CONSTRAINT preferences_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);
ALTER TABLE review_drafts ADD CONSTRAINT review_drafts_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);
ALTER TABLE reviews ADD CONSTRAINT reviews_airline_id_fkey FOREIGN KEY (airline_id) REFERENCES airlines(id);
ALTER TABLE reviews ADD CONSTRAINT reviews_flight_id_fkey FOREIGN KEY (flight_id) REFERENCES flights(id);
ALTER TABLE reviews ADD CONSTRAINT reviews_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders(id);
ALTER TABLE reviews ADD CONSTRAINT reviews_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);
ALTER TABLE sales ADD CONSTRAINT sales_airline_id_fkey FOREIGN KEY (airline_id) REFERENCES airlines(id);
ALTER TABLE sales ADD CONSTRAINT sales_flight_id_fkey FOREIGN KEY (flight_id) REFERENCES flights(id);
ALTER TABLE sales ADD CONSTRAINT sales_order_line_id_fkey FOREIGN KEY (order_line_id) REFERENCES order_lines(id);
ALTER TABLE seat_hold_lines ADD CONSTRAINT seat_hold_lines_flight_id_fkey FOREIGN KEY (flight_id) REFERENCES flights(id);
ALTER TABLE seat_hold_lines ADD CONSTRAINT seat_hold_lines_hold_id_fkey FOREIGN KEY (hold_id) REFERENCES seat_holds(id);
ALTER TABLE seat_holds ADD CONSTRAINT seat_holds_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments(id);
ALTER TABLE seat_holds ADD CONSTRAINT seat_holds_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);
ALTER TABLE sessions ADD CONSTRAINT sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);
ALTER TABLE tickets ADD CONSTRAINT tickets_kid_fkey FOREIGN KEY (kid) REFERENCES ticket_signing_keys(kid);
ALTER TABLE tickets ADD CONSTRAINT tickets_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders(id);
ALTER TABLE tickets ADD CONSTRAINT tickets_order_line_id_fkey FOREIGN KEY (order_line_id) REFERENCES order_lines(id);

-- The catalogue's revision floor starts at 0 (a hard DELETE of flights raises it).
INSERT INTO catalog_revision_floor (revision) VALUES (0);
