CREATE TABLE "apds_partner_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"apds_id" text NOT NULL,
	"version" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"plates" text[] NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"body" jsonb NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "apds_partner_sessions_version_check" CHECK ("apds_partner_sessions"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE "apds_partner_sessions" ADD CONSTRAINT "apds_partner_sessions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apds_partner_sessions" ADD CONSTRAINT "apds_partner_sessions_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "apds_partner_sessions_operator_apds_id_key" ON "apds_partner_sessions" USING btree ("operator_id","apds_id");--> statement-breakpoint
CREATE INDEX "apds_partner_sessions_operator_idx" ON "apds_partner_sessions" USING btree ("operator_id","id");