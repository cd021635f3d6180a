-- Checkout (docs/architecture.md §6): a payment row is the durable state machine of one checkout, keyed by the
-- caller's idempotency key, so a retry, a parallel duplicate or the reconciler after a crash all
-- continue the same checkout instead of starting another.
--
--   created ──authorise, then order txn──▶ authorized + order_id ──capture──▶ captured
--      │                 │                        │
--      ▼ declined        ▼ no stock / price       ▼ capture refused
--    failed           authorized + failure_code   failed (order cancelled, stock back)
--                        ──release──▶ released
--   approval_pending (wallet: waiting for the buyer) ──approved──▶ authorized …
-- (A card authorisation is recorded in the order transaction's commit; a crash before it leaves
-- the row `created`, and the same idempotency key finds the provider's hold again.)

ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check
  CHECK (status IN ('created', 'approval_pending', 'authorized', 'captured', 'released', 'failed'));

ALTER TABLE payments
  ADD COLUMN method            text NOT NULL DEFAULT 'card' CHECK (method IN ('card', 'wallet')),
  -- Security: a provider token (pm_…); a card number is never stored.
  ADD COLUMN payment_method    text,
  -- Wallet: the provider's order the buyer approves, and where the buyer goes to approve it.
  ADD COLUMN provider_order_id text,
  ADD COLUMN approval_url      text,
  -- What the key was first used for (amount, method): the same key with another request is refused.
  ADD COLUMN request_hash      text NOT NULL DEFAULT '',
  -- The server's quote when the checkout started: [{flightId, amount, unitPriceCents}].
  ADD COLUMN lines             jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN subtotal_cents    bigint,
  ADD COLUMN fee_cents         bigint,
  ADD COLUMN receipt_email     text,
  -- With failure_code: why the checkout failed. A failure_code set while still `authorized`
  -- means the checkout decided to roll back (no stock, price changed): whoever continues it
  -- only releases the authorisation.
  ADD COLUMN failure_message   text,
  -- The request (or reconciler) working on the row holds it until then; others wait or skip.
  ADD COLUMN locked_until      timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN captured_at       timestamptz,
  ADD CONSTRAINT payments_totals_check CHECK (
    subtotal_cents IS NULL OR (fee_cents IS NOT NULL AND amount_cents = subtotal_cents + fee_cents));

-- One payment per order, and one row per provider payment (webhooks find the row by it).
CREATE UNIQUE INDEX payments_order_key ON payments (order_id) WHERE order_id IS NOT NULL;
CREATE UNIQUE INDEX payments_provider_payment_key ON payments (provider, provider_payment_id)
  WHERE provider_payment_id IS NOT NULL;
-- The reconciler's work list: checkouts that have not reached a final state.
CREATE INDEX payments_open_idx ON payments (updated_at)
  WHERE status IN ('created', 'approval_pending', 'authorized');

-- An order is written before its payment is captured (stock must be taken first), so it is
-- `pending` until the capture succeeds, then `confirmed`; a capture that fails cancels it
-- (deleted, stock returned). Only confirmed orders are shown; rows written by other means
-- (demo data) are confirmed by default.
ALTER TABLE orders
  ADD COLUMN status text NOT NULL DEFAULT 'confirmed' CHECK (status IN ('pending', 'confirmed', 'cancelled'));
CREATE INDEX orders_pending_idx ON orders (created_at) WHERE status = 'pending';

-- Sales charts read an airline's sales by month.
CREATE INDEX sales_flight_idx ON sales (flight_id);
