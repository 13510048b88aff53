CREATE TABLE "price_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"name" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"policy_id" integer NOT NULL,
	"zone_ids" integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_events_window_check" CHECK ("price_events"."ends_at" > "price_events"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "price_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_policy_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_id" integer NOT NULL,
	"version" integer NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_policy_versions_version_check" CHECK ("price_policy_versions"."version" > 0)
);
--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "price_policy_id" integer;--> statement-breakpoint
ALTER TABLE "parking_quotes" ADD COLUMN "policy_version_id" integer;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD COLUMN "policy_version_id" integer;--> statement-breakpoint
ALTER TABLE "price_events" ADD CONSTRAINT "price_events_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_events" ADD CONSTRAINT "price_events_policy_id_price_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."price_policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_policies" ADD CONSTRAINT "price_policies_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_policy_versions" ADD CONSTRAINT "price_policy_versions_policy_id_price_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."price_policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_events_operator_ends_idx" ON "price_events" USING btree ("operator_id","ends_at");--> statement-breakpoint
CREATE UNIQUE INDEX "price_policies_operator_name_key" ON "price_policies" USING btree ("operator_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "price_policy_versions_policy_version_key" ON "price_policy_versions" USING btree ("policy_id","version");--> statement-breakpoint
CREATE INDEX "price_policy_versions_policy_effective_idx" ON "price_policy_versions" USING btree ("policy_id","effective_from" DESC NULLS LAST,"version" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "zones" ADD CONSTRAINT "zones_price_policy_id_price_policies_id_fk" FOREIGN KEY ("price_policy_id") REFERENCES "public"."price_policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parking_quotes" ADD CONSTRAINT "parking_quotes_policy_version_id_price_policy_versions_id_fk" FOREIGN KEY ("policy_version_id") REFERENCES "public"."price_policy_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD CONSTRAINT "parking_sessions_policy_version_id_price_policy_versions_id_fk" FOREIGN KEY ("policy_version_id") REFERENCES "public"."price_policy_versions"("id") ON DELETE no action ON UPDATE no action;