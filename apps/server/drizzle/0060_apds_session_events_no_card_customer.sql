-- A session's events (0041) carried the row less the driver's private columns; since 0057/0058 the
-- row also holds the Quick Park guest's saved card's provider customer (card_customer_ref) and its
-- forgetting lease (card_forget_at), which no partner needs and the outbox must not keep: the
-- function leaves them out as it leaves out card_ref, and the deliveries written since lose them.
CREATE OR REPLACE FUNCTION "parking_sessions_apds_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "apds_webhooks") THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    WITH e AS MATERIALIZED (
      SELECT n.id, n.operator_id, n.zone_id, gen_random_uuid() AS event_id, to_jsonb(n) AS row FROM new_rows n
    )
    INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
    SELECT w.id, e.event_id, 'SessionCreated', e.id,
      e.row - 'guest_phone' - 'card_ref' - 'card_customer_ref' - 'card_forget_at' - 'member_id' - 'vehicle_id', now()
    FROM e JOIN "apds_webhooks" w ON w.operator_id = e.operator_id
      AND 'SessionCreated' = ANY (w.topics) AND (w.zone_ids IS NULL OR e.zone_id = ANY (w.zone_ids))
    ORDER BY e.id, w.id;
  ELSE
    WITH e AS MATERIALIZED (
      SELECT n.id, n.operator_id, n.zone_id, gen_random_uuid() AS event_id, to_jsonb(n) AS row
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.zone_id, n.plate, n.plate_state, n.vehicle_make, n.vehicle_model, n.started_at, n.ends_at, n.ended_at,
             n.duration_minutes, n.parking_cents, n.refunded_cents, n.status)
        IS DISTINCT FROM
            (o.zone_id, o.plate, o.plate_state, o.vehicle_make, o.vehicle_model, o.started_at, o.ends_at, o.ended_at,
             o.duration_minutes, o.parking_cents, o.refunded_cents, o.status)
    )
    INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
    SELECT w.id, e.event_id, 'SessionUpdated', e.id,
      e.row - 'guest_phone' - 'card_ref' - 'card_customer_ref' - 'card_forget_at' - 'member_id' - 'vehicle_id', now()
    FROM e JOIN "apds_webhooks" w ON w.operator_id = e.operator_id
      AND 'SessionUpdated' = ANY (w.topics) AND (w.zone_ids IS NULL OR e.zone_id = ANY (w.zone_ids))
    ORDER BY e.id, w.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
UPDATE "apds_webhook_deliveries" SET "data" = "data" - 'card_customer_ref' - 'card_forget_at'
WHERE "data" ? 'card_customer_ref' OR "data" ? 'card_forget_at';
