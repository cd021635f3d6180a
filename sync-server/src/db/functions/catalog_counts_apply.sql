-- The catalogue's maintained counts (011 migration, docs/decisions/003-catalog-queries.md): adds
-- +1/-1 per flight (`signs`; 0 = not listed, ignored) to every grouping of each flight in
-- catalog_airline_counts and catalog_place_counts. One upsert per table, keys in a fixed order (so
-- two writers lock shared rows in the same order), and groups whose net change is zero (a listed
-- flight whose price moved within its band) are left alone. Called by the flights' count triggers
-- (catalog_counts_statement.sql, catalog_counts_row_update.sql).
--
-- A SQL function: its body is checked when it is created, so catalog_price_band must exist then
-- (the 002 migration creates it before any file here runs).
--
-- This file is the function's one home (decision 033): edit it in place, db/migrate.ts re-applies
-- it when its text changes. Earlier definition: 011 migration.

CREATE OR REPLACE FUNCTION catalog_counts_apply(
  airline_ids uuid[], origins text[], destinations text[], prices bigint[], signs integer[]
) RETURNS void
LANGUAGE sql AS $$
  WITH deltas AS (
    SELECT u.a, lower(u.o) COLLATE "C" AS o, lower(u.d) COLLATE "C" AS d,
           CASE WHEN catalog_price_band(u.p) = 'low' THEN u.s ELSE 0 END AS l,
           CASE WHEN catalog_price_band(u.p) = 'mid' THEN u.s ELSE 0 END AS m,
           CASE WHEN catalog_price_band(u.p) = 'high' THEN u.s ELSE 0 END AS h
    FROM unnest(airline_ids, origins, destinations, prices, signs) AS u (a, o, d, p, s)
    WHERE u.s <> 0
  ), by_airline AS (
    INSERT INTO catalog_airline_counts AS c (airline_id, low, mid, high)
    SELECT a, sum(l), sum(m), sum(h) FROM deltas
    GROUP BY a HAVING sum(l) <> 0 OR sum(m) <> 0 OR sum(h) <> 0 ORDER BY a
    ON CONFLICT (airline_id) DO UPDATE
      SET low = c.low + EXCLUDED.low, mid = c.mid + EXCLUDED.mid, high = c.high + EXCLUDED.high
  )
  INSERT INTO catalog_place_counts AS c (airline_id, origin_key, destination_key, low, mid, high)
  SELECT a, o, d, sum(l), sum(m), sum(h) FROM deltas
  GROUP BY GROUPING SETS ((o), (d), (o, d), (a, o), (a, d), (a, o, d))
  HAVING sum(l) <> 0 OR sum(m) <> 0 OR sum(h) <> 0
  ORDER BY a NULLS FIRST, o NULLS FIRST, d NULLS FIRST
  ON CONFLICT ON CONSTRAINT catalog_place_counts_key DO UPDATE
    SET low = c.low + EXCLUDED.low, mid = c.mid + EXCLUDED.mid, high = c.high + EXCLUDED.high
$$;
