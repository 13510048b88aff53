ALTER TABLE "wallet_charges" DROP CONSTRAINT "wallet_charges_kind";--> statement-breakpoint
ALTER TABLE "wallet_charges" ALTER COLUMN "member_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_charges" ADD COLUMN "quote_id" uuid;--> statement-breakpoint
ALTER TABLE "wallet_charges" ADD COLUMN "card_payment_id" integer;--> statement-breakpoint
ALTER TABLE "wallet_charges" ADD CONSTRAINT "wallet_charges_quote_id_parking_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."parking_quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_charges" ADD CONSTRAINT "wallet_charges_card_payment_id_parking_card_payments_id_fk" FOREIGN KEY ("card_payment_id") REFERENCES "public"."parking_card_payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_charges_quote_idx" ON "wallet_charges" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "wallet_charges_card_payment_idx" ON "wallet_charges" USING btree ("card_payment_id");--> statement-breakpoint
ALTER TABLE "wallet_charges" ADD CONSTRAINT "wallet_charges_kind" CHECK (("wallet_charges"."kind" in ('top-up', 'auto-reload') and "wallet_charges"."member_id" is not null)
        or ("wallet_charges"."kind" in ('quick-park-start', 'quick-park-extend') and "wallet_charges"."quote_id" is not null)
        or ("wallet_charges"."kind" = 'quick-park-refund' and "wallet_charges"."card_payment_id" is not null));