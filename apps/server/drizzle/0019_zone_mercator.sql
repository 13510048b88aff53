DROP INDEX "zones_operator_earth_idx";--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "mercator" "point" GENERATED ALWAYS AS (point(radians(lng), asinh(tan(radians(lat))))) STORED;--> statement-breakpoint
CREATE INDEX "zones_operator_mercator_idx" ON "zones" USING gist ("operator_id","mercator");