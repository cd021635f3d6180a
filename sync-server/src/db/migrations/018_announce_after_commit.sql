-- Sync pushes announce their changes after they commit (issue 15,
-- docs/decisions/021-announce-after-commit.md).
--
-- A transaction that called pg_notify takes PostgreSQL's one notification lock at commit and holds
-- it until its commit record is flushed to disk: under a storm of pushes every customer's commit
-- waited for every other's fsync, and a checkout's commit queued behind all of them (decision 019).
-- Now a transaction may say that its changes are announced by its caller after it commits:
--
--   SET LOCAL skyport.announce = after_commit;
--
-- Its replicated row triggers then skip pg_notify, and the server sends the same payloads with
-- `announce_replication_changes` once the transaction has committed (sync/announcer.ts). Every
-- other writer (checkout, flight management, admin actions, anything run by hand) notifies at
-- commit as before.

CREATE OR REPLACE FUNCTION notify_replication_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  partition_key text := '';
BEGIN
  IF current_setting('skyport.announce', true) = 'after_commit' THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME IN ('favourites', 'cart_lines', 'preferences', 'review_drafts', 'orders') THEN
    partition_key := NEW.user_id::text;
  ELSIF TG_TABLE_NAME = 'sales' THEN
    partition_key := NEW.airline_id::text;
  END IF;
  PERFORM pg_notify('skyport_sync', TG_TABLE_NAME || ':' || partition_key);
  RETURN NULL;
END
$$;

-- The announcement of committed changes: one notification per payload (`<table>:<partition>`, as
-- the trigger builds it), in a transaction of its own. Called as a statement on its own, so that
-- this is the whole transaction: it writes nothing, and its commit need not wait for the disk
-- (a notification is never kept across a crash anyway), so it holds the notification lock for
-- microseconds instead of an fsync. `set_config(…, true)` lasts until that commit.
CREATE FUNCTION announce_replication_changes(payloads text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  payload text;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  FOREACH payload IN ARRAY payloads LOOP
    PERFORM pg_notify('skyport_sync', payload);
  END LOOP;
END
$$;
