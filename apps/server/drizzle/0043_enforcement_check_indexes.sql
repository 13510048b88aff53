CREATE INDEX "zones_operator_upper_number_idx" ON "zones" USING btree ("operator_id",upper("zone_number"));--> statement-breakpoint
CREATE INDEX "parking_sessions_active_zone_plate_idx" ON "parking_sessions" USING btree ("zone_id",regexp_replace(upper("plate"), '[[:space:].·-]', '', 'g')) WHERE "parking_sessions"."status" = 'active';--> statement-breakpoint
CREATE INDEX "permits_active_zones_idx" ON "permits" USING gin ("zone_ids") WHERE "permits"."status" = 'active';--> statement-breakpoint
CREATE INDEX "visitor_days_operator_day_idx" ON "visitor_days" USING btree ("operator_id","day");