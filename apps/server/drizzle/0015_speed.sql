-- Issue 9: one operator's nearby zones through an index on (operator_id, position): btree_gist
-- lets a GiST index hold the integer column. PGlite loads the extension in-process (db/client.ts).
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE INDEX "zones_operator_earth_idx" ON "zones" USING gist ("operator_id",ll_to_earth("lat", "lng"));--> statement-breakpoint
DROP INDEX "zones_earth_idx";--> statement-breakpoint
-- Never used: a zone number is always looked up with its operator (zones_operator_number_key).
DROP INDEX "zones_zone_number_idx";--> statement-breakpoint
-- Revoking all of a member's tokens, and deleting a member, found them by a full scan.
CREATE INDEX "refresh_tokens_member_idx" ON "refresh_tokens" USING btree ("member_id");
