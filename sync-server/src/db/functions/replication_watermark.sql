-- The replication watermark of the calling statement's snapshot (010 migration,
-- docs/decisions/010-transaction-watermarks.md): the smallest txid of a transaction that was
-- running when the snapshot was taken, or the snapshot's xmax when none was. Rows with a txid
-- below it are settled: their transaction ended before the snapshot (so they are visible, or were
-- rolled back), and any transaction that commits from now on has a txid at or above it.
--
-- Transaction ids are cluster-wide, so a long transaction in another database of the same
-- PostgreSQL server would hold back every pull here. A running transaction is left out when
-- pg_stat_activity shows it in another database; one that ended meanwhile, or whose database is
-- hidden, is kept (a lower watermark only delays rows, never skips them).
--
-- STABLE: it reads the caller's snapshot (pg_current_snapshot() is the active snapshot), so the
-- rows a query reads and the watermark it compares them with come from the same snapshot.
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Earlier definition: 010 migration.

CREATE OR REPLACE FUNCTION replication_watermark() RETURNS int8
LANGUAGE sql STABLE AS $$
  WITH snapshot AS (SELECT pg_current_snapshot() AS s),
  elsewhere AS (
    SELECT a.backend_xid FROM pg_stat_get_activity(NULL) a
    WHERE a.backend_xid IS NOT NULL AND a.datid IS NOT NULL
      AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
  )
  SELECT coalesce(
    (SELECT min(x::text::int8) FROM snapshot, pg_snapshot_xip(snapshot.s) AS x
     WHERE x::xid NOT IN (SELECT backend_xid FROM elsewhere)),
    (SELECT pg_snapshot_xmax(s)::text::int8 FROM snapshot))
$$;
