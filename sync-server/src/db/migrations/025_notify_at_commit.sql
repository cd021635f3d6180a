-- Every write to a replicated table notifies at its commit, sync pushes included (issue 38,
-- docs/decisions/032-one-plain-write-path.md).
--
-- The 018 migration let a transaction silence its row triggers with
-- `SET LOCAL skyport.announce = after_commit` and leave the notification to the server's
-- announcer after commit; only sync pushes did. A push is now one `sync_push` statement whose
-- triggers notify at commit like every other writer's, so the setting is no longer read: no
-- transaction can commit a replicated change that no feed hears of.
--
-- `announce_replication_changes` (018) and `lock_partitions` (021) are no longer called. They stay
-- for instances of the previous build during a rolling deploy (migrations only add): their pushes
-- now notify at commit, and their announcements only wake the feeds a second time.

CREATE OR REPLACE FUNCTION notify_replication_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  partition_key text := '';
BEGIN
  IF TG_TABLE_NAME IN ('favourites', 'cart_lines', 'preferences', 'review_drafts', 'orders') THEN
    partition_key := NEW.user_id::text;
  ELSIF TG_TABLE_NAME = 'sales' THEN
    partition_key := NEW.airline_id::text;
  END IF;
  PERFORM pg_notify('skyport_sync', TG_TABLE_NAME || ':' || partition_key);
  RETURN NULL;
END
$$;
