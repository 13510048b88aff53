ALTER TABLE "wallet_charges" ADD COLUMN "save_card" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD COLUMN "card_customer_ref" text;