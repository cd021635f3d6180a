-- The announcement of committed sync pushes (018 migration, decision 021): one notification per
-- payload (`<table>:<partition>`, as notify_replication_change builds it), in a transaction of its
-- own that writes nothing, so that its commit need not wait for the disk. `set_config(…, true)`
-- lasts until that commit.
--
-- No longer called (025 migration, decision 032: pushes notify at their commit like every other
-- writer). Kept for instances of the previous build during a rolling deploy; a later change may
-- retire it (delete this file and drop the function in a versioned migration).
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Earlier definition: 018 migration.

CREATE OR REPLACE FUNCTION announce_replication_changes(payloads text[]) RETURNS void
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
