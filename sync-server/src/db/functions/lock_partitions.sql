-- Several partition locks in one transaction, in the order of their lock keys (021 migration,
-- decision 023), so that two transactions taking several never each hold a lock the other waits
-- for.
--
-- No longer called (025 migration, decision 032: no more group commit of pushes). Kept for
-- instances of the previous build during a rolling deploy; a later change may retire it (delete
-- this file and drop the function in a versioned migration).
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Earlier definition: 021 migration.

CREATE OR REPLACE FUNCTION lock_partitions(partitions text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  partition text;
BEGIN
  -- One lock per key: two partitions with the same hashtext share a lock (lock_partition).
  FOR partition IN
    SELECT DISTINCT ON (hashtext(p)) p FROM unnest(partitions) AS p ORDER BY hashtext(p)
  LOOP
    PERFORM lock_partition(partition);
  END LOOP;
END
$$;
