-- Several partition locks in one transaction, in one order (issue 15,
-- docs/decisions/023-push-group-commit.md). A batch of sync pushes of several customers commits
-- as one transaction (sync/push-batches.ts) and takes all their partition locks first, before any
-- read or write. Taken in the order of their lock keys, two batches never each hold a lock the
-- other waits for; every other locker holds one partition lock only (010 migration).
CREATE FUNCTION lock_partitions(partitions text[]) RETURNS void
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
