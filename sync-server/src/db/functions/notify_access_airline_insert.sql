-- A new airline row with an owner (an administrator approving an airline, or creating one for a
-- user) gives that user its sales partition (015 migration, decision 018): it notifies
-- `skyport_access` with the owner's id, so that the owner's cached session learns its airline at
-- once on every instance (and its open streams check again). notify_access_change.sql covers
-- every change that takes access away.
--
-- This file is the function's one home, with its trigger (decision 033): edit it in place,
-- db/migrate.ts re-applies it when its text changes. Earlier definition: 015 migration.

CREATE OR REPLACE FUNCTION notify_access_airline_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('skyport_access', NEW.owner_user_id::text);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER airlines_access_insert_notify AFTER INSERT ON airlines
  FOR EACH ROW WHEN (NEW.owner_user_id IS NOT NULL)
  EXECUTE FUNCTION notify_access_airline_insert();
