-- The conflict rule of a sync push (docs/decisions/019-one-statement-push.md): whether a pushed
-- row conflicts, that is whether the client derived it from a state that is no longer the
-- server's. `assumed` is the row's assumed master state (NULL: the client assumed no document),
-- `master` the server's current document (NULL: none). Both are documents, or keys, as
-- sync_owned_key.sql takes them; the states are compared by their owned keys.
--
-- A document the server never had is no conflict, so a fresh client re-adding a favourite is
-- simply written. One the server has only as a tombstone, which the client did not see (no
-- assumed state), is none either: both keys are "absent". Called by sync_push for favourites,
-- cart and preferences, and by push.ts for review drafts.
--
-- A SQL function: its body is checked when it is created, so sync_owned_key must exist then
-- (sync_owned_key.sql runs before this file: files run in name order). Inlined by the queries
-- that call it, as sync_owned_key is (neither is STRICT, nor IMMUTABLE).
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Before it, push.ts `isConflict` decided in TypeScript and sync_push
-- repeated the rule for each collection.

CREATE OR REPLACE FUNCTION sync_push_conflict(collection text, assumed jsonb, master jsonb)
RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT master IS NOT NULL
    AND sync_owned_key(collection, assumed) <> sync_owned_key(collection, master)
$$;
