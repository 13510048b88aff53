CREATE TABLE "auth_failures" (
	"bucket" text NOT NULL,
	"key" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	CONSTRAINT "auth_failures_bucket_key_pk" PRIMARY KEY("bucket","key")
);
--> statement-breakpoint
CREATE TABLE "otp_sends" (
	"phone" text NOT NULL,
	"purpose" text NOT NULL,
	"last_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "otp_sends_phone_purpose_pk" PRIMARY KEY("phone","purpose")
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;