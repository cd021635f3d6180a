-- The checkout as named steps (issue 38 part 3; features/checkout/steps.ts): everything a step
-- needs to continue a checkout is in its `payments` row, so a replay of its idempotency key, its
-- confirm or the reconciler on any instance finishes it. Until now two things lived in the memory
-- of the instance that started it:
--
-- - `client_secret`: a card's 3-D Secure step, what the buyer's browser needs to complete the
--   authentication (Stripe's PaymentIntent client secret). Security: it can complete the payment
--   of this one intent and nothing else, and it is only ever answered to the payment's owner
--   (the start or confirm of their own checkout, never the status view); it is cleared when the
--   checkout leaves `approval_pending`.
-- - `wallet_origin`: the shop origin a wallet checkout started from, where the wallet sends the
--   buyer back (`/payment`); without it, a resumed checkout used the instance's PUBLIC_URL.
ALTER TABLE payments
  ADD COLUMN client_secret text,
  ADD COLUMN wallet_origin text;
