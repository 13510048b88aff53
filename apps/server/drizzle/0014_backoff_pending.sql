ALTER TABLE "auth_failures" ADD COLUMN "pending" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_failures" ADD COLUMN "pending_at" timestamp with time zone;