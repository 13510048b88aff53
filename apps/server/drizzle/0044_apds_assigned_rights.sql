CREATE TABLE "apds_assigned_rights" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"apds_id" text NOT NULL,
	"version" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"plates" text[] NOT NULL,
	"credentials" jsonb NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"issue_method" text,
	"idempotency_key" text,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "apds_assigned_rights_window_check" CHECK ("apds_assigned_rights"."ends_at" > "apds_assigned_rights"."starts_at"),
	CONSTRAINT "apds_assigned_rights_plates_check" CHECK (cardinality("apds_assigned_rights"."plates") BETWEEN 1 AND 10),
	CONSTRAINT "apds_assigned_rights_version_check" CHECK ("apds_assigned_rights"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE "apds_assigned_rights" ADD CONSTRAINT "apds_assigned_rights_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apds_assigned_rights" ADD CONSTRAINT "apds_assigned_rights_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "apds_assigned_rights_operator_apds_id_key" ON "apds_assigned_rights" USING btree ("operator_id","apds_id");--> statement-breakpoint
CREATE UNIQUE INDEX "apds_assigned_rights_operator_idempotency_key" ON "apds_assigned_rights" USING btree ("operator_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "apds_assigned_rights_operator_idx" ON "apds_assigned_rights" USING btree ("operator_id","id");--> statement-breakpoint
CREATE INDEX "apds_assigned_rights_plates_idx" ON "apds_assigned_rights" USING gin ("plates");