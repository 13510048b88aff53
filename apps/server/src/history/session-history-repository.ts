import { sql, type SQL } from 'drizzle-orm';
import { centsToAmount, type PastSession, type SessionFilters, type SessionSort } from '@parkit/contract';
import { queryRows, type Executor } from '../db/client.ts';
import { EARTH_CUBE_RADIUS_M, earthPoint, metresOfChord } from '../zones/index.ts';
import { decodeCursor, encodeCursor } from './history-cursor.ts';
import type { SessionSqlRow } from '../db/session-row.ts';

/**
 * The member's sessions, keyset-paged. Date sorts walk the index
 * parking_sessions_member_started_idx (member_id, started_at, id) from the cursor on, so page 100 costs what page 1
 * costs; the cursor carries started_at to the microsecond and the id, so rows that share a start
 * time are neither skipped nor repeated, and rows inserted meanwhile do not shift the pages.
 * With a vehicle, date sorts walk parking_sessions_member_vehicle_started_idx (member_id,
 * vehicle_id, started_at, id) the same way, so a vehicle the member rarely uses costs a page, not
 * a walk through the member's other sessions.
 * Distance sorts walk the member's distinct zones by distance, and each zone's sessions newest first
 * (with a vehicle, each zone's page comes from either index, whichever the planner finds fewer rows in).
 */
export interface HistoryParams extends Omit<SessionFilters, 'lat' | 'lng'> {
  memberId: number;
  /** Where near/far measure from (the driver's position or the city centre). */
  origin: { lat: number; lng: number } | null;
  /** The member's operator's time zone: from/to are calendar days there. */
  timeZone: string;
  cursor?: string | undefined;
  limit: number;
}

interface Row extends Omit<SessionSqlRow, 'parking_cents' | 'refunded_cents'> {
  started_key: string;
  paid_cents: number;
  running: boolean;
  /** near/far: the chord to the zone on earthdistance's sphere (the sort key); metres via metresOfChord. */
  distance_m: number | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();

export function toPastSession(r: Row): PastSession {
  return {
    SessionId: r.id,
    ZoneId: r.zone_id,
    ZoneNumber: r.zone_number,
    Address: r.address,
    City: r.city,
    State: r.state,
    Latitude: r.lat,
    Longitude: r.lng,
    VehicleId: r.vehicle_id,
    VehicleMake: r.vehicle_make,
    VehicleModel: r.vehicle_model,
    PlateNumber: r.plate,
    PlateState: r.plate_state,
    StartedAt: iso(r.started_at),
    EndsAt: iso(r.ends_at),
    // As the parking session reads: an 'active' row past its end has ended, the job just has not run.
    EndedAt: r.ended_at !== null ? iso(r.ended_at) : r.running ? null : iso(r.ends_at),
    DurationMinutes: r.duration_minutes,
    AmountPaid: centsToAmount(Number(r.paid_cents)),
    PaidVia: r.paid_via,
    Status: r.running ? 'Active' : 'Ended',
    DistanceMeters: r.distance_m === null ? null : Math.round(metresOfChord(Number(r.distance_m))),
  };
}

export type HistoryRow = Row;

const COLUMNS = sql`
  s.id, s.vehicle_id, s.vehicle_make, s.vehicle_model, s.plate, s.plate_state, s.started_at, s.ends_at, s.ended_at,
  to_char(s.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS started_key,
  s.duration_minutes, (s.parking_cents + s.fee_cents - s.refunded_cents) AS paid_cents,
  s.fee_cents, s.paid_via, (s.status = 'active' AND s.ends_at > now()) AS running`;

/** The date and vehicle filters, as conditions on parking_sessions s. */
function filters(p: HistoryParams): SQL[] {
  const where: SQL[] = [sql`s.member_id = ${p.memberId}`];
  if (p.from) where.push(sql`s.started_at >= (${p.from}::date::timestamp AT TIME ZONE ${p.timeZone})`);
  if (p.to) where.push(sql`s.started_at < ((${p.to}::date + 1)::timestamp AT TIME ZONE ${p.timeZone})`);
  if (p.vehicle !== undefined) where.push(sql`s.vehicle_id = ${p.vehicle}`);
  return where;
}

/** The page's query (also the CSV's, a page at a time, and the EXPLAIN tests' and bench's). */
export function historyQuery(p: HistoryParams, limit: number): SQL {
  return p.sort === 'near' || p.sort === 'far' ? distanceQuery(p, limit) : dateQuery(p, limit);
}

/**
 * newest/oldest: parking_sessions_member_started_idx (member_id, started_at DESC NULLS LAST, id
 * DESC NULLS LAST) walked from the cursor. The ORDER BY names the index's null placement (or its
 * exact reverse): PostgreSQL's default for DESC is NULLS FIRST, and with a mismatch it sorts.
 * The zone is a LATERAL lookup by primary key, row by row in the index's order: as a plain join the
 * planner, seeing a few rows (a week's), hash-joined them with every zone and sorted them again.
 */
function dateQuery(p: HistoryParams, limit: number): SQL {
  const where = filters(p);
  if (p.cursor) {
    const c = decodeCursor(p.cursor, p.sort);
    if (c.s === 'newest') where.push(sql`(s.started_at, s.id) < (${c.k}::timestamptz, ${c.i}::int)`);
    else if (c.s === 'oldest') where.push(sql`(s.started_at, s.id) > (${c.k}::timestamptz, ${c.i}::int)`);
  }
  const order =
    p.sort === 'newest'
      ? sql`s.started_at DESC NULLS LAST, s.id DESC NULLS LAST`
      : sql`s.started_at ASC NULLS FIRST, s.id ASC NULLS FIRST`;
  return sql`
    SELECT ${COLUMNS}, s.zone_id, z.zone_number, z.address, z.city, z.state, z.lat, z.lng, NULL::float8 AS distance_m
    FROM parking_sessions s
    CROSS JOIN LATERAL (SELECT z.* FROM zones z WHERE z.id = s.zone_id LIMIT 1) z
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY ${order}
    LIMIT ${limit}`;
}

/**
 * near/far: distance is a property of the zone, so the order is (distance, zone id) over the
 * member's distinct zones, then each zone's sessions newest first: (distance, zone_id, started_at
 * DESC, id DESC), and the cursor carries all four.
 * 1. member_zones: the member's distinct zones, by a loose index scan (one probe per zone) of
 *    parking_sessions_member_zone_idx (member_id, zone_id, started_at DESC, id DESC), never
 *    reading the sessions themselves.
 * 2. zd: those zones with their distance, ordered: the only full sort, over the member's distinct
 *    zones (bounded by the zones of the member's city, not by the length of the history).
 * 3. Per zone in that order, its sessions from the same index (LIMIT the page), the cursor's zone
 *    starting after the cursor's (started_at, id). The outer ORDER BY arrives presorted on
 *    (distance, zone_id): an Incremental Sort of one zone's rows at a time (at most a page each),
 *    which stops as soon as the page is full.
 */
function distanceQuery(p: HistoryParams, limit: number): SQL {
  if (!p.origin) throw new Error('near/far need an origin');
  const near = p.sort === 'near';
  // The chord from the origin to the zone on earthdistance's sphere (what cube's <-> measures, and
  // in the same order as the great-circle distance), in plain arithmetic: ll_to_earth is a SQL
  // function with a domain check, ten times slower per zone. Metres come from it in toPastSession.
  const [x, y, zc] = earthPoint(p.origin.lat, p.origin.lng);
  const R = EARTH_CUBE_RADIUS_M;
  const distance = sql`sqrt(power(${R}::float8 * cos(radians(z.lat)) * cos(radians(z.lng)) - ${x}::float8, 2)
    + power(${R}::float8 * cos(radians(z.lat)) * sin(radians(z.lng)) - ${y}::float8, 2)
    + power(${R}::float8 * sin(radians(z.lat)) - ${zc}::float8, 2))`;
  const c = p.cursor ? decodeCursor(p.cursor, p.sort) : null;
  const after = c?.s === 'near' || c?.s === 'far' ? c : null;
  // Zones after the cursor's (distance, zone) in this order, and the cursor's zone itself (its
  // remaining sessions are those before the cursor's (started_at, id)).
  const zoneWhere = after
    ? near
      ? sql`WHERE (${distance}, z.id) > (${after.k}::float8, ${after.z}::int) OR z.id = ${after.z}::int`
      : sql`WHERE (${distance}, z.id) < (${after.k}::float8, ${after.z}::int) OR z.id = ${after.z}::int`
    : sql``;
  const before = after
    ? sql`CASE WHEN z.id = ${after.z}::int THEN ${after.t}::timestamptz ELSE 'infinity'::timestamptz END AS before_at,
          CASE WHEN z.id = ${after.z}::int THEN ${after.i}::int ELSE 0 END AS before_id`
    : sql`'infinity'::timestamptz AS before_at, 0 AS before_id`;
  const zoneOrder = near ? sql`distance_m ASC, zone_id ASC` : sql`distance_m DESC, zone_id DESC`;
  const where = filters(p);
  where.push(sql`s.zone_id = zd.zone_id`);
  if (after) where.push(sql`(s.started_at, s.id) < (zd.before_at, zd.before_id)`);
  return sql`
    WITH RECURSIVE member_zones(zone_id) AS (
      (SELECT s.zone_id FROM parking_sessions s WHERE s.member_id = ${p.memberId} ORDER BY s.zone_id LIMIT 1)
      UNION ALL
      SELECT nx.zone_id FROM member_zones mz CROSS JOIN LATERAL (
        SELECT s.zone_id FROM parking_sessions s
        WHERE s.member_id = ${p.memberId} AND s.zone_id > mz.zone_id ORDER BY s.zone_id LIMIT 1
      ) nx
    )
    SELECT ${COLUMNS}, zd.zone_id, zd.zone_number, zd.address, zd.city, zd.state, zd.lat, zd.lng, zd.distance_m
    FROM (
      SELECT z.id AS zone_id, z.zone_number, z.address, z.city, z.state, z.lat, z.lng, ${distance} AS distance_m, ${before}
      FROM member_zones mz JOIN zones z ON z.id = mz.zone_id
      ${zoneWhere}
      ORDER BY ${zoneOrder}
    ) zd
    CROSS JOIN LATERAL (
      SELECT s.* FROM parking_sessions s
      WHERE ${sql.join(where, sql` AND `)}
      ORDER BY s.started_at DESC NULLS LAST, s.id DESC NULLS LAST
      LIMIT ${limit}
    ) s
    ORDER BY ${near ? sql`zd.distance_m ASC, zd.zone_id ASC` : sql`zd.distance_m DESC, zd.zone_id DESC`}, s.started_at DESC NULLS LAST, s.id DESC NULLS LAST
    LIMIT ${limit}`;
}

function cursorOf(sort: SessionSort, r: Row): string {
  return encodeCursor(
    sort === 'newest' || sort === 'oldest'
      ? { s: sort, k: r.started_key, i: r.id }
      : { s: sort, k: Number(r.distance_m), z: r.zone_id, t: r.started_key, i: r.id },
  );
}

export async function historyPage(db: Executor, p: HistoryParams): Promise<{ rows: Row[]; next: string | null }> {
  const rows = await queryRows<Row>(db, historyQuery(p, p.limit + 1));
  const page = rows.slice(0, p.limit);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > p.limit && last ? cursorOf(p.sort, last) : null };
}

/** Every row of the filtered history, a page at a time (for the CSV; memory stays flat). */
export async function* historyRows(
  db: Executor,
  p: Omit<HistoryParams, 'cursor' | 'limit'>,
  pageSize = 500,
): AsyncGenerator<Row> {
  let cursor: string | undefined;
  for (;;) {
    const { rows, next } = await historyPage(db, { ...p, cursor, limit: pageSize });
    yield* rows;
    if (!next) return;
    cursor = next;
  }
}
