CREATE TABLE "parking_card_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"charge_ref" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parking_card_payments_money_check" CHECK ("parking_card_payments"."amount_cents" > 0 AND "parking_card_payments"."refunded_cents" >= 0 AND "parking_card_payments"."refunded_cents" <= "parking_card_payments"."amount_cents")
);
--> statement-breakpoint
ALTER TABLE "parking_quotes" ADD COLUMN "discount_percent" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD COLUMN "discount_percent" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD COLUMN "card_ref" text;--> statement-breakpoint
ALTER TABLE "parking_card_payments" ADD CONSTRAINT "parking_card_payments_session_id_parking_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."parking_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "parking_card_payments_session_idx" ON "parking_card_payments" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "parking_card_payments_charge_key" ON "parking_card_payments" USING btree ("charge_ref");