ALTER TABLE "members" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "otp_sends" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_language_check" CHECK ("members"."language" IN ('en', 'hi', 'es'));