ALTER TABLE "members" ADD COLUMN "vehicle_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "wallet_auto_reload" boolean;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "wallet_default_add_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "default_card_id" integer;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "default_card_brand" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "default_card_last4" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "active_plan_id" integer;--> statement-breakpoint
-- Issue 9: GET /api/Account/Details reads one row by its key. What it shows of other tables (the
-- vehicle count, the wallet settings, the default card, the active plan) is kept on the member's
-- row by the triggers below, whatever writes those tables (the API, a job, psql). Each trigger
-- writes from the changed rows themselves (never a re-count in a snapshot), so a concurrent writer
-- that waits on the member's row applies its change to the latest row version.
UPDATE "members" m SET
  "vehicle_count" = (SELECT count(*) FROM "vehicles" v WHERE v."member_id" = m."id"),
  "wallet_auto_reload" = (SELECT w."auto_reload" FROM "wallet_settings" w WHERE w."member_id" = m."id"),
  "wallet_default_add_amount_cents" = (SELECT w."default_add_amount_cents" FROM "wallet_settings" w WHERE w."member_id" = m."id"),
  ("default_card_id", "default_card_brand", "default_card_last4") =
    (SELECT p."id", p."brand", p."last4" FROM "payment_methods" p WHERE p."member_id" = m."id" AND p."is_default"),
  "active_plan_id" = (SELECT s."plan_id" FROM "subscriptions" s WHERE s."member_id" = m."id" AND s."status" = 'active');
--> statement-breakpoint
-- Vehicles: per statement (a bulk insert of many members' vehicles updates each member once), the
-- net change per member from the transition tables.
CREATE FUNCTION "members_vehicle_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "members" m SET "vehicle_count" = m."vehicle_count" + d.n
    FROM (SELECT "member_id", count(*) AS n FROM new_rows GROUP BY "member_id") d WHERE m."id" = d."member_id";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "members" m SET "vehicle_count" = m."vehicle_count" - d.n
    FROM (SELECT "member_id", count(*) AS n FROM old_rows GROUP BY "member_id") d WHERE m."id" = d."member_id";
  ELSE
    UPDATE "members" m SET "vehicle_count" = m."vehicle_count" + d.n
    FROM (
      SELECT "member_id", sum(n) AS n
      FROM (SELECT "member_id", 1 AS n FROM new_rows UNION ALL SELECT "member_id", -1 FROM old_rows) x
      GROUP BY "member_id" HAVING sum(n) <> 0
    ) d WHERE m."id" = d."member_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "vehicles_count_insert" AFTER INSERT ON "vehicles" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "members_vehicle_count"();
--> statement-breakpoint
CREATE TRIGGER "vehicles_count_delete" AFTER DELETE ON "vehicles" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "members_vehicle_count"();
--> statement-breakpoint
CREATE TRIGGER "vehicles_count_update" AFTER UPDATE ON "vehicles" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "members_vehicle_count"();
--> statement-breakpoint
-- The default card (at most one per member: payment_methods_one_default_key). A card that stops
-- being the default clears it only if it is still the one shown, so the order in which one
-- statement's rows fire does not matter.
CREATE FUNCTION "members_default_card"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD."member_id", OLD."is_default", OLD."brand", OLD."last4") IS NOT DISTINCT FROM (NEW."member_id", NEW."is_default", NEW."brand", NEW."last4") THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD."is_default" THEN
    UPDATE "members" SET "default_card_id" = NULL, "default_card_brand" = NULL, "default_card_last4" = NULL
    WHERE "id" = OLD."member_id" AND "default_card_id" = OLD."id";
  END IF;
  IF TG_OP <> 'DELETE' AND NEW."is_default" THEN
    UPDATE "members" SET "default_card_id" = NEW."id", "default_card_brand" = NEW."brand", "default_card_last4" = NEW."last4"
    WHERE "id" = NEW."member_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "payment_methods_member_default" AFTER INSERT OR DELETE OR UPDATE ON "payment_methods" FOR EACH ROW EXECUTE FUNCTION "members_default_card"();
--> statement-breakpoint
-- Auto-reload and the default amount (a job's reload_due_at does not fire it).
CREATE FUNCTION "members_wallet_settings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE "members" SET "wallet_auto_reload" = NULL, "wallet_default_add_amount_cents" = NULL
    WHERE "id" = OLD."member_id" AND (TG_OP = 'DELETE' OR OLD."member_id" <> NEW."member_id");
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE "members" SET "wallet_auto_reload" = NEW."auto_reload", "wallet_default_add_amount_cents" = NEW."default_add_amount_cents"
    WHERE "id" = NEW."member_id"
      AND ("wallet_auto_reload", "wallet_default_add_amount_cents") IS DISTINCT FROM (NEW."auto_reload", NEW."default_add_amount_cents");
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "wallet_settings_member_details" AFTER INSERT OR DELETE OR UPDATE OF "member_id", "auto_reload", "default_add_amount_cents" ON "wallet_settings" FOR EACH ROW EXECUTE FUNCTION "members_wallet_settings"();
--> statement-breakpoint
-- The active subscription's plan (at most one active per member: subscriptions_one_active_key).
CREATE FUNCTION "members_active_plan"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD."member_id", OLD."status", OLD."plan_id") IS NOT DISTINCT FROM (NEW."member_id", NEW."status", NEW."plan_id") THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD."status" = 'active' THEN
    UPDATE "members" SET "active_plan_id" = NULL WHERE "id" = OLD."member_id";
  END IF;
  IF TG_OP <> 'DELETE' AND NEW."status" = 'active' THEN
    UPDATE "members" SET "active_plan_id" = NEW."plan_id" WHERE "id" = NEW."member_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "subscriptions_member_plan" AFTER INSERT OR DELETE OR UPDATE OF "member_id", "status", "plan_id" ON "subscriptions" FOR EACH ROW EXECUTE FUNCTION "members_active_plan"();
