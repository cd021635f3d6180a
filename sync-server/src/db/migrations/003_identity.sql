-- Identity housekeeping (issue 3): indexes for the clean-ups and lookups the identity code runs.
-- The tables themselves are in 001_data_model.sql.

-- Expired sessions and tokens are deleted by expiry; rate-limit windows by their start.
CREATE INDEX sessions_expires_idx ON sessions (expires_at);
CREATE INDEX auth_tokens_expires_idx ON auth_tokens (expires_at);
CREATE INDEX rate_limits_window_idx ON rate_limits (window_start);

-- The development outbox is read newest first, optionally for one address.
CREATE INDEX email_outbox_to_idx ON email_outbox (lower(to_address), created_at DESC);

-- Admin lists filter by role and airline status among live accounts.
CREATE INDEX users_role_idx ON users (role, airline_status, created_at) WHERE deleted_at IS NULL;
