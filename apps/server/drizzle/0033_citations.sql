CREATE TABLE "citation_contests" (
	"id" serial PRIMARY KEY NOT NULL,
	"citation_id" integer NOT NULL,
	"member_id" integer,
	"reason" text NOT NULL,
	"decision" text,
	"decision_note" text DEFAULT '' NOT NULL,
	"reduced_fine_cents" integer,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "citation_contests_citation_id_unique" UNIQUE("citation_id"),
	CONSTRAINT "citation_contests_decision_check" CHECK ("citation_contests"."decision" is null or "citation_contests"."decision" in ('upheld', 'cancelled', 'reduced'))
);
--> statement-breakpoint
CREATE TABLE "citation_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_id" integer,
	"kind" text NOT NULL,
	"citation_id" integer,
	"uploaded_by" integer,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "citation_files_kind_check" CHECK ("citation_files"."kind" in ('photo', 'contest')),
	CONSTRAINT "citation_files_size_check" CHECK ("citation_files"."size" > 0 and "citation_files"."size" <= 5242880)
);
--> statement-breakpoint
CREATE TABLE "citations" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"plate" text NOT NULL,
	"plate_state" text NOT NULL,
	"violation_id" integer NOT NULL,
	"fine_cents" integer NOT NULL,
	"late_fee_cents" integer NOT NULL,
	"officer_id" integer,
	"officer_name" text DEFAULT '' NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'issued' NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"late_fee_applied_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"paid_cents" integer DEFAULT 0 NOT NULL,
	"paid_by" integer,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "citations_status_check" CHECK ("citations"."status" in ('issued', 'paid', 'contested', 'upheld', 'cancelled', 'reduced')),
	CONSTRAINT "citations_fine_check" CHECK ("citations"."fine_cents" >= 0 and "citations"."late_fee_cents" >= 0),
	CONSTRAINT "citations_paid_check" CHECK ("citations"."paid_cents" >= 0 and "citations"."refunded_cents" >= 0 and "citations"."refunded_cents" <= "citations"."paid_cents")
);
--> statement-breakpoint
CREATE TABLE "violations" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"fine_cents" integer NOT NULL,
	"due_days" integer NOT NULL,
	"late_fee_cents" integer DEFAULT 0 NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "violations_fine_check" CHECK ("violations"."fine_cents" > 0 and "violations"."fine_cents" <= 10000000),
	CONSTRAINT "violations_due_days_check" CHECK ("violations"."due_days" between 1 and 365),
	CONSTRAINT "violations_late_fee_check" CHECK ("violations"."late_fee_cents" >= 0 and "violations"."late_fee_cents" <= 10000000)
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind";--> statement-breakpoint
ALTER TABLE "citation_contests" ADD CONSTRAINT "citation_contests_citation_id_citations_id_fk" FOREIGN KEY ("citation_id") REFERENCES "public"."citations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citation_contests" ADD CONSTRAINT "citation_contests_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citation_contests" ADD CONSTRAINT "citation_contests_decided_by_members_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citation_files" ADD CONSTRAINT "citation_files_citation_id_citations_id_fk" FOREIGN KEY ("citation_id") REFERENCES "public"."citations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citation_files" ADD CONSTRAINT "citation_files_uploaded_by_members_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_violation_id_violations_id_fk" FOREIGN KEY ("violation_id") REFERENCES "public"."violations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_officer_id_members_id_fk" FOREIGN KEY ("officer_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_paid_by_members_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "violations" ADD CONSTRAINT "violations_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "citation_files_citation_idx" ON "citation_files" USING btree ("citation_id");--> statement-breakpoint
CREATE INDEX "citations_operator_time_idx" ON "citations" USING btree ("operator_id","issued_at");--> statement-breakpoint
CREATE INDEX "citations_plate_idx" ON "citations" USING btree ("plate","plate_state");--> statement-breakpoint
CREATE INDEX "citations_due_idx" ON "citations" USING btree ("due_at") WHERE "citations"."late_fee_applied_at" is null and "citations"."status" in ('issued', 'upheld', 'reduced');--> statement-breakpoint
CREATE UNIQUE INDEX "violations_operator_code_idx" ON "violations" USING btree ("operator_id",upper("code"));--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind" CHECK ("ledger_entries"."kind" in ('top-up', 'auto-reload', 'parking', 'refund', 'plan', 'adjustment', 'card-refund', 'citation', 'citation-refund'));--> statement-breakpoint
-- A citation and a Start of the same plate in the same zone take this advisory lock (issue 30): a citation takes it
-- before it looks for a right, a new parking session takes it in this trigger, so the two queue. A session whose start
-- would fall at or before a citation committed in between is moved to start just after it (its length is kept): the
-- driver's right begins once it was paid, and no citation stands at a moment a right covers.
CREATE OR REPLACE FUNCTION parking_right_lock_key(zone integer, plate text) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  select hashtextextended('parking-right:' || zone || ':' || regexp_replace(upper(plate), '[[:space:].·-]', '', 'g'), 0)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION parking_sessions_right_lock() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  last_cited timestamptz;
  shift interval;
BEGIN
  PERFORM pg_advisory_xact_lock(parking_right_lock_key(NEW.zone_id, NEW.plate));
  SELECT max(c.issued_at) INTO last_cited FROM citations c
  WHERE c.zone_id = NEW.zone_id
    AND c.plate = regexp_replace(upper(NEW.plate), '[[:space:].·-]', '', 'g')
    AND c.status <> 'cancelled'
    AND c.issued_at >= NEW.started_at AND c.issued_at < NEW.ends_at;
  IF last_cited IS NOT NULL THEN
    shift := (last_cited + interval '1 millisecond') - NEW.started_at;
    NEW.started_at := NEW.started_at + shift;
    NEW.ends_at := NEW.ends_at + shift;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER parking_sessions_right_lock BEFORE INSERT ON parking_sessions
FOR EACH ROW EXECUTE FUNCTION parking_sessions_right_lock();
