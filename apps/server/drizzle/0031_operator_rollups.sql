CREATE TABLE "operator_daily_rollups" (
	"operator_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"day" date NOT NULL,
	"sessions_started" bigint DEFAULT 0 NOT NULL,
	"stay_seconds" bigint DEFAULT 0 NOT NULL,
	"parking_cents" bigint DEFAULT 0 NOT NULL,
	"fee_cents" bigint DEFAULT 0 NOT NULL,
	"refunded_cents" bigint DEFAULT 0 NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"occupied_seconds" bigint DEFAULT 0 NOT NULL,
	"occupied_h00" bigint DEFAULT 0 NOT NULL,
	"occupied_h01" bigint DEFAULT 0 NOT NULL,
	"occupied_h02" bigint DEFAULT 0 NOT NULL,
	"occupied_h03" bigint DEFAULT 0 NOT NULL,
	"occupied_h04" bigint DEFAULT 0 NOT NULL,
	"occupied_h05" bigint DEFAULT 0 NOT NULL,
	"occupied_h06" bigint DEFAULT 0 NOT NULL,
	"occupied_h07" bigint DEFAULT 0 NOT NULL,
	"occupied_h08" bigint DEFAULT 0 NOT NULL,
	"occupied_h09" bigint DEFAULT 0 NOT NULL,
	"occupied_h10" bigint DEFAULT 0 NOT NULL,
	"occupied_h11" bigint DEFAULT 0 NOT NULL,
	"occupied_h12" bigint DEFAULT 0 NOT NULL,
	"occupied_h13" bigint DEFAULT 0 NOT NULL,
	"occupied_h14" bigint DEFAULT 0 NOT NULL,
	"occupied_h15" bigint DEFAULT 0 NOT NULL,
	"occupied_h16" bigint DEFAULT 0 NOT NULL,
	"occupied_h17" bigint DEFAULT 0 NOT NULL,
	"occupied_h18" bigint DEFAULT 0 NOT NULL,
	"occupied_h19" bigint DEFAULT 0 NOT NULL,
	"occupied_h20" bigint DEFAULT 0 NOT NULL,
	"occupied_h21" bigint DEFAULT 0 NOT NULL,
	"occupied_h22" bigint DEFAULT 0 NOT NULL,
	"occupied_h23" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "operator_daily_rollups_operator_id_day_zone_id_pk" PRIMARY KEY("operator_id","day","zone_id")
);
--> statement-breakpoint
CREATE TABLE "operator_hourly_rollups" (
	"operator_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"sessions_started" bigint DEFAULT 0 NOT NULL,
	"stay_seconds" bigint DEFAULT 0 NOT NULL,
	"parking_cents" bigint DEFAULT 0 NOT NULL,
	"fee_cents" bigint DEFAULT 0 NOT NULL,
	"refunded_cents" bigint DEFAULT 0 NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"occupied_seconds" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "operator_hourly_rollups_operator_id_hour_zone_id_pk" PRIMARY KEY("operator_id","hour","zone_id")
);
--> statement-breakpoint
CREATE INDEX "operator_hourly_rollups_zone_idx" ON "operator_hourly_rollups" USING btree ("operator_id","zone_id","hour");--> statement-breakpoint
CREATE INDEX "parking_sessions_operator_started_idx" ON "parking_sessions" USING btree ("operator_id","started_at");
--> statement-breakpoint
-- The operator's dashboard and reports (docs/reports.md#rollups) read sums that the database keeps
-- as sessions are written, whatever wrote them (Start's one statement, Extend, Stop, Amend, a
-- refund, the jobs, an import, psql): per operator, zone and UTC hour (operator_hourly_rollups) and
-- per operator, zone and the operator's day (operator_daily_rollups, what a 30-day report reads).
-- session_rollup_share is one session's share, the one rule both are summed from: its count, stay
-- and money in the hour it started, and the seconds it was parked in each hour it covers (to
-- ended_at, or to ends_at while it runs), each hour with its day and hour in the operator's time
-- zone. The discount is not stored with the session, only its percent: it is what that percent
-- took off the undiscounted price, parking_cents * p / (100 - p), rounded.
CREATE FUNCTION "session_rollup_share"(s "parking_sessions", sign integer)
RETURNS TABLE (
  "operator_id" integer, "zone_id" integer, "hour" timestamptz, "local_day" date, "local_hour" integer,
  "sessions_started" bigint, "stay_seconds" bigint, "parking_cents" bigint, "fee_cents" bigint,
  "refunded_cents" bigint, "discount_cents" bigint, "occupied_seconds" bigint
) LANGUAGE sql STABLE AS $$
  WITH span AS (
    SELECT s.started_at AS a, greatest(coalesce(s.ended_at, s.ends_at), s.started_at) AS b,
           date_trunc('hour', s.started_at, 'UTC') AS first_hour,
           (SELECT o.timezone FROM operators o WHERE o.id = s.operator_id) AS tz
  )
  SELECT s.operator_id, s.zone_id, h, (h AT TIME ZONE span.tz)::date, extract(hour FROM h AT TIME ZONE span.tz)::int,
    (CASE WHEN h = span.first_hour THEN sign ELSE 0 END)::bigint,
    (CASE WHEN h = span.first_hour THEN sign * round(extract(epoch FROM span.b - span.a)) ELSE 0 END)::bigint,
    (CASE WHEN h = span.first_hour THEN sign * s.parking_cents ELSE 0 END)::bigint,
    (CASE WHEN h = span.first_hour THEN sign * s.fee_cents ELSE 0 END)::bigint,
    (CASE WHEN h = span.first_hour THEN sign * s.refunded_cents ELSE 0 END)::bigint,
    (CASE WHEN h = span.first_hour AND s.discount_percent BETWEEN 1 AND 99
          THEN sign * round(s.parking_cents * s.discount_percent / (100.0 - s.discount_percent)) ELSE 0 END)::bigint,
    (sign * round(extract(epoch FROM least(span.b, h + interval '1 hour') - greatest(span.a, h))))::bigint
  FROM span, generate_series(span.first_hour, greatest(span.b - interval '1 microsecond', span.a), interval '1 hour') h
$$;
--> statement-breakpoint
-- Adds the shares of `added` and takes off those of `removed` in both tables, one statement, each
-- upsert in key order (two writers lock the rows they share in the same order, hourly then daily);
-- an hour whose sums do not move is skipped.
CREATE FUNCTION "rollup_sessions"(added "parking_sessions"[], removed "parking_sessions"[]) RETURNS void
LANGUAGE sql AS $$
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
    "occupied_h23" = r."occupied_h23" + excluded."occupied_h23"
$$;
--> statement-breakpoint
-- The triggers hand rollup_sessions what a statement wrote (its transition tables); an update
-- hands on only the rows whose shares can have moved.
CREATE FUNCTION "parking_sessions_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
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
CREATE TRIGGER "parking_sessions_rollup_insert" AFTER INSERT ON "parking_sessions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "parking_sessions_rollup"();
--> statement-breakpoint
CREATE TRIGGER "parking_sessions_rollup_delete" AFTER DELETE ON "parking_sessions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "parking_sessions_rollup"();
--> statement-breakpoint
CREATE TRIGGER "parking_sessions_rollup_update" AFTER UPDATE ON "parking_sessions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "parking_sessions_rollup"();
--> statement-breakpoint
CREATE TRIGGER "parking_sessions_rollup_truncate" AFTER TRUNCATE ON "parking_sessions" FOR EACH STATEMENT EXECUTE FUNCTION "parking_sessions_rollup"();
--> statement-breakpoint
-- The sessions written before this migration (and a bench's bulk load), summed from the same
-- shares in grouped inserts (no array of every session in memory). rollup_rebuild() empties both
-- tables and sums every session again.
CREATE FUNCTION "rollup_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
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
SELECT rollup_rebuild();
