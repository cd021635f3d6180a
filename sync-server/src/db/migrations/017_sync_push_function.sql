-- One statement per sync push (issue 15, docs/decisions/019-one-statement-push.md): the partition
-- lock, the flight check, the conflict check against the assumed master states and the writes of a
-- push to favourites, cart or preferences run in one function call, instead of one statement (and
-- for the writes a second round trip) each. The server (sync/push.ts) still validates the body with
-- the shared schemas, checks ownership and ids, and reads the documents back with the same query as
-- a pull, in the same transaction (sync/documents.ts): the document shape lives in one place.
-- Review drafts keep their own path (their review rules are the server's TypeScript).
--
-- `rows` is a JSON array in push order, one object per row:
--   id       the document id: the flight id (favourites, cart) or the user id (preferences)
--   deleted  the pushed document's `_deleted`
--   amount   a cart line's amount (cart only); theme: the theme (preferences only)
--   assumed  the assumed master state's owned fields as push.ts `ownedKey` builds them: a JSON array
--            of their values, "absent" for a tombstone, null when the client assumed no document
-- `per_row`: refused rows are refused alone (the push report) instead of refusing the whole push.
--
-- Returns {"refused": [ids], "conflicts": [ids]}, each in push order; every other row was written.
-- When a row is refused and `per_row` is false, nothing is written: the caller refuses the push.

CREATE FUNCTION sync_push(collection text, partition text, rows jsonb, per_row boolean)
RETURNS jsonb
LANGUAGE plpgsql
-- The statements below are planned once per connection, not at every call: their plans do not
-- depend on the values (a push is 1 to 100 rows), and re-planning them (PostgreSQL's default for
-- the first calls, and whenever a custom plan looks cheaper) doubled the function's CPU time.
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  owner uuid := partition::uuid;
  row_count int;
  distinct_ids int;
  foreign_preferences boolean;
  bad_amount boolean;
  refused jsonb;
  conflicts jsonb;
  accepted jsonb;
  removals int;
  keeps int;
BEGIN
  -- What push.ts refuses before it calls this; refused here too, so no caller writes past them.
  IF collection NOT IN ('favourites', 'cart', 'preferences') THEN
    RAISE EXCEPTION 'sync_push: % is not pushed through this function', collection
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF jsonb_typeof(rows) IS DISTINCT FROM 'array' OR jsonb_array_length(rows) NOT BETWEEN 1 AND 100 THEN
    RAISE EXCEPTION 'sync_push: rows must be an array of 1 to 100 rows (PUSH_MAX_ROWS)'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT count(*), count(DISTINCT e->>'id'),
         coalesce(bool_or(collection = 'preferences' AND (e->>'id')::uuid <> owner), false),
         -- CART_LINE_MAX_AMOUNT of shared (the table itself only requires a positive amount).
         coalesce(bool_or(collection = 'cart' AND NOT (e->>'deleted')::boolean
                          AND (e->>'amount')::int NOT BETWEEN 1 AND 1000), false)
  INTO row_count, distinct_ids, foreign_preferences, bad_amount
  FROM jsonb_array_elements(rows) e;
  IF distinct_ids <> row_count THEN
    RAISE EXCEPTION 'sync_push: a document appears twice' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF foreign_preferences THEN
    RAISE EXCEPTION 'sync_push: a preferences id must be the user id'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF bad_amount THEN
    RAISE EXCEPTION 'sync_push: a cart line holds 1 to 1000 tickets'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;

  -- First, before any read: nobody else changes this partition's documents until we commit
  -- (010 migration; the REST cart and checkout take the same lock).
  PERFORM lock_partition(partition);

  WITH input AS (
    SELECT e AS row, x.ord, (e->>'id')::uuid AS id, (e->>'deleted')::boolean AS deleted,
           nullif(e->'assumed', 'null'::jsonb) AS assumed
    FROM jsonb_array_elements(rows) WITH ORDINALITY AS x(e, ord)
  ),
  -- Materialized: each row's flight check and current document are read once (an inlined CTE
  -- repeats its expressions, and so their subqueries, wherever a column is used below).
  judged AS MATERIALIZED (
    SELECT i.*,
      -- A kept favourite or cart line must name a flight in the catalogue; removing the line of a
      -- deleted flight is how a customer drops it. A deletion that commits between this check and
      -- the write is still seen: the line's document reads its flight when pulled and says
      -- `flightDeleted` (sync/documents.ts), and checkout refuses the flight.
      collection IN ('favourites', 'cart') AND NOT EXISTS (
        SELECT FROM flights f WHERE f.id = i.id AND (NOT f.deleted OR i.deleted)) AS refused,
      -- The current document's owned fields, as push.ts `ownedKey` builds them; null: no document.
      CASE collection
        WHEN 'favourites' THEN (SELECT CASE WHEN m.deleted THEN '"absent"'::jsonb ELSE '[]'::jsonb END
                                FROM favourites m WHERE m.user_id = owner AND m.flight_id = i.id)
        WHEN 'cart' THEN (SELECT CASE WHEN m.deleted THEN '"absent"'::jsonb ELSE jsonb_build_array(m.amount) END
                          FROM cart_lines m WHERE m.user_id = owner AND m.flight_id = i.id)
        ELSE (SELECT CASE WHEN m.deleted THEN '"absent"'::jsonb ELSE jsonb_build_array(m.theme) END
              FROM preferences m WHERE m.user_id = owner)
      END AS master
    FROM input i
  ),
  decided AS MATERIALIZED (
    SELECT j.*,
      -- push.ts `isConflict`: the client derived the row from a state that is no longer ours. A
      -- document we never had, or only as a tombstone the client did not see, is no conflict.
      NOT j.refused AND j.master IS NOT NULL
        AND NOT (j.assumed IS NULL AND j.master = '"absent"')
        AND coalesce(j.assumed, '"absent"'::jsonb) <> j.master AS conflict
    FROM judged j
  )
  SELECT coalesce(jsonb_agg(d.id ORDER BY d.ord) FILTER (WHERE d.refused), '[]'),
         coalesce(jsonb_agg(d.id ORDER BY d.ord) FILTER (WHERE d.conflict), '[]'),
         coalesce(jsonb_agg(d.row ORDER BY d.ord) FILTER (WHERE NOT d.refused AND NOT d.conflict), '[]'),
         count(*) FILTER (WHERE NOT d.refused AND NOT d.conflict AND d.deleted),
         count(*) FILTER (WHERE NOT d.refused AND NOT d.conflict AND NOT d.deleted)
  INTO refused, conflicts, accepted, removals, keeps
  FROM decided d;

  IF jsonb_array_length(refused) > 0 AND NOT per_row THEN
    RETURN jsonb_build_object('refused', refused, 'conflicts', '[]'::jsonb);
  END IF;

  -- The writes of push.ts before this function, set by set: only the customer's own fields are
  -- taken, and a row already as pushed is left alone (no new revision, no notification). A
  -- statement with nothing to write is not run (each costs about as much as the checks above).
  IF collection = 'favourites' AND removals > 0 THEN
    UPDATE favourites SET deleted = true
    WHERE user_id = owner AND NOT deleted AND flight_id IN (
      SELECT (e->>'id')::uuid FROM jsonb_array_elements(accepted) e WHERE (e->>'deleted')::boolean);
  END IF;
  IF collection = 'favourites' AND keeps > 0 THEN
    INSERT INTO favourites (user_id, flight_id)
    SELECT owner, (e->>'id')::uuid FROM jsonb_array_elements(accepted) WITH ORDINALITY AS x(e, ord)
    WHERE NOT (e->>'deleted')::boolean ORDER BY x.ord
    ON CONFLICT (user_id, flight_id) DO UPDATE SET deleted = false, created_at = now()
    WHERE favourites.deleted;
  END IF;
  IF collection = 'cart' AND removals > 0 THEN
    UPDATE cart_lines SET deleted = true, updated_at = now()
    WHERE user_id = owner AND NOT deleted AND flight_id IN (
      SELECT (e->>'id')::uuid FROM jsonb_array_elements(accepted) e WHERE (e->>'deleted')::boolean);
  END IF;
  IF collection = 'cart' AND keeps > 0 THEN
    -- The amount is the customer's; stock is checked at checkout, which refuses what is short.
    INSERT INTO cart_lines (user_id, flight_id, amount)
    SELECT owner, (e->>'id')::uuid, (e->>'amount')::int
    FROM jsonb_array_elements(accepted) WITH ORDINALITY AS x(e, ord)
    WHERE NOT (e->>'deleted')::boolean ORDER BY x.ord
    ON CONFLICT (user_id, flight_id) DO UPDATE SET amount = EXCLUDED.amount, deleted = false, updated_at = now()
    WHERE cart_lines.deleted OR cart_lines.amount <> EXCLUDED.amount;
  END IF;
  IF collection = 'preferences' AND removals + keeps > 0 THEN
    INSERT INTO preferences (user_id, theme, deleted)
    SELECT owner, e->>'theme', (e->>'deleted')::boolean FROM jsonb_array_elements(accepted) e
    ON CONFLICT (user_id) DO UPDATE SET theme = EXCLUDED.theme, deleted = EXCLUDED.deleted, updated_at = now()
    WHERE preferences.theme <> EXCLUDED.theme OR preferences.deleted <> EXCLUDED.deleted;
  END IF;

  RETURN jsonb_build_object('refused', refused, 'conflicts', conflicts);
END
$$;
