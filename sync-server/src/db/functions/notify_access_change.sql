-- Streams and session caches that respect sessions (007 migration, issue 14): a live sync stream
-- must end when its session ends (logout, password change or reset, an administrator's disable,
-- account deletion, any other DELETE) or when its user may no longer read what it carries (role,
-- airline approval, airline ownership), and the session cache (features/identity/session-cache.ts)
-- must drop a user whose fields changed. Triggers, not the code paths, send the signal, so no path
-- can forget it: each such change notifies `skyport_access` with the user's id, in the change's own
-- transaction (so at its commit, and never for a rolled-back change). Every server instance
-- LISTENs and checks the streams and cache entries it holds for that user again
-- (sync/access-watch.ts). Identical notifications of one transaction are delivered once, so a
-- statement ending many sessions of a user sends one.
--
-- This file is the function's one home, with its triggers (decision 033): edit it in place,
-- db/migrate.ts re-applies it when its text changes. Earlier definitions: 007 migration; the
-- trigger users_profile_notify: 022.

CREATE OR REPLACE FUNCTION notify_access_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    IF TG_OP = 'TRUNCATE' THEN
      -- Every session ended: '*' asks every instance to check all of its streams.
      PERFORM pg_notify('skyport_access', '*');
    ELSE
      PERFORM pg_notify('skyport_access', OLD.user_id::text);
    END IF;
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('skyport_access', NEW.id::text);
  ELSIF TG_TABLE_NAME = 'airlines' THEN
    IF OLD.owner_user_id IS NOT NULL THEN
      PERFORM pg_notify('skyport_access', OLD.owner_user_id::text);
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.owner_user_id IS NOT NULL
       AND NEW.owner_user_id IS DISTINCT FROM OLD.owner_user_id THEN
      PERFORM pg_notify('skyport_access', NEW.owner_user_id::text);
    END IF;
  END IF;
  RETURN NULL;
END $$;

-- A session ends: deleted (every way of ending one deletes its row), or its expiry or owner
-- changed (nothing does that today; an expiry moved earlier must still end the stream in time).
CREATE OR REPLACE TRIGGER sessions_access_notify AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_access_change();
CREATE OR REPLACE TRIGGER sessions_access_update_notify AFTER UPDATE OF expires_at, user_id, token_hash ON sessions
  FOR EACH ROW
  WHEN (OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.user_id IS DISTINCT FROM NEW.user_id
        OR OLD.token_hash IS DISTINCT FROM NEW.token_hash)
  EXECUTE FUNCTION notify_access_change();
CREATE OR REPLACE TRIGGER sessions_access_truncate_notify AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_access_change();
-- What a user may replicate changed: disabled, deleted, a new role or airline status.
CREATE OR REPLACE TRIGGER users_access_notify AFTER UPDATE OF role, airline_status, disabled, deleted_at ON users
  FOR EACH ROW
  WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.airline_status IS DISTINCT FROM NEW.airline_status
        OR OLD.disabled IS DISTINCT FROM NEW.disabled OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION notify_access_change();
-- An airline's owner may replicate its sales: deleting it or changing its owner changes that.
CREATE OR REPLACE TRIGGER airlines_access_notify AFTER UPDATE OF deleted, owner_user_id ON airlines
  FOR EACH ROW
  WHEN (OLD.deleted IS DISTINCT FROM NEW.deleted OR OLD.owner_user_id IS DISTINCT FROM NEW.owner_user_id)
  EXECUTE FUNCTION notify_access_change();
CREATE OR REPLACE TRIGGER airlines_access_delete_notify AFTER DELETE ON airlines
  FOR EACH ROW EXECUTE FUNCTION notify_access_change();
-- A field the session cache keeps changed (022 migration): the cache drops the user's entries on
-- every instance at the change's commit.
CREATE OR REPLACE TRIGGER users_profile_notify AFTER UPDATE OF email, email_verified, name, last_name, image, phone, uid ON users
  FOR EACH ROW
  WHEN (OLD.email IS DISTINCT FROM NEW.email OR OLD.email_verified IS DISTINCT FROM NEW.email_verified
        OR OLD.name IS DISTINCT FROM NEW.name OR OLD.last_name IS DISTINCT FROM NEW.last_name
        OR OLD.image IS DISTINCT FROM NEW.image OR OLD.phone IS DISTINCT FROM NEW.phone
        OR OLD.uid IS DISTINCT FROM NEW.uid)
  EXECUTE FUNCTION notify_access_change();
