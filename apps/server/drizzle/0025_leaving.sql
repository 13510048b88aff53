CREATE TABLE "wallet_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"charge_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"provider_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"refund_ref" text,
	"ledger_entry_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "wallet_refunds_provider_key_unique" UNIQUE("provider_key"),
	CONSTRAINT "wallet_refunds_amount_positive" CHECK ("wallet_refunds"."amount_cents" > 0),
	CONSTRAINT "wallet_refunds_status" CHECK ("wallet_refunds"."status" in ('pending', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind";--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wallet_charges" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_refunds" ADD CONSTRAINT "wallet_refunds_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_refunds" ADD CONSTRAINT "wallet_refunds_charge_id_wallet_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."wallet_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_refunds_member_idx" ON "wallet_refunds" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "wallet_refunds_pending_idx" ON "wallet_refunds" USING btree ("created_at") WHERE "wallet_refunds"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind" CHECK ("ledger_entries"."kind" in ('top-up', 'auto-reload', 'parking', 'refund', 'plan', 'adjustment', 'card-refund'));--> statement-breakpoint
ALTER TABLE "wallet_charges" ADD CONSTRAINT "wallet_charges_refunded_range" CHECK ("wallet_charges"."refunded_cents" >= 0 AND "wallet_charges"."refunded_cents" <= "wallet_charges"."amount_cents");