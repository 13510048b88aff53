-- The APDS webhook outbox (docs/decisions/016-webhook-outbox.md) for places, right specifications
-- and rate tables (docs/apds.md#webhooks). ParkIt's APDS objects derive from its rows
-- (docs/apds.md#mapping): a live zone is a Place and its RightSpecification, a price policy's
-- version a RateTable, a zone with no policy its preset RateTable. Their events are written by the
-- statement that changes those rows, so an event exists exactly when the change does, whatever
-- wrote it (the console, the zone import, psql).
--
-- apds_enqueue is the one insert of an event: one row per subscription of the operator that takes
-- the topic and one of the zones the object belongs to (or every zone: zone_ids null), all with
-- one event_id. The event's data is what the sender needs to build the object as it was at the
-- change: the zone's columns (`zone`), the policy's version (`policy`) or the preset's zone
-- (`preset_zone`).
CREATE FUNCTION "apds_enqueue"(p_topic text, p_operator_id integer, p_zone_ids integer[], p_object_id integer, p_data jsonb)
RETURNS void LANGUAGE sql AS $$
  WITH e AS MATERIALIZED (SELECT gen_random_uuid() AS event_id)
  INSERT INTO "apds_webhook_deliveries" ("subscription_id", "event_id", "topic", "object_id", "data", "event_time")
  SELECT w.id, e.event_id, p_topic, p_object_id, p_data, now()
  FROM e CROSS JOIN "apds_webhooks" w
  WHERE w.operator_id = p_operator_id AND p_topic = ANY (w.topics)
    AND (w.zone_ids IS NULL OR w.zone_ids && p_zone_ids)
  ORDER BY w.id;
$$;
--> statement-breakpoint
-- A zone's columns that its Place, RightSpecification and preset RateTable show, with its
-- operator's time zone and the version of its policy in force now (the RightSpecification's
-- reference to its rate table).
CREATE FUNCTION "apds_zone_json"(z "zones") RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', z.id, 'operator_id', z.operator_id, 'zone_number', z.zone_number, 'name', z.name,
    'address', z.address, 'city', z.city, 'state', z.state, 'zip', z.zip, 'lat', z.lat, 'lng', z.lng,
    'kind', z.kind, 'capacity', z.capacity, 'curb', z.curb, 'created_at', z.created_at,
    'rate_cents', z.rate_cents, 'max_stay_minutes', z.max_stay_minutes, 'paid_days', z.paid_days,
    'paid_from_minute', z.paid_from_minute, 'paid_until_minute', z.paid_until_minute,
    'price_policy_id', z.price_policy_id,
    'timezone', (SELECT o.timezone FROM "operators" o WHERE o.id = z.operator_id),
    'rate_version', (
      SELECT v.version FROM "price_policy_versions" v
      WHERE v.policy_id = z.price_policy_id AND v.effective_from <= now()
      ORDER BY v.effective_from DESC, v.version DESC LIMIT 1));
$$;
--> statement-breakpoint
-- A zone that becomes live (inserted) is PlaceCreated and RightSpecificationCreated; one retired
-- is PlaceDeleted and RightSpecificationDeleted (and RateTableDeleted for its preset); a live zone
-- changed is PlaceUpdated when its Place changed, RightSpecificationUpdated when its
-- specification did (number, name, policy), RateTableUpdated when its preset did or it went back to
-- its preset, RateTableDeleted for its preset when it took a policy. Nothing else a zone's row
-- holds is an event.
CREATE FUNCTION "zones_apds_events"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_live boolean := TG_OP = 'UPDATE' AND OLD.retired_at IS NULL;
  is_live boolean := NEW.retired_at IS NULL;
  zids integer[] := ARRAY[NEW.id];
  d jsonb;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "apds_webhooks" w WHERE w.operator_id = NEW.operator_id) THEN
    RETURN NULL;
  END IF;
  d := jsonb_build_object('zone', "apds_zone_json"(NEW));
  IF is_live AND NOT was_live THEN
    PERFORM "apds_enqueue"('PlaceCreated', NEW.operator_id, zids, NEW.id, d);
    PERFORM "apds_enqueue"('RightSpecificationCreated', NEW.operator_id, zids, NEW.id, d);
  ELSIF was_live AND NOT is_live THEN
    PERFORM "apds_enqueue"('PlaceDeleted', NEW.operator_id, zids, NEW.id, d);
    PERFORM "apds_enqueue"('RightSpecificationDeleted', NEW.operator_id, zids, NEW.id, d);
    IF OLD.price_policy_id IS NULL THEN
      PERFORM "apds_enqueue"('RateTableDeleted', NEW.operator_id, zids, NEW.id,
        jsonb_build_object('preset_zone', "apds_zone_json"(OLD)));
    END IF;
  ELSIF is_live THEN
    IF (NEW.zone_number, NEW.name, NEW.address, NEW.city, NEW.zip, NEW.lat, NEW.lng, NEW.kind, NEW.capacity, NEW.curb)
       IS DISTINCT FROM
       (OLD.zone_number, OLD.name, OLD.address, OLD.city, OLD.zip, OLD.lat, OLD.lng, OLD.kind, OLD.capacity, OLD.curb) THEN
      PERFORM "apds_enqueue"('PlaceUpdated', NEW.operator_id, zids, NEW.id, d);
    END IF;
    IF (NEW.zone_number, NEW.name, NEW.price_policy_id) IS DISTINCT FROM (OLD.zone_number, OLD.name, OLD.price_policy_id) THEN
      PERFORM "apds_enqueue"('RightSpecificationUpdated', NEW.operator_id, zids, NEW.id, d);
    END IF;
    IF NEW.price_policy_id IS NULL AND (OLD.price_policy_id IS NOT NULL OR
       (NEW.zone_number, NEW.rate_cents, NEW.max_stay_minutes, NEW.paid_days, NEW.paid_from_minute, NEW.paid_until_minute)
       IS DISTINCT FROM
       (OLD.zone_number, OLD.rate_cents, OLD.max_stay_minutes, OLD.paid_days, OLD.paid_from_minute, OLD.paid_until_minute)) THEN
      PERFORM "apds_enqueue"('RateTableUpdated', NEW.operator_id, zids, NEW.id, jsonb_build_object('preset_zone', d -> 'zone'));
    ELSIF NEW.price_policy_id IS NOT NULL AND OLD.price_policy_id IS NULL THEN
      PERFORM "apds_enqueue"('RateTableDeleted', NEW.operator_id, zids, NEW.id,
        jsonb_build_object('preset_zone', "apds_zone_json"(OLD)));
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "zones_apds_events" AFTER INSERT OR UPDATE ON "zones" FOR EACH ROW EXECUTE FUNCTION "zones_apds_events"();
--> statement-breakpoint
-- A price policy's new version is RateTableUpdated (the document has no RateTableCreated: a new
-- policy's first version is its rate table's first update), with the version as written: its
-- number, its name and its effective_from (the RateTable's validityStart, which may be ahead).
-- It goes to the subscriptions of the zones that use the policy, and to those of every zone.
CREATE FUNCTION "price_policy_versions_apds_events"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p "price_policies";
BEGIN
  SELECT * INTO p FROM "price_policies" WHERE id = NEW.policy_id;
  IF NOT EXISTS (SELECT 1 FROM "apds_webhooks" w WHERE w.operator_id = p.operator_id) THEN
    RETURN NULL;
  END IF;
  PERFORM "apds_enqueue"('RateTableUpdated', p.operator_id,
    ARRAY(SELECT z.id FROM "zones" z WHERE z.price_policy_id = p.id AND z.retired_at IS NULL), p.id,
    jsonb_build_object('policy', jsonb_build_object(
      'id', p.id, 'operator_id', p.operator_id, 'name', p.name, 'version', NEW.version,
      'effective_from', NEW.effective_from, 'body', NEW.body)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "price_policy_versions_apds_events" AFTER INSERT ON "price_policy_versions" FOR EACH ROW EXECUTE FUNCTION "price_policy_versions_apds_events"();
