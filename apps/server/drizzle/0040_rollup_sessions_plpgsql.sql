-- rollup_sessions (0031) as PL/pgSQL with a generic plan: the same statement, planned once per
-- connection. As a LANGUAGE sql function it was parsed and planned on every call (PostgreSQL 15
-- keeps no plan of a SQL function between calls), and planning its upserts with the shares of
-- session_rollup_share inlined cost a one-row Start ~3-6 ms of PostgreSQL's CPU while running
-- them took ~0.3 ms. In PL/pgSQL the plan cache keeps it, and force_generic_plan keeps it
-- generic: with auto, the cache kept re-planning, since a custom plan for a one-element array
-- looks cheaper than the generic plan's estimate of unnest (10 rows). The plan's shape does not
-- depend on the arrays' lengths (hash aggregates, sorts, one upsert per row).
CREATE OR REPLACE FUNCTION "rollup_sessions"(added "parking_sessions"[], removed "parking_sessions"[]) RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  WITH c AS (
    SELECT c.operator_id, c.zone_id, c.hour, min(c.local_day) AS local_day, min(c.local_hour) AS local_hour,
      sum(c.sessions_started)::bigint AS sessions_started, sum(c.stay_seconds)::bigint AS stay_seconds, sum(c.parking_cents)::bigint AS parking_cents, sum(c.fee_cents)::bigint AS fee_cents, sum(c.refunded_cents)::bigint AS refunded_cents, sum(c.discount_cents)::bigint AS discount_cents, sum(c.occupied_seconds)::bigint AS occupied_seconds
    FROM (
      SELECT x.* FROM unnest(added) s CROSS JOIN LATERAL session_rollup_share(s, 1) x
      UNION ALL
      SELECT x.* FROM unnest(removed) s CROSS JOIN LATERAL session_rollup_share(s, -1) x
    ) c
    GROUP BY c.operator_id, c.zone_id, c.hour
    HAVING sum(c.sessions_started) <> 0 OR sum(c.stay_seconds) <> 0 OR sum(c.parking_cents) <> 0 OR sum(c.fee_cents) <> 0 OR sum(c.refunded_cents) <> 0 OR sum(c.discount_cents) <> 0 OR sum(c.occupied_seconds) <> 0
  ), hourly AS (
    INSERT INTO "operator_hourly_rollups" AS r ("operator_id", "zone_id", "hour", "sessions_started", "stay_seconds", "parking_cents", "fee_cents", "refunded_cents", "discount_cents", "occupied_seconds")
    SELECT c.operator_id, c.zone_id, c.hour, c.sessions_started, c.stay_seconds, c.parking_cents, c.fee_cents, c.refunded_cents, c.discount_cents, c.occupied_seconds FROM c
    ORDER BY c.operator_id, c.hour, c.zone_id
    ON CONFLICT ("operator_id", "hour", "zone_id") DO UPDATE SET
    "sessions_started" = r."sessions_started" + excluded."sessions_started",
    "stay_seconds" = r."stay_seconds" + excluded."stay_seconds",
    "parking_cents" = r."parking_cents" + excluded."parking_cents",
    "fee_cents" = r."fee_cents" + excluded."fee_cents",
    "refunded_cents" = r."refunded_cents" + excluded."refunded_cents",
    "discount_cents" = r."discount_cents" + excluded."discount_cents",
    "occupied_seconds" = r."occupied_seconds" + excluded."occupied_seconds"
  )
  INSERT INTO "operator_daily_rollups" AS r ("operator_id", "zone_id", "day", "sessions_started", "stay_seconds", "parking_cents", "fee_cents", "refunded_cents", "discount_cents", "occupied_seconds",
    "occupied_h00", "occupied_h01", "occupied_h02", "occupied_h03", "occupied_h04", "occupied_h05", "occupied_h06", "occupied_h07", "occupied_h08", "occupied_h09", "occupied_h10", "occupied_h11", "occupied_h12", "occupied_h13", "occupied_h14", "occupied_h15", "occupied_h16", "occupied_h17", "occupied_h18", "occupied_h19", "occupied_h20", "occupied_h21", "occupied_h22", "occupied_h23")
  SELECT c.operator_id, c.zone_id, c.local_day, sum(c.sessions_started), sum(c.stay_seconds), sum(c.parking_cents), sum(c.fee_cents), sum(c.refunded_cents), sum(c.discount_cents), sum(c.occupied_seconds),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 0), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 1), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 2), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 3), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 4), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 5), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 6), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 7), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 8), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 9), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 10), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 11), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 12), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 13), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 14), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 15), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 16), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 17), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 18), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 19), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 20), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 21), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 22), 0),
    coalesce(sum(c.occupied_seconds) FILTER (WHERE c.local_hour = 23), 0)
  FROM c
  GROUP BY c.operator_id, c.zone_id, c.local_day
  ORDER BY c.operator_id, c.local_day, c.zone_id
  ON CONFLICT ("operator_id", "day", "zone_id") DO UPDATE SET
    "sessions_started" = r."sessions_started" + excluded."sessions_started",
    "stay_seconds" = r."stay_seconds" + excluded."stay_seconds",
    "parking_cents" = r."parking_cents" + excluded."parking_cents",
    "fee_cents" = r."fee_cents" + excluded."fee_cents",
    "refunded_cents" = r."refunded_cents" + excluded."refunded_cents",
    "discount_cents" = r."discount_cents" + excluded."discount_cents",
    "occupied_seconds" = r."occupied_seconds" + excluded."occupied_seconds",
    "occupied_h00" = r."occupied_h00" + excluded."occupied_h00",
    "occupied_h01" = r."occupied_h01" + excluded."occupied_h01",
    "occupied_h02" = r."occupied_h02" + excluded."occupied_h02",
    "occupied_h03" = r."occupied_h03" + excluded."occupied_h03",
    "occupied_h04" = r."occupied_h04" + excluded."occupied_h04",
    "occupied_h05" = r."occupied_h05" + excluded."occupied_h05",
    "occupied_h06" = r."occupied_h06" + excluded."occupied_h06",
    "occupied_h07" = r."occupied_h07" + excluded."occupied_h07",
    "occupied_h08" = r."occupied_h08" + excluded."occupied_h08",
    "occupied_h09" = r."occupied_h09" + excluded."occupied_h09",
    "occupied_h10" = r."occupied_h10" + excluded."occupied_h10",
    "occupied_h11" = r."occupied_h11" + excluded."occupied_h11",
    "occupied_h12" = r."occupied_h12" + excluded."occupied_h12",
    "occupied_h13" = r."occupied_h13" + excluded."occupied_h13",
    "occupied_h14" = r."occupied_h14" + excluded."occupied_h14",
    "occupied_h15" = r."occupied_h15" + excluded."occupied_h15",
    "occupied_h16" = r."occupied_h16" + excluded."occupied_h16",
    "occupied_h17" = r."occupied_h17" + excluded."occupied_h17",
    "occupied_h18" = r."occupied_h18" + excluded."occupied_h18",
    "occupied_h19" = r."occupied_h19" + excluded."occupied_h19",
    "occupied_h20" = r."occupied_h20" + excluded."occupied_h20",
    "occupied_h21" = r."occupied_h21" + excluded."occupied_h21",
    "occupied_h22" = r."occupied_h22" + excluded."occupied_h22",
    "occupied_h23" = r."occupied_h23" + excluded."occupied_h23";
END $$;
