CREATE TABLE "idempotency_keys" (
	"member_id" integer NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_member_id_key_pk" PRIMARY KEY("member_id","key")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"idempotency_key" text,
	"balance_after_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_amount_nonzero" CHECK ("ledger_entries"."amount_cents" <> 0),
	CONSTRAINT "ledger_entries_balance_after_nonneg" CHECK ("ledger_entries"."balance_after_cents" >= 0),
	CONSTRAINT "ledger_entries_kind" CHECK ("ledger_entries"."kind" in ('top-up', 'auto-reload', 'parking', 'refund', 'plan', 'adjustment'))
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" serial PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" smallint NOT NULL,
	"exp_year" smallint NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_methods_last4" CHECK ("payment_methods"."last4" ~ '^[0-9]{4}$')
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" integer PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"price_cents" integer NOT NULL,
	"convenience_fee_cents" integer NOT NULL,
	"zone_discount_percent" smallint DEFAULT 0 NOT NULL,
	"sort_order" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "plans_code_unique" UNIQUE("code"),
	CONSTRAINT "plans_price_nonneg" CHECK ("plans"."price_cents" >= 0),
	CONSTRAINT "plans_fee_nonneg" CHECK ("plans"."convenience_fee_cents" >= 0),
	CONSTRAINT "plans_discount_range" CHECK ("plans"."zone_discount_percent" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"status" text NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "subscriptions_status" CHECK ("subscriptions"."status" in ('active', 'ended'))
);
--> statement-breakpoint
CREATE TABLE "wallet_settings" (
	"member_id" integer PRIMARY KEY NOT NULL,
	"auto_reload" boolean DEFAULT false NOT NULL,
	"default_add_amount_cents" integer DEFAULT 2000 NOT NULL,
	"reload_due_at" timestamp with time zone,
	"provider_customer_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_settings_default_add_amount" CHECK ("wallet_settings"."default_add_amount_cents" between 500 and 50000)
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_settings" ADD CONSTRAINT "wallet_settings_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_member_idx" ON "ledger_entries" USING btree ("member_id","id");--> statement-breakpoint
CREATE INDEX "payment_methods_member_idx" ON "payment_methods" USING btree ("member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_member_ref_key" ON "payment_methods" USING btree ("member_id","provider_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_one_default_key" ON "payment_methods" USING btree ("member_id") WHERE "payment_methods"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_one_active_key" ON "subscriptions" USING btree ("member_id") WHERE "subscriptions"."status" = 'active';--> statement-breakpoint
CREATE INDEX "subscriptions_period_end_idx" ON "subscriptions" USING btree ("current_period_end") WHERE "subscriptions"."status" = 'active';--> statement-breakpoint
CREATE INDEX "wallet_settings_reload_due_idx" ON "wallet_settings" USING btree ("reload_due_at") WHERE "wallet_settings"."reload_due_at" is not null;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_balance_nonneg" CHECK ("members"."balance_cents" >= 0);--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_min_balance_nonneg" CHECK ("members"."min_balance_cents" >= 0);