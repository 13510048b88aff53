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
ALTER TABLE "session_refunds" ADD CONSTRAINT "session_refunds_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_refunds" ADD CONSTRAINT "session_refunds_session_id_parking_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."parking_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_refunds" ADD CONSTRAINT "session_refunds_actor_id_members_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_refunds_session_idx" ON "session_refunds" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "session_refunds_operator_idx" ON "session_refunds" USING btree ("operator_id","created_at");