CREATE TABLE "operator_idempotency_keys" (
	"operator_id" integer NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_idempotency_keys_operator_id_key_pk" PRIMARY KEY("operator_id","key")
);
--> statement-breakpoint
ALTER TABLE "operator_idempotency_keys" ADD CONSTRAINT "operator_idempotency_keys_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_idempotency_keys_created_idx" ON "operator_idempotency_keys" USING btree ("created_at");