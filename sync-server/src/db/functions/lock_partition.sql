-- One customer's (or airline's) partition lock (010 migration, docs/decisions/010-transaction-
-- watermarks.md): held by every transaction that reads that partition's documents to decide what
-- to write (a push comparing assumed and current states, the REST cart, checkout emptying the
-- cart), so that no other writer changes them in between. Transaction-scoped; partitions of
-- different customers never wait for each other (two keys hashing alike only share a queue,
-- rarely).
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Earlier definition: 010 migration.

CREATE OR REPLACE FUNCTION lock_partition(partition text) RETURNS void
LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtext('skyport:partition'), hashtext(partition))
$$;
