ALTER TABLE "price_policy_versions" ADD COLUMN "cds_ids" jsonb;--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "cds_id" uuid;--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "zones_cds_id_key" ON "zones" USING btree ("cds_id");--> statement-breakpoint
-- A zone from before this release was last changed, as far as anyone can tell, when it was made.
UPDATE "zones" SET "updated_at" = "created_at";--> statement-breakpoint
-- Every change to a zone row (an edit, a retirement, a new price policy) marks when: the CDS feed's
-- last_updated_date, Last-Modified and ETag read it (opendata/).
CREATE FUNCTION "zone_touched"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."updated_at" := now();
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "zones_touch" BEFORE UPDATE ON "zones" FOR EACH ROW EXECUTE FUNCTION "zone_touched"();
