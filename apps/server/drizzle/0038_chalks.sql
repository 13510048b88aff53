CREATE TABLE "chalks" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"plate" text NOT NULL,
	"plate_state" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"officer_id" integer,
	"officer_name" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chalks" ADD CONSTRAINT "chalks_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chalks" ADD CONSTRAINT "chalks_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chalks_zone_plate_idx" ON "chalks" USING btree ("operator_id","zone_id","plate","first_seen_at");--> statement-breakpoint
CREATE INDEX "chalks_operator_seen_idx" ON "chalks" USING btree ("operator_id","first_seen_at");