-- The owned key of a pushed document (docs/decisions/019-one-statement-push.md): the values of
-- the fields the customer decides, as a JSON array (a missing field counts as null). The rest of a
-- document is the server's (a flight's summary, times, a draft's outcome reason), so a change to
-- it is no conflict. No document (NULL) and a tombstone both have the key "absent". Two states
-- with the same key are the same for conflict detection (sync_push_conflict.sql).
--
-- This is the one place that says which fields are owned: push.ts sends the assumed states whole
-- and names none. `doc` is a document as the client sends it (camelCase, `_deleted`); sync_push
-- passes a stored row as its `to_jsonb` with `_deleted`, whose owned columns (amount, theme) carry
-- the fields' names.
--
-- Not an object: a key already, returned as it is. The build before this function sent sync_push
-- the key its TypeScript built; while an instance of it runs (a rolling deploy, decision 033) its
-- pushes are judged as before. A document is always an object (the shared push schema).
--
-- STABLE (jsonb_build_array is) and not STRICT, so that the calling queries inline it.
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Before it, push.ts `ownedKey` built the key in TypeScript and
-- sync_push built the stored row's key from its columns.

CREATE OR REPLACE FUNCTION sync_owned_key(collection text, doc jsonb) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN doc IS NULL OR doc->'_deleted' = 'true' THEN '"absent"'
    WHEN jsonb_typeof(doc) <> 'object' THEN doc
    WHEN collection = 'favourites' THEN '[]'
    WHEN collection = 'cart' THEN jsonb_build_array(doc->'amount')
    WHEN collection = 'preferences' THEN jsonb_build_array(doc->'theme')
    WHEN collection = 'reviewDrafts' THEN jsonb_build_array(doc->'orderId', doc->'flightId',
      doc->'rating', doc->'name', doc->'comment', doc->'status')
  END
$$;
