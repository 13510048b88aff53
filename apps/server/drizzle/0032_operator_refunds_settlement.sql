CREATE TABLE "settlement_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"statement_id" integer NOT NULL,
	"period_kind" text NOT NULL,
	"source" text NOT NULL,
	"source_id" bigint NOT NULL,
	"session_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "settlement_lines_source_check" CHECK ("settlement_lines"."source" IN ('ledger', 'card-payment', 'card-refund'))
);
--> statement-breakpoint
CREATE TABLE "settlement_statements" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"period_kind" text NOT NULL,
	"period_start" date NOT NULL,
	"cut_off" timestamp with time zone NOT NULL,
	"gross_cents" integer NOT NULL,
	"refunds_cents" integer NOT NULL,
	"fees_cents" integer NOT NULL,
	"net_cents" integer NOT NULL,
	"issued_by" integer,
	"issued_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlement_statements_kind_check" CHECK ("settlement_statements"."period_kind" IN ('day', 'month')),
	CONSTRAINT "settlement_statements_sums_check" CHECK ("settlement_statements"."net_cents" = "settlement_statements"."gross_cents" - "settlement_statements"."refunds_cents" - "settlement_statements"."fees_cents" AND "settlement_statements"."gross_cents" >= 0 AND "settlement_statements"."refunds_cents" >= 0 AND "settlement_statements"."fees_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "session_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"session_id" integer NOT NULL,
	"actor_id" integer,
	"actor_name" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"reason" text NOT NULL,
	"paid_via" text NOT NULL,
	"ledger_entry_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_refunds_amount_check" CHECK ("session_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "show_plates" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_lines" ADD CONSTRAINT "settlement_lines_statement_id_settlement_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."settlement_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_statements" ADD CONSTRAINT "settlement_statements_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_statements" ADD CONSTRAINT "settlement_statements_issued_by_members_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_refunds" ADD CONSTRAINT "session_refunds_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_refunds" ADD CONSTRAINT "session_refunds_session_id_parking_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."parking_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_refunds" ADD CONSTRAINT "session_refunds_actor_id_members_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_lines_source_key" ON "settlement_lines" USING btree ("period_kind","source","source_id");--> statement-breakpoint
CREATE INDEX "settlement_lines_statement_idx" ON "settlement_lines" USING btree ("statement_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_statements_period_key" ON "settlement_statements" USING btree ("operator_id","period_kind","period_start");--> statement-breakpoint
CREATE INDEX "session_refunds_session_idx" ON "session_refunds" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "session_refunds_operator_idx" ON "session_refunds" USING btree ("operator_id","created_at");