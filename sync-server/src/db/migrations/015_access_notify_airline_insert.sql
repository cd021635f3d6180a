-- Session cache (issue 15, docs/decisions/018-push-throughput.md): every server instance keeps the
-- sessions of sync requests in memory and drops a user's entries when the access channel names
-- that user (007 migration). 007 covers every change that takes access away; a new airline row
-- with an owner (an administrator approving an airline, or creating one for a user) gives that
-- user its sales partition, and said nothing. It now notifies too, so that the owner's cached
-- session learns its airline at once on every instance (and its open streams check again).

CREATE FUNCTION notify_access_airline_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('skyport_access', NEW.owner_user_id::text);
  RETURN NULL;
END $$;

CREATE TRIGGER airlines_access_insert_notify AFTER INSERT ON airlines
  FOR EACH ROW WHEN (NEW.owner_user_id IS NOT NULL)
  EXECUTE FUNCTION notify_access_airline_insert();
