-- Replication order without a global lock (issue 15, docs/decisions/010-transaction-watermarks.md).
--
-- 004/006 made revisions follow commit order by making every replicated write take one
-- cluster-wide advisory lock: every push, checkout and flight edit of every customer and airline
-- queued on it, and a second server instance only added contention. Now:
--
-- * Every replicated row records the top-level transaction that last wrote it (`txid`, from
--   `pg_current_xact_id()`), beside its revision (still one `nextval`, unique, increasing within
--   a transaction). Replication positions are `(txid, revision)` pairs.
-- * A pull returns only rows whose transaction is below the watermark (`replication_watermark()`,
--   below): the oldest transaction of this database that was still running when the pull's
--   snapshot was taken. Every transaction below it has ended, and every transaction that has not
--   ended yet, or will start later, has a txid at or above it; so a row that commits later always
--   sorts after every row already pulled, and "position greater than the checkpoint's" never
--   skips a row. Rows above the watermark are held back until it passes them (sync/documents.ts).
-- * Writers take no lock beyond their rows'. A push's read-compare-write of one customer's
--   documents is made atomic by that customer's own partition lock (`lock_partition`), so two
--   devices of one customer serialise and nobody else waits.
--
-- Rows written before this migration keep txid 0 and their revisions: a client's old checkpoint
-- `{revision: R}` is the position (0, R) and continues exactly where it stopped.

ALTER TABLE airlines ADD COLUMN txid int8 NOT NULL DEFAULT 0;
ALTER TABLE flights ADD COLUMN txid int8 NOT NULL DEFAULT 0;
ALTER TABLE reviews ADD COLUMN txid int8 NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN txid int8 NOT NULL DEFAULT 0;
ALTER TABLE sales ADD COLUMN txid int8 NOT NULL DEFAULT 0;
ALTER TABLE favourites ADD COLUMN txid int8 NOT NULL DEFAULT 0;
ALTER TABLE cart_lines ADD COLUMN txid int8 NOT NULL DEFAULT 0;
ALTER TABLE preferences ADD COLUMN txid int8 NOT NULL DEFAULT 0;
ALTER TABLE review_drafts ADD COLUMN txid int8 NOT NULL DEFAULT 0;

-- The row trigger of 004, without the lock: it stamps the writing transaction and a revision.
CREATE OR REPLACE FUNCTION assign_replication_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.txid := pg_current_xact_id()::text::int8;
  NEW.revision := nextval('replication_revision');
  RETURN NEW;
END
$$;

-- 006 took the lock before any row lock so that it could not deadlock with row locks; with no
-- lock there is nothing to order.
DROP TRIGGER airlines_revision_lock ON airlines;
DROP TRIGGER flights_revision_lock ON flights;
DROP TRIGGER reviews_revision_lock ON reviews;
DROP TRIGGER orders_revision_lock ON orders;
DROP TRIGGER order_lines_revision_lock ON order_lines;
DROP TRIGGER sales_revision_lock ON sales;
DROP TRIGGER favourites_revision_lock ON favourites;
DROP TRIGGER cart_lines_revision_lock ON cart_lines;
DROP TRIGGER preferences_revision_lock ON preferences;
DROP TRIGGER review_drafts_revision_lock ON review_drafts;
DROP FUNCTION lock_replication_revisions();

/*
 * The replication watermark of the calling statement's snapshot: the smallest txid of a
 * transaction that was running when the snapshot was taken, or the snapshot's xmax when none was.
 * Rows with a txid below it are settled: their transaction ended before the snapshot (so they are
 * visible, or were rolled back), and any transaction that commits from now on has a txid at or
 * above it.
 *
 * Transaction ids are cluster-wide, so a long transaction in another database of the same
 * PostgreSQL server would hold back every pull here. A running transaction is left out when
 * pg_stat_activity shows it in another database; one that ended meanwhile, or whose database is
 * hidden, is kept (a lower watermark only delays rows, never skips them).
 *
 * STABLE: it reads the caller's snapshot (pg_current_snapshot() is the active snapshot), so the
 * rows a query reads and the watermark it compares them with come from the same snapshot.
 */
CREATE FUNCTION replication_watermark() RETURNS int8
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

/*
 * One customer's (or airline's) partition lock: held by every transaction that reads that
 * partition's documents to decide what to write (a push comparing assumed and current states,
 * the REST cart, checkout emptying the cart), so that no other writer changes them in between.
 * Transaction-scoped; partitions of different customers never wait for each other (two keys
 * hashing alike only share a queue, rarely).
 */
CREATE FUNCTION lock_partition(partition text) RETURNS void
LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtext('skyport:partition'), hashtext(partition))
$$;

-- Pulls read positions in order: (txid, revision), within a partition where there is one.
CREATE INDEX airlines_position_idx ON airlines (txid, revision);
CREATE INDEX flights_position_idx ON flights (txid, revision);
CREATE INDEX reviews_position_idx ON reviews (txid, revision);
CREATE INDEX favourites_position_idx ON favourites (user_id, txid, revision);
CREATE INDEX cart_lines_position_idx ON cart_lines (user_id, txid, revision);
CREATE INDEX preferences_position_idx ON preferences (user_id, txid, revision);
CREATE INDEX review_drafts_position_idx ON review_drafts (user_id, txid, revision);
CREATE INDEX orders_position_idx ON orders (user_id, txid, revision);
CREATE INDEX sales_position_idx ON sales (airline_id, txid, revision);
DROP INDEX favourites_revision_idx;
DROP INDEX cart_lines_revision_idx;
DROP INDEX review_drafts_revision_idx;
DROP INDEX orders_user_revision_idx;
DROP INDEX sales_airline_revision_idx;
DROP INDEX preferences_revision_idx;
-- (The single-column revision indexes of the public tables stay: max(revision) is the
-- catalogue's version, an O(1) index lookup.)

/*
 * A stock or price change no longer rewrites the cart lines and favourites of its flight (006,
 * 009 touched every one of them: a popular flight's sale cost as many writes as it had
 * admirers). Clients read a line's price, stock and hours from their replicated flights
 * (pwa/src/features/cart/data/cart.ts). Only a flight leaving or coming back to the catalogue
 * still gives its lines a new revision, so that a device without that flight learns it is gone.
 */
CREATE OR REPLACE FUNCTION touch_lines_of_flights() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT n.id FROM new_flights n JOIN old_flights o ON o.id = n.id
    WHERE n.deleted IS DISTINCT FROM o.deleted
  ), carts AS (
    UPDATE cart_lines SET revision = revision
    WHERE NOT deleted AND flight_id IN (SELECT id FROM changed)
  )
  UPDATE favourites SET revision = revision
  WHERE NOT deleted AND flight_id IN (SELECT id FROM changed);
  RETURN NULL;
END
$$;
