/**
 * The CDS Metrics API for one operator (docs/open-data.md#metrics): its sessions as Session rows
 * (metrics.md, Session), read from parking_sessions with the same ids as its events, and hourly
 * Aggregates (metrics.md, Aggregate) read from the operator's hourly rollups (docs/reports.md#rollups),
 * never by scanning sessions. Both are CSV, as metrics.md's REST Endpoints say.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';
import { sessionCdsId, sessionEventId, type FeedOperator } from './cds-events.ts';

export const CDS_CSV_MEDIA_TYPE = 'application/vnd.cds+csv;version=1.0';

/** metrics.md, Session: the columns, in the document's order. */
export const SESSION_COLUMNS = [
  'session_type',
  'event_session_id',
  'event_id_start',
  'event_id_end',
  'event_location_start_latitude',
  'event_location_start_longitude',
  'event_location_end_latitude',
  'event_location_end_longitude',
  'event_time_start',
  'event_time_end',
  'curb_zone_id',
  'curb_area_ids',
  'curb_space_id',
  'vehicle_length',
  'vehicle_type',
] as const;

/** metrics.md, Aggregate: the columns, in the document's order. */
export const AGGREGATE_COLUMNS = ['curb_place_type', 'curb_place_id', 'metric_type', 'date', 'hour', 'value'] as const;

export const METRIC_TYPES = ['total_sessions', 'turnover', 'average_dwell_time', 'occupancy_percent'] as const;
export type MetricType = (typeof METRIC_TYPES)[number];

type Cell = string | number | null;

/** RFC 4180: a cell with a comma, quote or line break is quoted, its quotes doubled; null is empty. */
export function toCsv(columns: readonly string[], rows: Cell[][]): string {
  const cell = (v: Cell) => {
    if (v === null) return '';
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns.join(','), ...rows.map((r) => r.map(cell).join(','))].join('\r\n') + '\r\n';
}

export interface MetricsQuery {
  zoneIds?: number[];
  startMs: number;
  endMs: number;
}

const zoneIn = (col: string, zoneIds: number[] | undefined) =>
  zoneIds === undefined
    ? sql`true`
    : zoneIds.length === 0
      ? sql`false`
      : sql`${sql.raw(col)} in (${sql.join(
          zoneIds.map((id) => sql`${id}`),
          sql`, `,
        )})`;

/** The operator's sessions that started in the window, oldest first, as Session rows. */
export async function sessionRows(db: Executor, op: FeedOperator, q: MetricsQuery): Promise<Cell[][]> {
  const rows = await queryRows<{ id: number; zone_id: number; start_ms: number; end_ms: number | null }>(
    db,
    sql`select s.id, s.zone_id, (extract(epoch from s.started_at) * 1000)::float8 as start_ms,
               case when s.status = 'ended' then (extract(epoch from s.ended_at) * 1000)::float8 end as end_ms
          from parking_sessions s
         where s.operator_id = ${op.id} and ${zoneIn('s.zone_id', q.zoneIds)}
           and s.started_at >= to_timestamp(${q.startMs / 1000}) and s.started_at < to_timestamp(${q.endMs / 1000})
         order by s.started_at, s.id`,
  );
  const zones = new Map(op.zones.map((z) => [z.id, z]));
  return rows.map((r) => {
    const id = Number(r.id);
    const zone = zones.get(Number(r.zone_id))!;
    const ended = r.end_ms !== null && r.end_ms !== undefined;
    return [
      'parking',
      sessionCdsId(id),
      sessionEventId(id, 'park_start'),
      ended ? sessionEventId(id, 'park_end') : null,
      zone.lat,
      zone.lng,
      ended ? zone.lat : null,
      ended ? zone.lng : null,
      Math.round(Number(r.start_ms)),
      ended ? Math.round(Number(r.end_ms)) : null,
      zone.curbZoneId,
      null,
      null,
      null,
      null,
    ];
  });
}

/**
 * Hourly Aggregates of the operator's zones, per zone and hour of the operator's day, for the whole
 * hours of the window that have passed (metrics.md, Methodology): total_sessions the sessions that
 * started in the hour; turnover the same count per hour; average_dwell_time the mean stay in minutes
 * of those sessions; occupancy_percent the seconds parked in the hour over the zone's capacity
 * times 3600, in percent (zones of unknown capacity have none).
 */
export async function aggregateRows(
  db: Executor,
  op: FeedOperator,
  q: MetricsQuery & { metric?: MetricType },
): Promise<Cell[][]> {
  const rows = await queryRows<{
    zone_id: number;
    day: string;
    hour: number;
    sessions: number;
    stay: number;
    occupied: number;
  }>(
    db,
    sql`select r.zone_id, to_char(r.hour at time zone ${op.timeZone}, 'YYYY-MM-DD') as day,
               extract(hour from r.hour at time zone ${op.timeZone})::int as hour,
               r.sessions_started::float8 as sessions, r.stay_seconds::float8 as stay,
               r.occupied_seconds::float8 as occupied
          from operator_hourly_totals r
         where r.operator_id = ${op.id} and ${zoneIn('r.zone_id', q.zoneIds)}
           and r.hour >= date_trunc('hour', to_timestamp(${q.startMs / 1000}), 'UTC')
           and r.hour < to_timestamp(${q.endMs / 1000})
           and r.hour + interval '1 hour' <= now()
         order by r.zone_id, r.hour`,
  );
  const zones = new Map(op.zones.map((z) => [z.id, z]));
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const out: Cell[][] = [];
  for (const r of rows) {
    const zone = zones.get(Number(r.zone_id))!;
    const sessions = Number(r.sessions);
    const values: [MetricType, number | null][] = [
      ['total_sessions', sessions],
      ['turnover', sessions],
      ['average_dwell_time', sessions > 0 ? round2(Number(r.stay) / sessions / 60) : null],
      ['occupancy_percent', zone.capacity > 0 ? round2((Number(r.occupied) / (3600 * zone.capacity)) * 100) : null],
    ];
    for (const [metric, value] of values) {
      if (value === null || (q.metric !== undefined && q.metric !== metric)) continue;
      out.push(['zone', zone.curbZoneId, metric, r.day, Number(r.hour), value]);
    }
  }
  return out;
}
