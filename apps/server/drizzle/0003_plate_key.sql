DROP INDEX "vehicles_member_plate_key";--> statement-breakpoint
ALTER TABLE "vehicles" ADD COLUMN "plate_key" text GENERATED ALWAYS AS (upper(regexp_replace(plate, '[^A-Za-z0-9]', '', 'g'))) STORED NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_member_plate_key" ON "vehicles" USING btree ("member_id","plate_key","plate_state");