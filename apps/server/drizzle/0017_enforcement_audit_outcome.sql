ALTER TABLE "enforcement_checks" ALTER COLUMN "key_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "enforcement_checks" ALTER COLUMN "operator_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "enforcement_checks" ALTER COLUMN "paid" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "enforcement_checks" ADD COLUMN "key_prefix" text;--> statement-breakpoint
ALTER TABLE "enforcement_checks" ADD COLUMN "client_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enforcement_checks" ADD COLUMN "outcome" text;--> statement-breakpoint
-- Rows written before: every one was an answer (refusals were not audited); a zone not found was stored with no address.
UPDATE "enforcement_checks" c SET
  "outcome" = CASE WHEN c."paid" THEN 'paid' WHEN c."address" = '' THEN 'zone_not_found' ELSE 'not_paid' END,
  "key_prefix" = (SELECT k."prefix" FROM "operator_api_keys" k WHERE k."id" = c."key_id");--> statement-breakpoint
ALTER TABLE "enforcement_checks" ALTER COLUMN "outcome" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "enforcement_checks_checked_at_idx" ON "enforcement_checks" USING btree ("checked_at");--> statement-breakpoint
ALTER TABLE "enforcement_checks" ADD CONSTRAINT "enforcement_checks_outcome_check" CHECK ("enforcement_checks"."outcome" IN ('paid', 'not_paid', 'zone_not_found', 'unauthorized', 'rate_limited'));--> statement-breakpoint
ALTER TABLE "enforcement_checks" ADD CONSTRAINT "enforcement_checks_answered_check" CHECK ("enforcement_checks"."outcome" IN ('unauthorized', 'rate_limited') OR ("enforcement_checks"."key_id" IS NOT NULL AND "enforcement_checks"."operator_id" IS NOT NULL AND "enforcement_checks"."paid" IS NOT NULL));