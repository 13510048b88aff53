-- The APDS webhook outbox (docs/decisions/016-webhook-outbox.md) for assigned rights' updates and
-- deletes, written by the same statement as the change, as 0045 does for the create. A right
-- whose version changed (PUT /apds/rights/assigned/{id} writes the next one) is
-- AssignedRightUpdated, its data the new row; the retention job's anonymisation of an ended right
-- keeps its version and is no event. A deleted right is AssignedRightDeleted, its data the row as
-- it was. An update reaches the subscriptions that take the right's zone before or after it; one
-- row per subscription, all with one event_id. The stored request hash and Idempotency-Key are not
-- part of an event. With no subscription at all the function returns at its first statement.
CREATE OR REPLACE FUNCTION "apds_assigned_rights_apds_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "apds_webhooks") THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    WITH e AS MATERIALIZED (
      SELECT n.id, n.operator_id, n.zone_id, gen_random_uuid() AS event_id, to_jsonb(n) AS row FROM new_rows n
    )
    INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
    SELECT w.id, e.event_id, 'AssignedRightCreated', e.id, e.row - 'idempotency_key' - 'request_hash', now()
    FROM e JOIN "apds_webhooks" w ON w.operator_id = e.operator_id
      AND 'AssignedRightCreated' = ANY (w.topics) AND (w.zone_ids IS NULL OR e.zone_id = ANY (w.zone_ids))
    ORDER BY e.id, w.id;
  ELSIF TG_OP = 'UPDATE' THEN
    WITH e AS MATERIALIZED (
      SELECT n.id, n.operator_id, n.zone_id, o.zone_id AS old_zone_id, gen_random_uuid() AS event_id,
        to_jsonb(n) AS row
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.version IS DISTINCT FROM o.version
    )
    INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
    SELECT w.id, e.event_id, 'AssignedRightUpdated', e.id, e.row - 'idempotency_key' - 'request_hash', now()
    FROM e JOIN "apds_webhooks" w ON w.operator_id = e.operator_id
      AND 'AssignedRightUpdated' = ANY (w.topics)
      AND (w.zone_ids IS NULL OR e.zone_id = ANY (w.zone_ids) OR e.old_zone_id = ANY (w.zone_ids))
    ORDER BY e.id, w.id;
  ELSE
    WITH e AS MATERIALIZED (
      SELECT o.id, o.operator_id, o.zone_id, gen_random_uuid() AS event_id, to_jsonb(o) AS row FROM old_rows o
    )
    INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
    SELECT w.id, e.event_id, 'AssignedRightDeleted', e.id, e.row - 'idempotency_key' - 'request_hash', now()
    FROM e JOIN "apds_webhooks" w ON w.operator_id = e.operator_id
      AND 'AssignedRightDeleted' = ANY (w.topics) AND (w.zone_ids IS NULL OR e.zone_id = ANY (w.zone_ids))
    ORDER BY e.id, w.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "apds_assigned_rights_apds_update" AFTER UPDATE ON "apds_assigned_rights" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "apds_assigned_rights_apds_events"();
--> statement-breakpoint
CREATE TRIGGER "apds_assigned_rights_apds_delete" AFTER DELETE ON "apds_assigned_rights" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "apds_assigned_rights_apds_events"();
