/**
 * The CDS Events API for one operator (docs/open-data.md#events): its parking sessions as Curb
 * Events, read from parking_sessions itself. Each session is at most two events, whose ids are
 * UUID v5 of the session's id and the event type: a `park_start` at started_at, and a `park_end`
 * at ended_at once the session has ended (Stop, or the expiry job). Nothing else is stored, so an
 * event can be neither lost nor published twice, and the same event has the same id on every call.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';
import { uuidV5, zoneCdsId } from './cds-ids.ts';

export type CdsEventType = 'park_start' | 'park_end';

/** events.md, Curb Event: the fields ParkIt knows for a paid session. */
export interface CdsCurbEvent {
  event_id: string;
  event_type: CdsEventType;
  event_purpose: 'vehicle_parking';
  event_location: {
    type: 'Feature';
    properties: { timestamp: number };
    geometry: { type: 'Point'; coordinates: [number, number] };
  };
  event_time: number;
  event_publication_time: number;
  event_session_id: string;
  curb_zone_id: string;
  data_source_type: 'payment';
  data_source_operator_name: string;
  data_source_device_id: string;
  vehicle_license_plate?: string;
  actual_cost?: number;
}

/** events.md, Status: the one source ParkIt has per operator, its payments. */
export interface CdsStatus {
  data_source_device_id: string;
  data_source_type: 'payment';
  sensor_status_is_commissioned: boolean;
  sensor_status_is_online: boolean;
}

export const sessionEventId = (sessionId: number, type: CdsEventType) => uuidV5(`parkit:session:${sessionId}:${type}`);
export const sessionCdsId = (sessionId: number) => uuidV5(`parkit:session:${sessionId}`);
/** The operator's payments as a CDS data source (events.md, data_source_device_id). */
export const paymentsDeviceId = (operatorId: number) => uuidV5(`parkit:operator:${operatorId}:payments`);

export interface OperatorZone {
  id: number;
  curbZoneId: string;
  lat: number;
  lng: number;
  capacity: number;
}

export interface FeedOperator {
  id: number;
  name: string;
  timeZone: string;
  showPlates: boolean;
  zones: OperatorZone[];
}

/** The operator the key belongs to, with its zones (retired ones too: their sessions stay published). */
export async function loadFeedOperator(db: Executor, operatorId: number): Promise<FeedOperator> {
  const [op] = await queryRows<{ name: string; timezone: string; show_plates: boolean }>(
    db,
    sql`select name, timezone, show_plates from operators where id = ${operatorId}`,
  );
  const zones = await queryRows<{ id: number; cds_id: string | null; lat: number; lng: number; capacity: number }>(
    db,
    sql`select id, cds_id, lat, lng, capacity from zones where operator_id = ${operatorId} order by id`,
  );
  return {
    id: operatorId,
    name: op?.name ?? '',
    timeZone: op?.timezone ?? 'UTC',
    showPlates: op?.show_plates ?? false,
    zones: zones.map((z) => ({
      id: Number(z.id),
      curbZoneId: z.cds_id ?? zoneCdsId(Number(z.id)),
      lat: Number(z.lat),
      lng: Number(z.lng),
      capacity: Number(z.capacity),
    })),
  };
}

export interface EventQuery {
  /** ParkIt zone ids to keep (undefined: all the operator's). */
  zoneIds?: number[];
  /** event_time window, ms: start inclusive, end exclusive (general-information.md, Range Boundaries). */
  startMs?: number;
  endMs?: number;
  offset: number;
  limit: number;
}

interface EventRow {
  session_id: number;
  kind: number;
  zone_id: number;
  at_ms: number;
  published_ms: number;
  plate: string;
  paid_cents: number;
}

function eventsSql(operatorId: number, q: EventQuery) {
  const zone = (col: string) =>
    q.zoneIds === undefined
      ? sql`true`
      : q.zoneIds.length === 0
        ? sql`false`
        : sql`${sql.raw(col)} in (${sql.join(
            q.zoneIds.map((id) => sql`${id}`),
            sql`, `,
          )})`;
  const window = (col: string) =>
    sql`${q.startMs === undefined ? sql`true` : sql`${sql.raw(col)} >= to_timestamp(${q.startMs / 1000})`}
      and ${q.endMs === undefined ? sql`true` : sql`${sql.raw(col)} < to_timestamp(${q.endMs / 1000})`}`;
  return sql`
    select s.id as session_id, 0 as kind, s.zone_id, s.started_at as at, greatest(s.created_at, s.started_at) as published,
           s.plate, s.parking_cents + s.fee_cents - s.refunded_cents as paid_cents
      from parking_sessions s
     where s.operator_id = ${operatorId} and ${zone('s.zone_id')} and ${window('s.started_at')}
    union all
    select s.id, 1, s.zone_id, s.ended_at, s.ended_at, s.plate, s.parking_cents + s.fee_cents - s.refunded_cents
      from parking_sessions s
     where s.operator_id = ${operatorId} and s.status = 'ended' and s.ended_at is not null
       and ${zone('s.zone_id')} and ${window('s.ended_at')}`;
}

/**
 * One page of the operator's events, newest first as general-information.md (Event Times) asks: by
 * event time, then session, a session's end before its start; and how many there are.
 */
export async function queryEvents(
  db: Executor,
  op: FeedOperator,
  q: EventQuery,
): Promise<{ events: CdsCurbEvent[]; total: number }> {
  const inner = eventsSql(op.id, q);
  const rows = await queryRows<EventRow>(
    db,
    sql`select e.session_id, e.kind, e.zone_id, e.plate, e.paid_cents,
               (extract(epoch from e.at) * 1000)::float8 as at_ms,
               (extract(epoch from e.published) * 1000)::float8 as published_ms
          from (${inner}) e
         order by e.at desc, e.session_id desc, e.kind desc
         limit ${q.limit} offset ${q.offset}`,
  );
  const [count] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from (${inner}) e`);
  const zones = new Map(op.zones.map((z) => [z.id, z]));
  const device = paymentsDeviceId(op.id);
  const events = rows.map((r): CdsCurbEvent => {
    const sessionId = Number(r.session_id);
    const type: CdsEventType = Number(r.kind) === 0 ? 'park_start' : 'park_end';
    const zone = zones.get(Number(r.zone_id))!;
    const at = Math.round(Number(r.at_ms));
    return {
      event_id: sessionEventId(sessionId, type),
      event_type: type,
      event_purpose: 'vehicle_parking',
      event_location: {
        type: 'Feature',
        properties: { timestamp: at },
        geometry: { type: 'Point', coordinates: [zone.lng, zone.lat] },
      },
      event_time: at,
      event_publication_time: Math.max(at, Math.round(Number(r.published_ms))),
      event_session_id: sessionCdsId(sessionId),
      curb_zone_id: zone.curbZoneId,
      data_source_type: 'payment',
      data_source_operator_name: op.name,
      data_source_device_id: device,
      ...(op.showPlates ? { vehicle_license_plate: r.plate } : {}),
      ...(type === 'park_end' ? { actual_cost: Number(r.paid_cents) } : {}),
    };
  });
  return { events, total: Number(count?.n ?? 0) };
}

/** events.md, Query Status: the operator's payments, always commissioned and online while ParkIt answers. */
export function operatorStatus(op: FeedOperator): CdsStatus[] {
  return [
    {
      data_source_device_id: paymentsDeviceId(op.id),
      data_source_type: 'payment',
      sensor_status_is_commissioned: true,
      sensor_status_is_online: true,
    },
  ];
}
