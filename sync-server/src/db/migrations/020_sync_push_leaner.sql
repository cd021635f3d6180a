-- Less PostgreSQL CPU per sync push (issue 15, docs/decisions/019-one-statement-push.md, "PostgreSQL
-- side"). The same function as 017, with the same arguments, answers and refusals; it does the
-- same work in fewer and smaller statements:
--
-- * the rows are parsed once (`jsonb_to_recordset`, typed columns) instead of `->>` and casts in
--   every statement, and the writes read plain arrays instead of parsing the accepted rows again;
-- * the duplicate check runs only for pushes of more than one row (a tap on a heart is one row);
-- * validation, the flight check and the conflict decision of a push are one query per collection,
--   so its plan holds only that collection's table (017's one query carried the subqueries of all
--   three tables, and two materialized CTEs, initialised at every call).
--
-- The lock still comes first, before any read of the partition. The checks a row can fail (a
-- preference under another id, an amount outside 1-1,000) now raise after the lock and the reads
-- but still before any write: the exception ends the caller's transaction as before.
--
-- `rows`, `per_row` and the answer: as in 017.

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
  -- removing the line of a deleted flight is allowed, 017), a conflict (push.ts `isConflict`
  -- against the current document's owned fields, built as `ownedKey` builds them; a document we
  -- never had, or only as a tombstone the client did not see, is no conflict), or written. The
  -- inner subquery is kept apart (OFFSET 0) so that each row's flight and document are read once.

  IF collection = 'favourites' THEN
    SELECT array_agg(j.id ORDER BY j.ord) FILTER (WHERE j.refused),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE j.conflict),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE NOT j.refused AND NOT j.conflict AND j.deleted),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE NOT j.refused AND NOT j.conflict AND NOT j.deleted)
    INTO refused, conflicts, removals, keeps
    FROM (
      SELECT r.id, r.ord, r.deleted, r.refused,
             NOT r.refused AND r.master IS NOT NULL
               AND NOT (r.assumed IS NULL AND r.master = '"absent"')
               AND coalesce(r.assumed, '"absent"'::jsonb) <> r.master AS conflict
      FROM (
        SELECT r.*,
          NOT EXISTS (SELECT FROM flights f WHERE f.id = r.id AND (NOT f.deleted OR r.deleted)) AS refused,
          (SELECT CASE WHEN m.deleted THEN '"absent"'::jsonb ELSE '[]'::jsonb END
           FROM favourites m WHERE m.user_id = owner AND m.flight_id = r.id) AS master
        FROM ROWS FROM (jsonb_to_recordset(rows) AS (id uuid, deleted boolean, assumed jsonb))
             WITH ORDINALITY AS r(id, deleted, assumed, ord)
        OFFSET 0
      ) r
    ) j;
  ELSIF collection = 'cart' THEN
    SELECT bool_or(NOT j.deleted AND j.amount NOT BETWEEN 1 AND 1000),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE j.refused),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE j.conflict),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE NOT j.refused AND NOT j.conflict AND j.deleted),
           array_agg(j.id ORDER BY j.ord) FILTER (WHERE NOT j.refused AND NOT j.conflict AND NOT j.deleted),
           array_agg(j.amount ORDER BY j.ord) FILTER (WHERE NOT j.refused AND NOT j.conflict AND NOT j.deleted)
    INTO bad_amount, refused, conflicts, removals, keeps, amounts
    FROM (
      SELECT r.id, r.ord, r.deleted, r.amount, r.refused,
             NOT r.refused AND r.master IS NOT NULL
               AND NOT (r.assumed IS NULL AND r.master = '"absent"')
               AND coalesce(r.assumed, '"absent"'::jsonb) <> r.master AS conflict
      FROM (
        SELECT r.*,
          NOT EXISTS (SELECT FROM flights f WHERE f.id = r.id AND (NOT f.deleted OR r.deleted)) AS refused,
          (SELECT CASE WHEN m.deleted THEN '"absent"'::jsonb ELSE jsonb_build_array(m.amount) END
           FROM cart_lines m WHERE m.user_id = owner AND m.flight_id = r.id) AS master
        FROM ROWS FROM (jsonb_to_recordset(rows) AS (id uuid, deleted boolean, amount int, assumed jsonb))
             WITH ORDINALITY AS r(id, deleted, amount, assumed, ord)
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
           array_agg(j.deleted ORDER BY j.ord) FILTER (WHERE NOT j.conflict)
    INTO foreign_preferences, conflicts, themes, deletions
    FROM (
      SELECT r.id, r.ord, r.deleted, r.theme,
             r.master IS NOT NULL
               AND NOT (r.assumed IS NULL AND r.master = '"absent"')
               AND coalesce(r.assumed, '"absent"'::jsonb) <> r.master AS conflict
      FROM (
        SELECT r.*,
          (SELECT CASE WHEN m.deleted THEN '"absent"'::jsonb ELSE jsonb_build_array(m.theme) END
           FROM preferences m WHERE m.user_id = owner) AS master
        FROM ROWS FROM (jsonb_to_recordset(rows) AS (id uuid, deleted boolean, theme text, assumed jsonb))
             WITH ORDINALITY AS r(id, deleted, theme, assumed, ord)
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

  -- The writes of 017, set by set in push order: only the customer's own fields are taken, a row
  -- already as pushed is left alone (no new revision), and a statement with nothing to write is not
  -- run. (A NULL array: no such row.)
  IF collection = 'favourites' THEN
    IF removals IS NOT NULL THEN
      UPDATE favourites SET deleted = true
      WHERE user_id = owner AND NOT deleted AND flight_id = ANY (removals);
    END IF;
    IF keeps IS NOT NULL THEN
      INSERT INTO favourites (user_id, flight_id)
      SELECT owner, k.id FROM unnest(keeps) WITH ORDINALITY AS k(id, ord) ORDER BY k.ord
      ON CONFLICT (user_id, flight_id) DO UPDATE SET deleted = false, created_at = now()
      WHERE favourites.deleted;
    END IF;
  ELSIF collection = 'cart' THEN
    IF removals IS NOT NULL THEN
      UPDATE cart_lines SET deleted = true, updated_at = now()
      WHERE user_id = owner AND NOT deleted AND flight_id = ANY (removals);
    END IF;
    IF keeps IS NOT NULL THEN
      -- The amount is the customer's; stock is checked at checkout, which refuses what is short.
      INSERT INTO cart_lines (user_id, flight_id, amount)
      SELECT owner, k.id, k.amount FROM unnest(keeps, amounts) WITH ORDINALITY AS k(id, amount, ord)
      ORDER BY k.ord
      ON CONFLICT (user_id, flight_id) DO UPDATE SET amount = EXCLUDED.amount, deleted = false, updated_at = now()
      WHERE cart_lines.deleted OR cart_lines.amount <> EXCLUDED.amount;
    END IF;
  ELSIF themes IS NOT NULL THEN
    INSERT INTO preferences (user_id, theme, deleted)
    SELECT owner, p.theme, p.deleted FROM unnest(themes, deletions) AS p(theme, deleted)
    ON CONFLICT (user_id) DO UPDATE SET theme = EXCLUDED.theme, deleted = EXCLUDED.deleted, updated_at = now()
    WHERE preferences.theme <> EXCLUDED.theme OR preferences.deleted <> EXCLUDED.deleted;
  END IF;

  RETURN jsonb_build_object('refused', coalesce(to_jsonb(refused), '[]'::jsonb),
                            'conflicts', coalesce(to_jsonb(conflicts), '[]'::jsonb));
END
$$;
