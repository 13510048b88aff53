CREATE TABLE "enforcement_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key_id" integer NOT NULL,
	"operator_id" integer NOT NULL,
	"zone_number" text NOT NULL,
	"plate" text NOT NULL,
	"plate_state" text NOT NULL,
	"paid" boolean NOT NULL,
	"session_id" integer,
	"address" text DEFAULT '' NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "operator_api_keys_prefix_unique" UNIQUE("prefix"),
	CONSTRAINT "operator_api_keys_hash_len" CHECK (length("operator_api_keys"."key_hash") = 64)
);
--> statement-breakpoint
ALTER TABLE "enforcement_checks" ADD CONSTRAINT "enforcement_checks_key_id_operator_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."operator_api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enforcement_checks" ADD CONSTRAINT "enforcement_checks_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_api_keys" ADD CONSTRAINT "operator_api_keys_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enforcement_checks_operator_time_idx" ON "enforcement_checks" USING btree ("operator_id","checked_at");--> statement-breakpoint
CREATE INDEX "operator_api_keys_operator_idx" ON "operator_api_keys" USING btree ("operator_id");