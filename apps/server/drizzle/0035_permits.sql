CREATE TABLE "permit_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"zone_ids" integer[] NOT NULL,
	"valid_months" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"proof_required" boolean DEFAULT false NOT NULL,
	"max_plates" integer DEFAULT 1 NOT NULL,
	"visitor_days_per_month" integer DEFAULT 0 NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permit_types_kind_check" CHECK ("permit_types"."kind" IN ('resident', 'visitor', 'business', 'disabled', 'ev')),
	CONSTRAINT "permit_types_months_check" CHECK ("permit_types"."valid_months" BETWEEN 1 AND 36),
	CONSTRAINT "permit_types_price_check" CHECK ("permit_types"."price_cents" BETWEEN 0 AND 10000000),
	CONSTRAINT "permit_types_plates_check" CHECK ("permit_types"."max_plates" BETWEEN 1 AND 10),
	CONSTRAINT "permit_types_visitor_days_check" CHECK ("permit_types"."visitor_days_per_month" BETWEEN 0 AND 31 AND ("permit_types"."kind" = 'resident' OR "permit_types"."visitor_days_per_month" = 0)),
	CONSTRAINT "permit_types_zones_check" CHECK (cardinality("permit_types"."zone_ids") BETWEEN 1 AND 500)
);
--> statement-breakpoint
CREATE TABLE "permits" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"type_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"plates" text[] NOT NULL,
	"zone_ids" integer[] NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"refusal_reason" text,
	"proof_attachment_id" uuid,
	"price_cents" integer NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"ledger_entry_id" integer,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permits_status_check" CHECK ("permits"."status" IN ('pending', 'approved', 'refused', 'active')),
	CONSTRAINT "permits_plates_check" CHECK (cardinality("permits"."plates") BETWEEN 1 AND 10),
	CONSTRAINT "permits_zones_check" CHECK (cardinality("permits"."zone_ids") >= 1),
	CONSTRAINT "permits_price_check" CHECK ("permits"."price_cents" >= 0),
	CONSTRAINT "permits_active_window_check" CHECK ("permits"."status" <> 'active' OR ("permits"."valid_from" IS NOT NULL AND "permits"."valid_until" > "permits"."valid_from")),
	CONSTRAINT "permits_refused_reason_check" CHECK ("permits"."status" <> 'refused' OR "permits"."refusal_reason" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "visitor_days" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"permit_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"plate" text NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind";--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "grace_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "permit_types" ADD CONSTRAINT "permit_types_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_type_id_permit_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."permit_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_proof_attachment_id_support_attachments_id_fk" FOREIGN KEY ("proof_attachment_id") REFERENCES "public"."support_attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_days" ADD CONSTRAINT "visitor_days_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_days" ADD CONSTRAINT "visitor_days_permit_id_permits_id_fk" FOREIGN KEY ("permit_id") REFERENCES "public"."permits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_days" ADD CONSTRAINT "visitor_days_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "permit_types_operator_idx" ON "permit_types" USING btree ("operator_id","id");--> statement-breakpoint
CREATE INDEX "permits_operator_idx" ON "permits" USING btree ("operator_id","status","id");--> statement-breakpoint
CREATE INDEX "permits_member_idx" ON "permits" USING btree ("member_id","id");--> statement-breakpoint
CREATE INDEX "permits_active_plates_idx" ON "permits" USING gin ("plates") WHERE "permits"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "visitor_days_permit_plate_day_key" ON "visitor_days" USING btree ("permit_id","plate","day");--> statement-breakpoint
CREATE INDEX "visitor_days_plate_day_idx" ON "visitor_days" USING btree ("plate","day");--> statement-breakpoint
CREATE INDEX "visitor_days_permit_day_idx" ON "visitor_days" USING btree ("permit_id","day");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind" CHECK ("ledger_entries"."kind" in ('top-up', 'auto-reload', 'parking', 'refund', 'plan', 'adjustment', 'card-refund', 'citation', 'citation-refund', 'permit'));