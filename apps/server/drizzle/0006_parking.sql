CREATE TABLE "parking_quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" integer,
	"guest_phone" text,
	"kind" text NOT NULL,
	"zone_id" integer NOT NULL,
	"vehicle_id" integer,
	"session_id" integer,
	"plate" text,
	"plate_state" text,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"parking_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"auto_start" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parking_quotes_kind_check" CHECK ("parking_quotes"."kind" IN ('start', 'extend')),
	CONSTRAINT "parking_quotes_money_check" CHECK ("parking_quotes"."total_cents" = "parking_quotes"."parking_cents" + "parking_quotes"."fee_cents" AND "parking_quotes"."parking_cents" >= 0 AND "parking_quotes"."fee_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "parking_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"member_id" integer,
	"guest_phone" text,
	"operator_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"vehicle_id" integer,
	"vehicle_make" text NOT NULL,
	"vehicle_model" text NOT NULL,
	"plate" text NOT NULL,
	"plate_state" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"duration_minutes" integer NOT NULL,
	"initial_minutes" integer NOT NULL,
	"rate_cents" integer NOT NULL,
	"parking_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"paid_via" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"auto_session_used" boolean DEFAULT false NOT NULL,
	"auto_extended_used" boolean DEFAULT false NOT NULL,
	"reminder_sent_at" timestamp with time zone,
	"end_notice_sent_at" timestamp with time zone,
	"auto_extend_checked_ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parking_sessions_owner_check" CHECK ("parking_sessions"."member_id" IS NOT NULL OR "parking_sessions"."guest_phone" IS NOT NULL),
	CONSTRAINT "parking_sessions_status_check" CHECK ("parking_sessions"."status" IN ('active', 'ended')),
	CONSTRAINT "parking_sessions_money_check" CHECK ("parking_sessions"."parking_cents" >= 0 AND "parking_sessions"."fee_cents" >= 0 AND "parking_sessions"."refunded_cents" >= 0 AND "parking_sessions"."refunded_cents" <= "parking_sessions"."parking_cents" + "parking_sessions"."fee_cents"),
	CONSTRAINT "parking_sessions_time_check" CHECK ("parking_sessions"."ends_at" > "parking_sessions"."started_at" AND "parking_sessions"."duration_minutes" > 0)
);
--> statement-breakpoint
ALTER TABLE "parking_quotes" ADD CONSTRAINT "parking_quotes_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parking_quotes" ADD CONSTRAINT "parking_quotes_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parking_quotes" ADD CONSTRAINT "parking_quotes_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parking_quotes" ADD CONSTRAINT "parking_quotes_session_id_parking_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."parking_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD CONSTRAINT "parking_sessions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD CONSTRAINT "parking_sessions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD CONSTRAINT "parking_sessions_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD CONSTRAINT "parking_sessions_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "parking_quotes_member_idx" ON "parking_quotes" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "parking_sessions_member_started_idx" ON "parking_sessions" USING btree ("member_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "parking_sessions_guest_idx" ON "parking_sessions" USING btree ("guest_phone");--> statement-breakpoint
CREATE INDEX "parking_sessions_active_ends_idx" ON "parking_sessions" USING btree ("ends_at") WHERE "parking_sessions"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "parking_sessions_active_vehicle_key" ON "parking_sessions" USING btree ("vehicle_id") WHERE "parking_sessions"."status" = 'active' AND "parking_sessions"."vehicle_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "parking_sessions_active_guest_plate_key" ON "parking_sessions" USING btree ("guest_phone","plate","plate_state") WHERE "parking_sessions"."status" = 'active' AND "parking_sessions"."member_id" IS NULL;