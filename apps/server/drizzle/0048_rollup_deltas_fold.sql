-- Starts in one zone and hour no longer queue on one rollup row (docs/reports.md#rollups). The
-- triggers of parking_sessions used to upsert operator_hourly_rollups and operator_daily_rollups in
-- the writing statement, so every Start in a zone and hour updated the same two rows and held their
-- locks until it committed: concurrent Starts there ran one after the other. rollup_sessions now
-- appends the statement's shares to operator_rollup_deltas (an insert, no shared row);
-- fold_rollup_deltas, run by the job reports.fold-rollups, moves a batch of them into the two
-- tables in one statement; and readers read the views operator_hourly_totals and
-- operator_daily_totals, the folded sums plus the shares not folded yet, so a report is exact at
-- any moment. The shares are the same session_rollup_share rows as before.
CREATE OR REPLACE FUNCTION "rollup_sessions"(added "parking_sessions"[], removed "parking_sessions"[]) RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO "operator_rollup_deltas" ("operator_id", "zone_id", "hour", "local_day", "local_hour", "sessions_started", "stay_seconds", "parking_cents", "fee_cents", "refunded_cents", "discount_cents", "occupied_seconds")
  SELECT c.operator_id, c.zone_id, c.hour, min(c.local_day), min(c.local_hour), sum(c.sessions_started), sum(c.stay_seconds), sum(c.parking_cents), sum(c.fee_cents), sum(c.refunded_cents), sum(c.discount_cents), sum(c.occupied_seconds)
  FROM (
    SELECT x.* FROM unnest(added) s CROSS JOIN LATERAL session_rollup_share(s, 1) x
    UNION ALL
    SELECT x.* FROM unnest(removed) s CROSS JOIN LATERAL session_rollup_share(s, -1) x
  ) c
  GROUP BY c.operator_id, c.zone_id, c.hour
  HAVING sum(c.sessions_started) <> 0 OR sum(c.stay_seconds) <> 0 OR sum(c.parking_cents) <> 0 OR sum(c.fee_cents) <> 0 OR sum(c.refunded_cents) <> 0 OR sum(c.discount_cents) <> 0 OR sum(c.occupied_seconds) <> 0;
END $$;
--> statement-breakpoint
-- Moves up to `batch` of the oldest shares into the rollups: deleted, summed per operator, zone
-- and hour, and upserted in key order exactly as rollup_sessions did before, in one statement.
-- SKIP LOCKED: two folds at once (two servers) take different shares and never wait on each other.
-- Returns how many shares it moved.
CREATE FUNCTION "fold_rollup_deltas"(batch integer) RETURNS integer
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE folded integer;
BEGIN
  WITH d AS (
    DELETE FROM "operator_rollup_deltas" WHERE "id" IN (
      SELECT "id" FROM "operator_rollup_deltas" ORDER BY "id" LIMIT batch FOR UPDATE SKIP LOCKED)
    RETURNING *
  ), c AS (
    SELECT d.operator_id, d.zone_id, d.hour, min(d.local_day) AS local_day, min(d.local_hour) AS local_hour,
      sum(d.sessions_started)::bigint AS sessions_started, sum(d.stay_seconds)::bigint AS stay_seconds, sum(d.parking_cents)::bigint AS parking_cents, sum(d.fee_cents)::bigint AS fee_cents, sum(d.refunded_cents)::bigint AS refunded_cents, sum(d.discount_cents)::bigint AS discount_cents, sum(d.occupied_seconds)::bigint AS occupied_seconds
    FROM d
    GROUP BY d.operator_id, d.zone_id, d.hour
    HAVING sum(d.sessions_started) <> 0 OR sum(d.stay_seconds) <> 0 OR sum(d.parking_cents) <> 0 OR sum(d.fee_cents) <> 0 OR sum(d.refunded_cents) <> 0 OR sum(d.discount_cents) <> 0 OR sum(d.occupied_seconds) <> 0
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
  ), daily AS (
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
    "occupied_h23" = r."occupied_h23" + excluded."occupied_h23"
    RETURNING 1
  )
  SELECT count(*) INTO folded FROM d;
  RETURN folded;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "parking_sessions_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "operator_rollup_deltas";
    DELETE FROM "operator_hourly_rollups";
    DELETE FROM "operator_daily_rollups";
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM rollup_sessions(ARRAY(SELECT n::"parking_sessions" FROM new_rows n), '{}'::"parking_sessions"[]);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM rollup_sessions('{}'::"parking_sessions"[], ARRAY(SELECT o::"parking_sessions" FROM old_rows o));
  ELSE
    PERFORM rollup_sessions(
      ARRAY(SELECT n::"parking_sessions" FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.operator_id, n.zone_id, n.started_at, n.ends_at, n.ended_at, n.parking_cents, n.fee_cents, n.refunded_cents, n.discount_percent) IS DISTINCT FROM (o.operator_id, o.zone_id, o.started_at, o.ends_at, o.ended_at, o.parking_cents, o.fee_cents, o.refunded_cents, o.discount_percent)),
      ARRAY(SELECT o::"parking_sessions" FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.operator_id, n.zone_id, n.started_at, n.ends_at, n.ended_at, n.parking_cents, n.fee_cents, n.refunded_cents, n.discount_percent) IS DISTINCT FROM (o.operator_id, o.zone_id, o.started_at, o.ends_at, o.ended_at, o.parking_cents, o.fee_cents, o.refunded_cents, o.discount_percent)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "operator_rollup_deltas";
  DELETE FROM "operator_hourly_rollups";
  DELETE FROM "operator_daily_rollups";
  CREATE TEMPORARY TABLE rollup_rebuild_shares AS
    SELECT x.* FROM "parking_sessions" s CROSS JOIN LATERAL session_rollup_share(s, 1) x;
  INSERT INTO "operator_hourly_rollups" ("operator_id", "zone_id", "hour", "sessions_started", "stay_seconds", "parking_cents", "fee_cents", "refunded_cents", "discount_cents", "occupied_seconds")
  SELECT x.operator_id, x.zone_id, x.hour, sum(x.sessions_started), sum(x.stay_seconds), sum(x.parking_cents), sum(x.fee_cents), sum(x.refunded_cents), sum(x.discount_cents), sum(x.occupied_seconds)
  FROM rollup_rebuild_shares x GROUP BY x.operator_id, x.zone_id, x.hour;
  INSERT INTO "operator_daily_rollups" ("operator_id", "zone_id", "day", "sessions_started", "stay_seconds", "parking_cents", "fee_cents", "refunded_cents", "discount_cents", "occupied_seconds",
    "occupied_h00", "occupied_h01", "occupied_h02", "occupied_h03", "occupied_h04", "occupied_h05", "occupied_h06", "occupied_h07", "occupied_h08", "occupied_h09", "occupied_h10", "occupied_h11", "occupied_h12", "occupied_h13", "occupied_h14", "occupied_h15", "occupied_h16", "occupied_h17", "occupied_h18", "occupied_h19", "occupied_h20", "occupied_h21", "occupied_h22", "occupied_h23")
  SELECT x.operator_id, x.zone_id, x.local_day, sum(x.sessions_started), sum(x.stay_seconds), sum(x.parking_cents), sum(x.fee_cents), sum(x.refunded_cents), sum(x.discount_cents), sum(x.occupied_seconds),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 0), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 1), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 2), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 3), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 4), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 5), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 6), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 7), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 8), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 9), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 10), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 11), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 12), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 13), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 14), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 15), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 16), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 17), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 18), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 19), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 20), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 21), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 22), 0),
  coalesce(sum(x.occupied_seconds) FILTER (WHERE x.local_hour = 23), 0)
  FROM rollup_rebuild_shares x GROUP BY x.operator_id, x.zone_id, x.local_day;
  DROP TABLE rollup_rebuild_shares;
END $$;
--> statement-breakpoint
-- What the dashboard, the reports and the CDS metrics read: the folded sums plus the shares not
-- folded yet, per operator, zone and UTC hour (the planner pushes a filter on these keys into both).
CREATE VIEW "operator_hourly_totals" AS
  SELECT operator_id, zone_id, hour, sum(sessions_started)::bigint AS sessions_started, sum(stay_seconds)::bigint AS stay_seconds, sum(parking_cents)::bigint AS parking_cents, sum(fee_cents)::bigint AS fee_cents, sum(refunded_cents)::bigint AS refunded_cents, sum(discount_cents)::bigint AS discount_cents, sum(occupied_seconds)::bigint AS occupied_seconds
  FROM (
    SELECT operator_id, zone_id, hour, sessions_started, stay_seconds, parking_cents, fee_cents, refunded_cents, discount_cents, occupied_seconds FROM "operator_hourly_rollups"
    UNION ALL
    SELECT operator_id, zone_id, hour, sessions_started, stay_seconds, parking_cents, fee_cents, refunded_cents, discount_cents, occupied_seconds FROM "operator_rollup_deltas"
  ) t
  GROUP BY operator_id, zone_id, hour;
--> statement-breakpoint
-- The same per operator, zone and the operator's day, with the seconds parked in each hour of it.
CREATE VIEW "operator_daily_totals" AS
  SELECT operator_id, zone_id, day, sum(sessions_started)::bigint AS sessions_started, sum(stay_seconds)::bigint AS stay_seconds, sum(parking_cents)::bigint AS parking_cents, sum(fee_cents)::bigint AS fee_cents, sum(refunded_cents)::bigint AS refunded_cents, sum(discount_cents)::bigint AS discount_cents, sum(occupied_seconds)::bigint AS occupied_seconds,
    sum(occupied_h00)::bigint AS occupied_h00, sum(occupied_h01)::bigint AS occupied_h01, sum(occupied_h02)::bigint AS occupied_h02, sum(occupied_h03)::bigint AS occupied_h03, sum(occupied_h04)::bigint AS occupied_h04, sum(occupied_h05)::bigint AS occupied_h05, sum(occupied_h06)::bigint AS occupied_h06, sum(occupied_h07)::bigint AS occupied_h07, sum(occupied_h08)::bigint AS occupied_h08, sum(occupied_h09)::bigint AS occupied_h09, sum(occupied_h10)::bigint AS occupied_h10, sum(occupied_h11)::bigint AS occupied_h11, sum(occupied_h12)::bigint AS occupied_h12, sum(occupied_h13)::bigint AS occupied_h13, sum(occupied_h14)::bigint AS occupied_h14, sum(occupied_h15)::bigint AS occupied_h15, sum(occupied_h16)::bigint AS occupied_h16, sum(occupied_h17)::bigint AS occupied_h17, sum(occupied_h18)::bigint AS occupied_h18, sum(occupied_h19)::bigint AS occupied_h19, sum(occupied_h20)::bigint AS occupied_h20, sum(occupied_h21)::bigint AS occupied_h21, sum(occupied_h22)::bigint AS occupied_h22, sum(occupied_h23)::bigint AS occupied_h23
  FROM (
    SELECT operator_id, zone_id, day, sessions_started, stay_seconds, parking_cents, fee_cents, refunded_cents, discount_cents, occupied_seconds, occupied_h00, occupied_h01, occupied_h02, occupied_h03, occupied_h04, occupied_h05, occupied_h06, occupied_h07, occupied_h08, occupied_h09, occupied_h10, occupied_h11, occupied_h12, occupied_h13, occupied_h14, occupied_h15, occupied_h16, occupied_h17, occupied_h18, occupied_h19, occupied_h20, occupied_h21, occupied_h22, occupied_h23 FROM "operator_daily_rollups"
    UNION ALL
    SELECT operator_id, zone_id, local_day AS day, sessions_started, stay_seconds, parking_cents, fee_cents, refunded_cents, discount_cents, occupied_seconds,
    CASE WHEN local_hour = 0 THEN occupied_seconds ELSE 0 END AS occupied_h00,
    CASE WHEN local_hour = 1 THEN occupied_seconds ELSE 0 END AS occupied_h01,
    CASE WHEN local_hour = 2 THEN occupied_seconds ELSE 0 END AS occupied_h02,
    CASE WHEN local_hour = 3 THEN occupied_seconds ELSE 0 END AS occupied_h03,
    CASE WHEN local_hour = 4 THEN occupied_seconds ELSE 0 END AS occupied_h04,
    CASE WHEN local_hour = 5 THEN occupied_seconds ELSE 0 END AS occupied_h05,
    CASE WHEN local_hour = 6 THEN occupied_seconds ELSE 0 END AS occupied_h06,
    CASE WHEN local_hour = 7 THEN occupied_seconds ELSE 0 END AS occupied_h07,
    CASE WHEN local_hour = 8 THEN occupied_seconds ELSE 0 END AS occupied_h08,
    CASE WHEN local_hour = 9 THEN occupied_seconds ELSE 0 END AS occupied_h09,
    CASE WHEN local_hour = 10 THEN occupied_seconds ELSE 0 END AS occupied_h10,
    CASE WHEN local_hour = 11 THEN occupied_seconds ELSE 0 END AS occupied_h11,
    CASE WHEN local_hour = 12 THEN occupied_seconds ELSE 0 END AS occupied_h12,
    CASE WHEN local_hour = 13 THEN occupied_seconds ELSE 0 END AS occupied_h13,
    CASE WHEN local_hour = 14 THEN occupied_seconds ELSE 0 END AS occupied_h14,
    CASE WHEN local_hour = 15 THEN occupied_seconds ELSE 0 END AS occupied_h15,
    CASE WHEN local_hour = 16 THEN occupied_seconds ELSE 0 END AS occupied_h16,
    CASE WHEN local_hour = 17 THEN occupied_seconds ELSE 0 END AS occupied_h17,
    CASE WHEN local_hour = 18 THEN occupied_seconds ELSE 0 END AS occupied_h18,
    CASE WHEN local_hour = 19 THEN occupied_seconds ELSE 0 END AS occupied_h19,
    CASE WHEN local_hour = 20 THEN occupied_seconds ELSE 0 END AS occupied_h20,
    CASE WHEN local_hour = 21 THEN occupied_seconds ELSE 0 END AS occupied_h21,
    CASE WHEN local_hour = 22 THEN occupied_seconds ELSE 0 END AS occupied_h22,
    CASE WHEN local_hour = 23 THEN occupied_seconds ELSE 0 END AS occupied_h23
    FROM "operator_rollup_deltas"
  ) t
  GROUP BY operator_id, zone_id, day;
