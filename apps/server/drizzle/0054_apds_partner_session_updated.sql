-- The APDS webhook outbox (docs/decisions/016-webhook-outbox.md) for the updates of the Sessions
-- partners register (PUT /apds/sessions/{id}, docs/apds.md#partner-sessions), written by the same
-- statement as the change, as 0050 does for the create and the delete. A Session whose version
-- changed (a PUT writes the next one) is SessionUpdated, its data the new body under
-- `partner_session`, the shape of SessionCreated; an update that keeps the version is no event. An
-- update reaches the subscriptions that take the Session's zone before or after it; one row per
-- subscription, all with one event_id. With no subscription at all the function returns at its
-- first statement.
CREATE OR REPLACE FUNCTION "apds_partner_sessions_apds_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "apds_webhooks") THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    WITH e AS MATERIALIZED (
      SELECT n.id, n.operator_id, n.zone_id, gen_random_uuid() AS event_id, n.body FROM new_rows n
    )
    INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
    SELECT w.id, e.event_id, 'SessionCreated', e.id, jsonb_build_object('partner_session', e.body), now()
    FROM e JOIN "apds_webhooks" w ON w.operator_id = e.operator_id
      AND 'SessionCreated' = ANY (w.topics) AND (w.zone_ids IS NULL OR e.zone_id = ANY (w.zone_ids))
    ORDER BY e.id, w.id;
  ELSIF TG_OP = 'UPDATE' THEN
    WITH e AS MATERIALIZED (
      SELECT n.id, n.operator_id, n.zone_id, o.zone_id AS old_zone_id, gen_random_uuid() AS event_id, n.body
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.version IS DISTINCT FROM o.version
    )
    INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
    SELECT w.id, e.event_id, 'SessionUpdated', e.id, jsonb_build_object('partner_session', e.body), now()
    FROM e JOIN "apds_webhooks" w ON w.operator_id = e.operator_id
      AND 'SessionUpdated' = ANY (w.topics)
      AND (w.zone_ids IS NULL OR e.zone_id = ANY (w.zone_ids) OR e.old_zone_id = ANY (w.zone_ids))
    ORDER BY e.id, w.id;
  ELSE
    WITH e AS MATERIALIZED (
      SELECT o.id, o.operator_id, o.zone_id, gen_random_uuid() AS event_id, o.body FROM old_rows o
    )
    INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
    SELECT w.id, e.event_id, 'SessionDeleted', e.id, jsonb_build_object('partner_session', e.body), now()
    FROM e JOIN "apds_webhooks" w ON w.operator_id = e.operator_id
      AND 'SessionDeleted' = ANY (w.topics) AND (w.zone_ids IS NULL OR e.zone_id = ANY (w.zone_ids))
    ORDER BY e.id, w.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "apds_partner_sessions_apds_update" AFTER UPDATE ON "apds_partner_sessions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "apds_partner_sessions_apds_events"();
