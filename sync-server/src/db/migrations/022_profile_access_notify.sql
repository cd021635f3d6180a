-- Every field of a signed-in user that the session cache keeps (features/identity/session-cache.ts)
-- now notifies `skyport_access` when it changes, as role, status and access already do (007 and
-- 015 migrations). The cache then drops the user's entries on every instance at the change's
-- commit instead of up to its entry TTL later, so it can answer checkout requests too: a customer
-- who has just verified their email address may pay at once (docs/decisions/023-push-group-commit.md,
-- "The checkout's session").
CREATE TRIGGER users_profile_notify AFTER UPDATE OF email, email_verified, name, last_name, image, phone, uid ON users
  FOR EACH ROW
  WHEN (OLD.email IS DISTINCT FROM NEW.email OR OLD.email_verified IS DISTINCT FROM NEW.email_verified
        OR OLD.name IS DISTINCT FROM NEW.name OR OLD.last_name IS DISTINCT FROM NEW.last_name
        OR OLD.image IS DISTINCT FROM NEW.image OR OLD.phone IS DISTINCT FROM NEW.phone
        OR OLD.uid IS DISTINCT FROM NEW.uid)
  EXECUTE FUNCTION notify_access_change();
