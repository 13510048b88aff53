-- The APDS webhook outbox (docs/decisions/016-webhook-outbox.md) for the Sessions partners register
-- (apds_partner_sessions, docs/apds.md#partner-sessions): a Session kept is SessionCreated, one
-- deleted (DELETE /apds/sessions/{id}) is SessionDeleted, written by the same statement, so the
-- event exists exactly when the change does; an idempotent repeat inserts nothing and writes no
-- event. The event's data is the Session as it was answered (`body`), under `partner_session`, so
-- the sender tells it from a parking session's row. One row per subscription of the Session's
-- operator that takes the topic and the zone, all with one event_id. With no subscription at all
-- the function returns at its first statement.
CREATE FUNCTION "apds_partner_sessions_apds_events"() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER "apds_partner_sessions_apds_insert" AFTER INSERT ON "apds_partner_sessions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "apds_partner_sessions_apds_events"();
--> statement-breakpoint
CREATE TRIGGER "apds_partner_sessions_apds_delete" AFTER DELETE ON "apds_partner_sessions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "apds_partner_sessions_apds_events"();
