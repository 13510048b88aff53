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
-- The operator's dashboard and reports (docs/reports.md#rollups) read sums per operator, zone
-- and UTC hour that the database keeps as sessions are written, whatever wrote them (Start's one
-- statement, Extend, Stop, Amend, a refund, the jobs, an import, psql). session_rollup_share is
-- one session's share: its count, stay and money in the hour it started, and the seconds it was
-- parked in each hour it covers (to ended_at, or to ends_at while it runs). The discount is not
-- stored with the session, only its percent: it is what that percent took off the undiscounted
-- price, parking_cents * p / (100 - p), rounded.
CREATE FUNCTION "session_rollup_share"(s "parking_sessions", sign integer)
RETURNS TABLE (
  "operator_id" integer, "zone_id" integer, "hour" timestamptz, "sessions_started" bigint,
  "stay_seconds" bigint, "parking_cents" bigint, "fee_cents" bigint, "refunded_cents" bigint,
  "discount_cents" bigint, "occupied_seconds" bigint
) LANGUAGE sql STABLE AS $$
  WITH span AS (
    SELECT s.started_at AS a, greatest(coalesce(s.ended_at, s.ends_at), s.started_at) AS b,
           date_trunc('hour', s.started_at, 'UTC') AS first_hour
  )
  SELECT s.operator_id, s.zone_id, h,
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
-- Adds the shares of `added` and takes off those of `removed`, one upsert in key order (so two
-- writers lock the rows they share in the same order); an hour whose sums do not move is skipped.
CREATE FUNCTION "rollup_sessions"(added "parking_sessions"[], removed "parking_sessions"[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "operator_hourly_rollups" AS r ("operator_id", "zone_id", "hour", "sessions_started", "stay_seconds",
    "parking_cents", "fee_cents", "refunded_cents", "discount_cents", "occupied_seconds")
  SELECT c.operator_id, c.zone_id, c.hour, sum(c.sessions_started), sum(c.stay_seconds), sum(c.parking_cents),
    sum(c.fee_cents), sum(c.refunded_cents), sum(c.discount_cents), sum(c.occupied_seconds)
  FROM (
    SELECT x.* FROM unnest(added) s CROSS JOIN LATERAL session_rollup_share(s, 1) x
    UNION ALL
    SELECT x.* FROM unnest(removed) s CROSS JOIN LATERAL session_rollup_share(s, -1) x
  ) c
  GROUP BY c.operator_id, c.zone_id, c.hour
  HAVING sum(c.sessions_started) <> 0 OR sum(c.stay_seconds) <> 0 OR sum(c.parking_cents) <> 0
    OR sum(c.fee_cents) <> 0 OR sum(c.refunded_cents) <> 0 OR sum(c.discount_cents) <> 0 OR sum(c.occupied_seconds) <> 0
  ORDER BY c.operator_id, c.hour, c.zone_id
  ON CONFLICT ("operator_id", "hour", "zone_id") DO UPDATE SET
    "sessions_started" = r."sessions_started" + excluded."sessions_started",
    "stay_seconds" = r."stay_seconds" + excluded."stay_seconds",
    "parking_cents" = r."parking_cents" + excluded."parking_cents",
    "fee_cents" = r."fee_cents" + excluded."fee_cents",
    "refunded_cents" = r."refunded_cents" + excluded."refunded_cents",
    "discount_cents" = r."discount_cents" + excluded."discount_cents",
    "occupied_seconds" = r."occupied_seconds" + excluded."occupied_seconds"
$$;
--> statement-breakpoint
-- The triggers hand rollup_sessions what a statement wrote (its transition tables); an update
-- hands on only the rows whose shares can have moved.
CREATE FUNCTION "parking_sessions_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "operator_hourly_rollups";
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM rollup_sessions(ARRAY(SELECT n::"parking_sessions" FROM new_rows n), '{}'::"parking_sessions"[]);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM rollup_sessions('{}'::"parking_sessions"[], ARRAY(SELECT o::"parking_sessions" FROM old_rows o));
  ELSE
    PERFORM rollup_sessions(
      ARRAY(SELECT n::"parking_sessions" FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.operator_id, n.zone_id, n.started_at, n.ends_at, n.ended_at, n.parking_cents, n.fee_cents, n.refunded_cents, n.discount_percent)
          IS DISTINCT FROM (o.operator_id, o.zone_id, o.started_at, o.ends_at, o.ended_at, o.parking_cents, o.fee_cents, o.refunded_cents, o.discount_percent)),
      ARRAY(SELECT o::"parking_sessions" FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.operator_id, n.zone_id, n.started_at, n.ends_at, n.ended_at, n.parking_cents, n.fee_cents, n.refunded_cents, n.discount_percent)
          IS DISTINCT FROM (o.operator_id, o.zone_id, o.started_at, o.ends_at, o.ended_at, o.parking_cents, o.fee_cents, o.refunded_cents, o.discount_percent)));
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
-- The sessions written before this migration.
SELECT rollup_sessions(ARRAY(SELECT s FROM "parking_sessions" s), '{}'::"parking_sessions"[]);
