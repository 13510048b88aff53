-- Issue 9: a server trusts the operators' zones it holds in memory (zone-cache.ts) until this
-- notification, which PostgreSQL delivers at the changing statement's commit to every process
-- listening; while its LISTEN connection is down it reads zone_set_versions on every request (0021).
CREATE FUNCTION "zone_set_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('parkit_zone_sets', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "zones_set_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "zones" FOR EACH STATEMENT EXECUTE FUNCTION "zone_set_notify"();
