-- The APDS webhook outbox (docs/decisions/016-webhook-outbox.md) for assigned rights: whoever
-- inserts into apds_assigned_rights (POST /apds/rights/assigned, POST /apds/sessions' segments),
-- the event is written by the same statement, so it exists exactly when the right does. An
-- inserted right is AssignedRightCreated; an idempotent repeat inserts nothing and writes no event.
-- One row per subscription of the right's operator that takes the topic and the zone, all with
-- one event_id. The stored request hash and Idempotency-Key are not part of the event. With no
-- subscription at all the function returns at its first statement.
CREATE FUNCTION "apds_assigned_rights_apds_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "apds_webhooks") THEN
    RETURN NULL;
  END IF;
  WITH e AS MATERIALIZED (
    SELECT n.id, n.operator_id, n.zone_id, gen_random_uuid() AS event_id, to_jsonb(n) AS row FROM new_rows n
  )
  INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
  SELECT w.id, e.event_id, 'AssignedRightCreated', e.id, e.row - 'idempotency_key' - 'request_hash', now()
  FROM e JOIN "apds_webhooks" w ON w.operator_id = e.operator_id
    AND 'AssignedRightCreated' = ANY (w.topics) AND (w.zone_ids IS NULL OR e.zone_id = ANY (w.zone_ids))
  ORDER BY e.id, w.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "apds_assigned_rights_apds_insert" AFTER INSERT ON "apds_assigned_rights" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "apds_assigned_rights_apds_events"();
