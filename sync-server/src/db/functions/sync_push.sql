-- One statement per sync push (docs/decisions/019-one-statement-push.md; called by sync/push.ts):
-- the partition lock, the flight check, the conflict check against the assumed master states and
-- the writes of a push to favourites, cart or preferences run in one function call. The server
-- still validates the body with the shared schemas, checks ownership and ids, and reads the
-- documents back with the same query as a pull (sync/documents.ts). Review drafts keep their own
-- path (their review rules are the server's TypeScript).
--
-- `rows` is a JSON array in push order, one object per row:
--   id       the document id: the flight id (favourites, cart) or the user id (preferences)
--   deleted  the pushed document's `_deleted`
--   amount   a cart line's amount (cart only); theme: the theme (preferences only)
--   assumed  the assumed master state as the client sent it, null when the client assumed no
--            document (the build before sync_owned_key.sql sent its owned key instead)
-- `per_row`: refused rows are refused alone (the push report) instead of refusing the whole push.
--
-- Returns {"refused": [ids], "conflicts": [ids], "revisions": {id: revision}}, the first two in
-- push order; every other row was written (or already was as pushed), and `revisions` names the
-- revision each of them has now (docs/decisions/030-late-echoes-dropped-by-revision.md). When a
-- row is refused and `per_row` is false, nothing is written: the caller refuses the push, and the
-- answer has no `revisions`.
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Earlier definitions: 017, 020 (fewer and smaller statements) and 024
-- (`revisions`) migrations.

CREATE OR REPLACE FUNCTION sync_push(collection text, partition text, rows jsonb, per_row boolean)
RETURNS jsonb
LANGUAGE plpgsql
-- Planned once per connection (017, decision 019 point 4).
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  owner uuid := partition::uuid;
  row_count int;
  foreign_preferences boolean;
  bad_amount boolean;
  refused uuid[];
  conflicts uuid[];
  removals uuid[];
  keeps uuid[];
  amounts int[];
  themes text[];
  deletions boolean[];
  -- By id: the revision of each accepted row before the writes, then of each row they wrote.
  revisions jsonb;
BEGIN
  IF collection NOT IN ('favourites', 'cart', 'preferences') THEN
    RAISE EXCEPTION 'sync_push: % is not pushed through this function', collection
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF jsonb_typeof(rows) IS DISTINCT FROM 'array' OR jsonb_array_length(rows) NOT BETWEEN 1 AND 100 THEN
    RAISE EXCEPTION 'sync_push: rows must be an array of 1 to 100 rows (PUSH_MAX_ROWS)'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  row_count := jsonb_array_length(rows);
  -- What push.ts `checkRows` refuses first; one row cannot appear twice.
  IF row_count > 1 AND (SELECT count(DISTINCT e->>'id') FROM jsonb_array_elements(rows) e) <> row_count THEN
    RAISE EXCEPTION 'sync_push: a document appears twice' USING ERRCODE = 'invalid_parameter_value';
  END IF;

  -- First, before any read: nobody else changes this partition's documents until we commit
  -- (010 migration; the REST cart and checkout take the same lock).
  PERFORM lock_partition(partition);

  -- Per row, in push order: refused (a kept favourite or cart line must name a listed flight;
  -- removing the line of a deleted flight is allowed, 017), a conflict (sync_push_conflict.sql:
  -- the assumed state against the stored row, passed as its `to_jsonb` with `_deleted`), or
  -- written. The inner subquery is kept apart (OFFSET 0) so that each row's flight and document
  -- are read once.

  IF collection = 'favourites' THEN
    SELECT array_agg(j.id ORDER BY j.ord) FILTER (WHERE j.refused),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE j.conflict),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE NOT j.refused AND NOT j.conflict AND j.deleted),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE NOT j.refused AND NOT j.conflict AND NOT j.deleted),
           jsonb_object_agg(j.id, j.revision) FILTER (WHERE NOT j.refused AND NOT j.conflict AND j.revision IS NOT NULL)
    INTO refused, conflicts, removals, keeps, revisions
    FROM (
      SELECT r.id, r.ord, r.deleted, r.refused, r.revision,
             NOT r.refused AND sync_push_conflict('favourites', r.assumed, r.master) AS conflict
      FROM (
        SELECT r.*,
          NOT EXISTS (SELECT FROM flights f WHERE f.id = r.id AND (NOT f.deleted OR r.deleted)) AS refused,
          to_jsonb(m) || jsonb_build_object('_deleted', m.deleted) AS master,
          m.revision
        FROM ROWS FROM (jsonb_to_recordset(rows) AS (id uuid, deleted boolean, assumed jsonb))
             WITH ORDINALITY AS r(id, deleted, assumed, ord)
        LEFT JOIN favourites m ON m.user_id = owner AND m.flight_id = r.id
        OFFSET 0
      ) r
    ) j;
  ELSIF collection = 'cart' THEN
    SELECT bool_or(NOT j.deleted AND j.amount NOT BETWEEN 1 AND 1000),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE j.refused),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE j.conflict),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE NOT j.refused AND NOT j.conflict AND j.deleted),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE NOT j.refused AND NOT j.conflict AND NOT j.deleted),
           array_agg(j.amount ORDER BY j.ord) FILTER (WHERE NOT j.refused AND NOT j.conflict AND NOT j.deleted),
           jsonb_object_agg(j.id, j.revision) FILTER (WHERE NOT j.refused AND NOT j.conflict AND j.revision IS NOT NULL)
    INTO bad_amount, refused, conflicts, removals, keeps, amounts, revisions
    FROM (
      SELECT r.id, r.ord, r.deleted, r.amount, r.refused, r.revision,
             NOT r.refused AND sync_push_conflict('cart', r.assumed, r.master) AS conflict
      FROM (
        SELECT r.*,
          NOT EXISTS (SELECT FROM flights f WHERE f.id = r.id AND (NOT f.deleted OR r.deleted)) AS refused,
          to_jsonb(m) || jsonb_build_object('_deleted', m.deleted) AS master,
          m.revision
        FROM ROWS FROM (jsonb_to_recordset(rows) AS (id uuid, deleted boolean, amount int, assumed jsonb))
             WITH ORDINALITY AS r(id, deleted, amount, assumed, ord)
        LEFT JOIN cart_lines m ON m.user_id = owner AND m.flight_id = r.id
        OFFSET 0
      ) r
    ) j;
    IF bad_amount THEN
      RAISE EXCEPTION 'sync_push: a cart line holds 1 to 1000 tickets'
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
  ELSE
    SELECT bool_or(j.id <> owner),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE j.conflict),
           array_agg(j.theme ORDER BY j.ord) FILTER (WHERE NOT j.conflict),
           array_agg(j.deleted ORDER BY j.ord) FILTER (WHERE NOT j.conflict),
           jsonb_object_agg(j.id, j.revision) FILTER (WHERE NOT j.conflict AND j.revision IS NOT NULL)
    INTO foreign_preferences, conflicts, themes, deletions, revisions
    FROM (
      SELECT r.id, r.ord, r.deleted, r.theme, r.revision,
             sync_push_conflict('preferences', r.assumed, r.master) AS conflict
      FROM (
        SELECT r.*,
          to_jsonb(m) || jsonb_build_object('_deleted', m.deleted) AS master,
          m.revision
        FROM ROWS FROM (jsonb_to_recordset(rows) AS (id uuid, deleted boolean, theme text, assumed jsonb))
             WITH ORDINALITY AS r(id, deleted, theme, assumed, ord)
        LEFT JOIN preferences m ON m.user_id = owner
        OFFSET 0
      ) r
    ) j;
    IF foreign_preferences THEN
      RAISE EXCEPTION 'sync_push: a preferences id must be the user id'
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
  END IF;

  -- Nothing is written: the caller refuses the push whole.
  IF refused IS NOT NULL AND NOT per_row THEN
    RETURN jsonb_build_object('refused', to_jsonb(refused), 'conflicts', '[]'::jsonb);
  END IF;

  revisions := coalesce(revisions, '{}'::jsonb);
  -- The writes of 017, set by set in push order: only the customer's own fields are taken, a row
  -- already as pushed is left alone (no new revision), and a statement with nothing to write is not
  -- run. (A NULL array: no such row.)
  IF collection = 'favourites' THEN
    IF removals IS NOT NULL THEN
      WITH w AS (
        UPDATE favourites SET deleted = true
        WHERE user_id = owner AND NOT deleted AND flight_id = ANY (removals)
        RETURNING flight_id, revision)
      SELECT revisions || coalesce(jsonb_object_agg(w.flight_id, w.revision), '{}'::jsonb)
      INTO revisions FROM w;
    END IF;
    IF keeps IS NOT NULL THEN
      WITH w AS (
        INSERT INTO favourites (user_id, flight_id)
        SELECT owner, k.id FROM unnest(keeps) WITH ORDINALITY AS k(id, ord) ORDER BY k.ord
        ON CONFLICT (user_id, flight_id) DO UPDATE SET deleted = false, created_at = now()
        WHERE favourites.deleted
        RETURNING flight_id, revision)
      SELECT revisions || coalesce(jsonb_object_agg(w.flight_id, w.revision), '{}'::jsonb)
      INTO revisions FROM w;
    END IF;
  ELSIF collection = 'cart' THEN
    IF removals IS NOT NULL THEN
      WITH w AS (
        UPDATE cart_lines SET deleted = true, updated_at = now()
        WHERE user_id = owner AND NOT deleted AND flight_id = ANY (removals)
        RETURNING flight_id, revision)
      SELECT revisions || coalesce(jsonb_object_agg(w.flight_id, w.revision), '{}'::jsonb)
      INTO revisions FROM w;
    END IF;
    IF keeps IS NOT NULL THEN
      -- The amount is the customer's; stock is checked at checkout, which refuses what is short.
      WITH w AS (
        INSERT INTO cart_lines (user_id, flight_id, amount)
        SELECT owner, k.id, k.amount FROM unnest(keeps, amounts) WITH ORDINALITY AS k(id, amount, ord)
        ORDER BY k.ord
        ON CONFLICT (user_id, flight_id) DO UPDATE SET amount = EXCLUDED.amount, deleted = false, updated_at = now()
        WHERE cart_lines.deleted OR cart_lines.amount <> EXCLUDED.amount
        RETURNING flight_id, revision)
      SELECT revisions || coalesce(jsonb_object_agg(w.flight_id, w.revision), '{}'::jsonb)
      INTO revisions FROM w;
    END IF;
  ELSIF themes IS NOT NULL THEN
    WITH w AS (
      INSERT INTO preferences (user_id, theme, deleted)
      SELECT owner, p.theme, p.deleted FROM unnest(themes, deletions) AS p(theme, deleted)
      ON CONFLICT (user_id) DO UPDATE SET theme = EXCLUDED.theme, deleted = EXCLUDED.deleted, updated_at = now()
      WHERE preferences.theme <> EXCLUDED.theme OR preferences.deleted <> EXCLUDED.deleted
      RETURNING user_id, revision)
    SELECT revisions || coalesce(jsonb_object_agg(w.user_id, w.revision), '{}'::jsonb)
    INTO revisions FROM w;
  END IF;

  RETURN jsonb_build_object('refused', coalesce(to_jsonb(refused), '[]'::jsonb),
                            'conflicts', coalesce(to_jsonb(conflicts), '[]'::jsonb),
                            'revisions', revisions);
END
$$;
