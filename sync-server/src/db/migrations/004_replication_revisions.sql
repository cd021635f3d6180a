-- Replication revisions that follow commit order (docs/architecture.md §4).
--
-- A revision taken from a sequence when a row is written can commit after a larger revision
-- was already pulled; a client whose checkpoint passed it would never see that row. So every
-- write to a replicated table first takes one transaction-scoped advisory lock and only then
-- draws its revision: a transaction holding revisions keeps the lock until it commits or rolls
-- back, and any later writer waits, so revisions become visible in increasing order.
-- Transactions that write replicated rows are short (one checkout, one push), which keeps the
-- wait small; the lock is one cluster-wide key, so no two such locks can deadlock each other.

CREATE FUNCTION assign_replication_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('skyport:replication'));
  NEW.revision := nextval('replication_revision');
  RETURN NEW;
END
$$;

CREATE TRIGGER airlines_revision BEFORE INSERT OR UPDATE ON airlines
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE TRIGGER flights_revision BEFORE INSERT OR UPDATE ON flights
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE TRIGGER reviews_revision BEFORE INSERT OR UPDATE ON reviews
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE TRIGGER orders_revision BEFORE INSERT OR UPDATE ON orders
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE TRIGGER sales_revision BEFORE INSERT OR UPDATE ON sales
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE TRIGGER favourites_revision BEFORE INSERT OR UPDATE ON favourites
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE TRIGGER cart_lines_revision BEFORE INSERT OR UPDATE ON cart_lines
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE TRIGGER preferences_revision BEFORE INSERT OR UPDATE ON preferences
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
CREATE TRIGGER review_drafts_revision BEFORE INSERT OR UPDATE ON review_drafts
  FOR EACH ROW EXECUTE FUNCTION assign_replication_revision();
