-- Signed e-tickets (issue 17, docs/decisions/014-signed-tickets.md, docs/api/tickets.md): every line
-- of a confirmed order gets a compact JWS signed with Ed25519, which anyone can verify offline
-- against the public keys of GET /api/tickets/jwks.json.

-- The signing keys. One is current (retired_at NULL); rotation retires it and adds a new one in
-- one transaction. A retired key keeps verifying: it stays in the published key set while any
-- ticket it signed has not expired (sync-server/src/features/tickets/queries.ts).
CREATE TABLE ticket_signing_keys (
  kid                    text PRIMARY KEY,
  -- The public half as a JWK (kty OKP, crv Ed25519, x), published as it is.
  public_jwk             jsonb NOT NULL,
  -- Security: the private half, as JSON: an AES-256-GCM envelope of the private JWK under a key
  -- derived from TICKET_KEY_SECRET when it is set (private_key_encrypted), else the private JWK.
  -- No route reads this column.
  private_key            text NOT NULL,
  private_key_encrypted  boolean NOT NULL,
  created_at             timestamptz NOT NULL DEFAULT now(),
  retired_at             timestamptz,
  CHECK (retired_at IS NULL OR retired_at >= created_at)
);
-- At most one current key, whatever several instances starting at once (or rotating at once) do:
-- the second insert of a first key finds the first one's and does nothing.
CREATE UNIQUE INDEX ticket_signing_keys_one_current ON ticket_signing_keys ((true))
  WHERE retired_at IS NULL;

-- The issued tickets, one per order line, stored as signed so that a ticket never changes (the
-- orders document carries `token`, sync-server/src/sync/documents.ts). `status` is the server's
-- word on it: `void` once its order is cancelled (trigger below).
CREATE TABLE tickets (
  id             uuid PRIMARY KEY,
  order_line_id  uuid NOT NULL UNIQUE REFERENCES order_lines (id),
  order_id       uuid NOT NULL REFERENCES orders (id),
  kid            text NOT NULL REFERENCES ticket_signing_keys (kid),
  token          text NOT NULL,
  status         text NOT NULL DEFAULT 'valid' CHECK (status IN ('valid', 'void')),
  issued_at      timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  voided_at      timestamptz,
  CHECK ((status = 'void') = (voided_at IS NOT NULL))
);
CREATE INDEX tickets_order_idx ON tickets (order_id);
-- The key set: which retired keys still signed an unexpired ticket.
CREATE INDEX tickets_kid_expiry_idx ON tickets (kid, expires_at);

-- A ticket is part of its order's replicated document (each line's `ticket`): inserting tickets
-- touches their orders, as inserting lines does (006), so the order replicates again with them.
-- (Within the confirming transaction the order already has its new revision; a ticket issued
-- later, for an order confirmed before tickets existed, needs this.)
CREATE TRIGGER tickets_touch_orders AFTER INSERT ON tickets
  REFERENCING NEW TABLE AS changed_lines
  FOR EACH STATEMENT EXECUTE FUNCTION touch_orders_of_lines();

-- An order that is cancelled (or tombstoned) voids its tickets in the same transaction, whichever
-- code cancels it: a ticket of a cancelled order is never reported valid.
CREATE FUNCTION void_tickets_of_order() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET status = 'void', voided_at = now()
  WHERE order_id = NEW.id AND status = 'valid';
  RETURN NULL;
END
$$;
CREATE TRIGGER orders_void_tickets AFTER UPDATE OF status, deleted ON orders
  FOR EACH ROW
  WHEN ((NEW.status = 'cancelled' OR NEW.deleted)
        AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.deleted IS DISTINCT FROM NEW.deleted))
  EXECUTE FUNCTION void_tickets_of_order();
