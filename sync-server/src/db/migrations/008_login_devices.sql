-- Login device cookies (issue 14, item 7; docs/decisions/002-identity-on-primitives.md).
-- A browser or API client that logged in successfully gets a random device token (cookie
-- `skyport_device`); only its SHA-256 is kept here, bound to the account. A login attempt that
-- presents a live device token of that account is counted against that device's own limit
-- (`rate_limits` key `login:device:<id>`), never against the account-wide limit for untrusted
-- clients, so a stranger's wrong-password flood cannot lock the owner out of a known device.
CREATE TABLE login_devices (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- SHA-256 of the random device token; the token itself is never stored.
  token_hash  bytea NOT NULL UNIQUE,
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
-- Per-user housekeeping (expired rows, the cap on devices per account) and the expiry sweep.
CREATE INDEX login_devices_user_idx ON login_devices (user_id, created_at);
CREATE INDEX login_devices_expires_idx ON login_devices (expires_at);
