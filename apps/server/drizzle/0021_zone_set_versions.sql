CREATE TABLE "zone_set_versions" (
	"operator_id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
-- Issue 9: a server holds each operator's zones in memory as points (zone-map.ts) and reads this
-- row first; every statement that changes an operator's zones gives it a new value, in its own
-- transaction, whatever wrote it (the app, an import, psql). The next value is taken under the
-- row's lock (ON CONFLICT … DO UPDATE), so an operator's versions only grow.
CREATE SEQUENCE "zone_set_version_seq";
--> statement-breakpoint
INSERT INTO "zone_set_versions" ("operator_id", "version")
SELECT "operator_id", nextval('zone_set_version_seq') FROM (SELECT DISTINCT "operator_id" FROM "zones") z;
--> statement-breakpoint
CREATE FUNCTION "zone_set_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "zone_set_versions" SET "version" = nextval('zone_set_version_seq');
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO "zone_set_versions" ("operator_id", "version")
    SELECT "operator_id", nextval('zone_set_version_seq') FROM (SELECT DISTINCT "operator_id" FROM new_rows) c
    ON CONFLICT ("operator_id") DO UPDATE SET "version" = nextval('zone_set_version_seq');
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "zone_set_versions" ("operator_id", "version")
    SELECT "operator_id", nextval('zone_set_version_seq') FROM (SELECT DISTINCT "operator_id" FROM old_rows) c
    ON CONFLICT ("operator_id") DO UPDATE SET "version" = nextval('zone_set_version_seq');
  ELSE
    INSERT INTO "zone_set_versions" ("operator_id", "version")
    SELECT "operator_id", nextval('zone_set_version_seq') FROM (SELECT "operator_id" FROM new_rows UNION SELECT "operator_id" FROM old_rows) c
    ON CONFLICT ("operator_id") DO UPDATE SET "version" = nextval('zone_set_version_seq');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "zones_set_insert" AFTER INSERT ON "zones" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "zone_set_changed"();
--> statement-breakpoint
CREATE TRIGGER "zones_set_delete" AFTER DELETE ON "zones" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "zone_set_changed"();
--> statement-breakpoint
CREATE TRIGGER "zones_set_update" AFTER UPDATE ON "zones" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "zone_set_changed"();
--> statement-breakpoint
CREATE TRIGGER "zones_set_truncate" AFTER TRUNCATE ON "zones" FOR EACH STATEMENT EXECUTE FUNCTION "zone_set_changed"();
