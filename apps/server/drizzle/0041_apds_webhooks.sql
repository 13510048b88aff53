CREATE TABLE "apds_webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"event_id" uuid NOT NULL,
	"topic" text NOT NULL,
	"object_id" integer NOT NULL,
	"data" jsonb NOT NULL,
	"event_time" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "apds_webhook_deliveries_status_check" CHECK ("apds_webhook_deliveries"."status" IN ('pending', 'dead'))
);
--> statement-breakpoint
CREATE TABLE "apds_webhooks" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"topics" text[] NOT NULL,
	"hierarchy" jsonb,
	"include_children" boolean DEFAULT false NOT NULL,
	"zone_ids" integer[],
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "apds_webhook_deliveries" ADD CONSTRAINT "apds_webhook_deliveries_subscription_id_apds_webhooks_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."apds_webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apds_webhooks" ADD CONSTRAINT "apds_webhooks_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "apds_webhook_deliveries_pending_idx" ON "apds_webhook_deliveries" USING btree ("subscription_id","id") WHERE "apds_webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "apds_webhook_deliveries_dead_idx" ON "apds_webhook_deliveries" USING btree ("subscription_id","id") WHERE "apds_webhook_deliveries"."status" = 'dead';--> statement-breakpoint
CREATE INDEX "apds_webhooks_operator_idx" ON "apds_webhooks" USING btree ("operator_id");--> statement-breakpoint
-- The webhook outbox's writer (docs/decisions/016-webhook-outbox.md): whatever writes
-- parking_sessions (Start's one statement, Extend, Stop, Amend, a refund, the expiry job, psql), its
-- events are written by the same statement, so they exist exactly when the change does. A session
-- inserted is SessionCreated; one whose APDS Session changed (times, money, vehicle, zone, status)
-- is SessionUpdated; a job marking a reminder sent is not an event. One row per subscription of the
-- session's operator that takes the topic and the zone, all with the change's one event_id. With no
-- subscription at all the function returns at its first statement.
CREATE FUNCTION "parking_sessions_apds_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "apds_webhooks") THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    WITH e AS MATERIALIZED (
      SELECT n.id, n.operator_id, n.zone_id, gen_random_uuid() AS event_id, to_jsonb(n) AS row FROM new_rows n
    )
    INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
    SELECT w.id, e.event_id, 'SessionCreated', e.id,
      e.row - 'guest_phone' - 'card_ref' - 'member_id' - 'vehicle_id', now()
    FROM e JOIN "apds_webhooks" w ON w.operator_id = e.operator_id
      AND 'SessionCreated' = ANY (w.topics) AND (w.zone_ids IS NULL OR e.zone_id = ANY (w.zone_ids))
    ORDER BY e.id, w.id;
  ELSE
    WITH e AS MATERIALIZED (
      SELECT n.id, n.operator_id, n.zone_id, gen_random_uuid() AS event_id, to_jsonb(n) AS row
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.zone_id, n.plate, n.plate_state, n.vehicle_make, n.vehicle_model, n.started_at, n.ends_at, n.ended_at,
             n.duration_minutes, n.parking_cents, n.refunded_cents, n.status)
        IS DISTINCT FROM
            (o.zone_id, o.plate, o.plate_state, o.vehicle_make, o.vehicle_model, o.started_at, o.ends_at, o.ended_at,
             o.duration_minutes, o.parking_cents, o.refunded_cents, o.status)
    )
    INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
    SELECT w.id, e.event_id, 'SessionUpdated', e.id,
      e.row - 'guest_phone' - 'card_ref' - 'member_id' - 'vehicle_id', now()
    FROM e JOIN "apds_webhooks" w ON w.operator_id = e.operator_id
      AND 'SessionUpdated' = ANY (w.topics) AND (w.zone_ids IS NULL OR e.zone_id = ANY (w.zone_ids))
    ORDER BY e.id, w.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "parking_sessions_apds_insert" AFTER INSERT ON "parking_sessions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "parking_sessions_apds_events"();
--> statement-breakpoint
CREATE TRIGGER "parking_sessions_apds_update" AFTER UPDATE ON "parking_sessions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "parking_sessions_apds_events"();
