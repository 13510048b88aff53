import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';

// The reads of the operator's dashboard and reports (docs/reports.md). Figures come from the views
// operator_hourly_totals and operator_daily_totals: the rollups the database keeps as sessions are
// written (migrations 0031 and 0048) plus the shares not folded into them yet;
// only "running now" and the CSV of sessions read parking_sessions, each through an index
// (the active sessions' partial index; operator_id, started_at). Style 2 throughout
// (docs/data-access.md#which-style-for-what): grouping sets, time zones and ANY(array).

/** A zone of the operator as a report names it. */
export interface ZoneRow {
  id: number;
  zone_number: string;
  name: string;
  lat: number;
  lng: number;
  capacity: number;
  retired: boolean;
}

/** The SQL array of ids (ids are validated whole numbers). */
const idArray = (ids: readonly number[]) => sql`${`{${ids.map((i) => Math.trunc(i)).join(',')}}`}::int[]`;

/** The operator's zones, or those of `ids` among them (another operator's ids are simply not found). */
export function operatorZones(db: Executor, operatorId: number, ids: readonly number[]): Promise<ZoneRow[]> {
  return queryRows<ZoneRow>(
    db,
    sql`SELECT id, zone_number, name, lat, lng, capacity, retired_at IS NOT NULL AS retired
        FROM zones WHERE operator_id = ${operatorId} ${ids.length ? sql`AND id = ANY(${idArray(ids)})` : sql``}
        ORDER BY zone_number, id`,
  );
}

/** Sessions running at `now` per zone of the operator (the active sessions' partial index). */
export function runningByZone(db: Executor, operatorId: number, now: Date): Promise<{ zone_id: number; n: number }[]> {
  return queryRows(
    db,
    sql`SELECT zone_id, count(*)::int AS n FROM parking_sessions
        WHERE status = 'active' AND ends_at > ${now.toISOString()}::timestamptz AND operator_id = ${operatorId}
        GROUP BY zone_id`,
  );
}

/** The moment the operator's day `day` (YYYY-MM-DD) begins, in SQL. */
const dayStart = (day: string, timezone: string): SQL => sql`(${day}::date::timestamp AT TIME ZONE ${timezone})`;
const dayAfter = (day: string, timezone: string): SQL =>
  sql`((${day}::date + 1)::timestamp AT TIME ZONE ${timezone})`;

/** Sums of rollup rows, as the report groups them (h00 … h23: seconds parked in each hour of the operator's day). */
export interface FigureRow {
  zone_id: number | null;
  dow: number | null;
  day: string | null;
  sessions: string | number;
  stay_seconds: string | number;
  parking_cents: string | number;
  fee_cents: string | number;
  refunded_cents: string | number;
  discount_cents: string | number;
  occupied_seconds: string | number;
  [hour: `h${string}`]: string | number | undefined;
}

export interface RollupRange {
  operatorId: number;
  timezone: string;
  from: string;
  to: string;
  /** The zones; empty: all the operator's. */
  zoneIds: readonly number[];
}

/** The rollup rows (aliased h) of the range: the UTC hours that start inside the operator's days. */
const rangeWhere = (r: RollupRange) =>
  sql`h.operator_id = ${r.operatorId} AND h.hour >= ${dayStart(r.from, r.timezone)} AND h.hour < ${dayAfter(r.to, r.timezone)}
      ${r.zoneIds.length ? sql`AND h.zone_id = ANY(${idArray(r.zoneIds)})` : sql``}`;

/** The daily rollup rows (aliased d) of the range: the operator's days from `from` to `to`. */
const dayWhere = (r: RollupRange) =>
  sql`d.operator_id = ${r.operatorId} AND d.day >= ${r.from}::date AND d.day <= ${r.to}::date
      ${r.zoneIds.length ? sql`AND d.zone_id = ANY(${idArray(r.zoneIds)})` : sql``}`;

/** The first UTC hour at or after a moment: a session counts in the range when its start hour does. */
const hourCeil = (moment: SQL) => sql`(date_trunc('hour', ${moment} - interval '1 microsecond', 'UTC') + interval '1 hour')`;

const sums = sql`sum(sessions_started)::bigint AS sessions, sum(stay_seconds)::bigint AS stay_seconds,
  sum(parking_cents)::bigint AS parking_cents, sum(fee_cents)::bigint AS fee_cents,
  sum(refunded_cents)::bigint AS refunded_cents, sum(discount_cents)::bigint AS discount_cents,
  sum(occupied_seconds)::bigint AS occupied_seconds`;
/** The hours of a day as the daily rollups name them, 00 to 23. */
export const DAY_HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));
const hourSums = sql.raw(DAY_HOURS.map((h) => `sum(occupied_h${h})::bigint AS h${h}`).join(', '));

/** Per operator's day (the dashboard's trend and today): a row per zone and day of operator_daily_totals. */
export function dailyFigures(db: Executor, r: RollupRange): Promise<FigureRow[]> {
  return queryRows<FigureRow>(
    db,
    sql`SELECT NULL::int AS zone_id, NULL::int AS dow, to_char(d.day, 'YYYY-MM-DD') AS day, ${sums}
        FROM operator_daily_totals d WHERE ${dayWhere(r)}
        GROUP BY d.day ORDER BY d.day`,
  );
}

/**
 * The report's figures in one scan of the range's daily rollup rows, four groupings: per zone,
 * per ISO weekday, per day, and the whole range (with its seconds parked per hour of the day). A
 * row's other keys are null.
 */
export function reportFigures(db: Executor, r: RollupRange): Promise<FigureRow[]> {
  return queryRows<FigureRow>(
    db,
    sql`SELECT d.zone_id, extract(isodow FROM d.day)::int AS dow, to_char(d.day, 'YYYY-MM-DD') AS day, ${sums},
          ${hourSums}
        FROM operator_daily_totals d WHERE ${dayWhere(r)}
        GROUP BY GROUPING SETS ((d.zone_id), (extract(isodow FROM d.day)::int), (d.day), ())`,
  );
}

/** One session behind a report's figures, with its share as the rollups count it. */
export interface SessionCsvRow {
  id: number;
  zone_number: string;
  started_at: string | Date;
  ended_at: string | Date;
  status: string;
  stay_seconds: string | number;
  parking_cents: number;
  fee_cents: number;
  refunded_cents: number;
  discount_cents: string | number;
}

/**
 * The sessions started in the range in the zones, oldest first, a page at a time (keyset on
 * started_at, id over parking_sessions_operator_started_idx). Stay and discount come from
 * session_rollup_share, the function the rollups are summed from, so the rows add up to the report.
 */
export async function* sessionRows(db: Executor, r: RollupRange, pageSize = 1000): AsyncGenerator<SessionCsvRow> {
  let after: { at: string; id: number } | null = null;
  for (;;) {
    const rows: (SessionCsvRow & { at: string })[] = await queryRows(
      db,
      sql`SELECT s.id, z.zone_number, s.started_at, coalesce(s.ended_at, s.ends_at) AS ended_at, s.status,
                 s.parking_cents, s.fee_cents, s.refunded_cents, sh.stay_seconds, sh.discount_cents,
                 to_char(s.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS at
          FROM parking_sessions s
          JOIN zones z ON z.id = s.zone_id
          CROSS JOIN LATERAL (
            SELECT sum(x.stay_seconds)::bigint AS stay_seconds, sum(x.discount_cents)::bigint AS discount_cents
            FROM session_rollup_share(s, 1) x
          ) sh
          WHERE s.operator_id = ${r.operatorId}
            AND s.started_at >= ${hourCeil(dayStart(r.from, r.timezone))}
            AND s.started_at < ${hourCeil(dayAfter(r.to, r.timezone))}
            ${r.zoneIds.length ? sql`AND s.zone_id = ANY(${idArray(r.zoneIds)})` : sql``}
            ${after ? sql`AND (s.started_at, s.id) > (${after.at}::timestamp AT TIME ZONE 'UTC', ${after.id})` : sql``}
          ORDER BY s.started_at, s.id
          LIMIT ${pageSize}`,
    );
    for (const { at: _at, ...row } of rows) yield row;
    const last = rows.at(-1);
    if (!last || rows.length < pageSize) return;
    after = { at: last.at, id: last.id };
  }
}

/** The rollup rows behind the report's occupancy (and its sums), by hour then zone number. */
export interface HourCsvRow {
  hour: string | Date;
  zone_number: string;
  sessions_started: string | number;
  stay_seconds: string | number;
  parking_cents: string | number;
  fee_cents: string | number;
  refunded_cents: string | number;
  discount_cents: string | number;
  occupied_seconds: string | number;
}

export function hourRows(db: Executor, r: RollupRange): Promise<HourCsvRow[]> {
  return queryRows<HourCsvRow>(
    db,
    sql`SELECT h.hour, z.zone_number, h.sessions_started, h.stay_seconds, h.parking_cents, h.fee_cents,
               h.refunded_cents, h.discount_cents, h.occupied_seconds
        FROM operator_hourly_totals h JOIN zones z ON z.id = h.zone_id
        WHERE ${rangeWhere(r)}
        ORDER BY h.hour, z.zone_number`,
  );
}
