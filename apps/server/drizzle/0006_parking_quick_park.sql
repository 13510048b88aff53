ALTER TABLE "parking_quotes" ADD COLUMN "plate" text;--> statement-breakpoint
ALTER TABLE "parking_quotes" ADD COLUMN "plate_state" text;