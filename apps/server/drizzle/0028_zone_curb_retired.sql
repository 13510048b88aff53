ALTER TABLE "zones" ADD COLUMN "curb" jsonb;--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "retired_at" timestamp with time zone;