import { sql, type SQL } from 'drizzle-orm';
import { centsToAmount, HISTORY_MESSAGES as M, type PastSession, type SessionFilters, type SessionSort } from '@parkit/contract';
import { queryRows, type Executor } from '../../../db/client.ts';
import { badRequest } from '../../../lib/http-error.ts';

/**
 * The member's sessions, keyset-paged (issue 12). Date sorts walk the index
 * parking_sessions_member_started_idx (member_id, started_at, id) from the cursor on, so page 100 costs what page 1
 * costs; the cursor carries started_at to the microsecond and the id, so rows that share a start
 * time are neither skipped nor repeated, and rows inserted meanwhile do not shift the pages.
 * Distance sorts order the member's sessions by the distance of their zone from a point.
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

interface Cursor {
  s: SessionSort;
  /** started_at as ISO text with microseconds, or the distance in metres. */
  k: string | number;
  i: number;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(raw: string, sort: SessionSort): Cursor {
  let c: unknown;
  try {
    c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor', M.cursorInvalid);
  }
  const ok =
    typeof c === 'object' && c !== null &&
    SORTS.has((c as Cursor).s) &&
    Number.isSafeInteger((c as Cursor).i) && (c as Cursor).i > 0 &&
    (((c as Cursor).s === 'newest' || (c as Cursor).s === 'oldest')
      ? typeof (c as Cursor).k === 'string' && ISO_MICROS.test((c as Cursor).k as string)
      : typeof (c as Cursor).k === 'number' && Number.isFinite((c as Cursor).k) && ((c as Cursor).k as number) >= 0);
  if (!ok) throw badRequest('cursor', M.cursorInvalid);
  if ((c as Cursor).s !== sort) throw badRequest('cursor', M.cursorSort);
  return c as Cursor;
}

const SORTS = new Set<unknown>(['newest', 'oldest', 'near', 'far']);
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

interface Row {
  id: number;
  zone_id: number;
  zone_number: string;
  address: string;
  city: string;
  state: string;
  lat: number;
  lng: number;
  vehicle_id: number | null;
  vehicle_make: string;
  vehicle_model: string;
  plate: string;
  plate_state: string;
  started_at: Date | string;
  ends_at: Date | string;
  ended_at: Date | string | null;
  started_key: string;
  duration_minutes: number;
  paid_cents: number;
  fee_cents: number;
  paid_via: string;
  running: boolean;
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
    // As the parking session reads (issue 11): an 'active' row past its end has ended, the job just has not run.
    EndedAt: r.ended_at !== null ? iso(r.ended_at) : r.running ? null : iso(r.ends_at),
    DurationMinutes: r.duration_minutes,
    AmountPaid: centsToAmount(Number(r.paid_cents)),
    PaidVia: r.paid_via,
    Status: r.running ? 'Active' : 'Ended',
    DistanceMeters: r.distance_m === null ? null : Math.round(Number(r.distance_m)),
  };
}

export type HistoryRow = Row;

/** The WHERE, ORDER BY and the distance expression shared by the page, the CSV and EXPLAIN. */
export function historyQuery(p: HistoryParams, limit: number): SQL {
  const byDistance = p.sort === 'near' || p.sort === 'far';
  if (byDistance && !p.origin) throw new Error('near/far need an origin');
  const distance = byDistance
    ? sql`earth_distance(ll_to_earth(z.lat, z.lng), ll_to_earth(${p.origin!.lat}::float8, ${p.origin!.lng}::float8))`
    : sql`NULL::float8`;
  const where: SQL[] = [sql`s.member_id = ${p.memberId}`];
  if (p.from) where.push(sql`s.started_at >= (${p.from}::date::timestamp AT TIME ZONE ${p.timeZone})`);
  if (p.to) where.push(sql`s.started_at < ((${p.to}::date + 1)::timestamp AT TIME ZONE ${p.timeZone})`);
  if (p.vehicle !== undefined) where.push(sql`s.vehicle_id = ${p.vehicle}`);
  if (p.cursor) {
    const c = decodeCursor(p.cursor, p.sort);
    if (p.sort === 'newest') where.push(sql`(s.started_at, s.id) < (${c.k}::timestamptz, ${c.i}::int)`);
    else if (p.sort === 'oldest') where.push(sql`(s.started_at, s.id) > (${c.k}::timestamptz, ${c.i}::int)`);
    else if (p.sort === 'near') where.push(sql`(${distance}, s.id) > (${c.k}::float8, ${c.i}::int)`);
    else where.push(sql`(${distance}, s.id) < (${c.k}::float8, ${c.i}::int)`);
  }
  // The index is (member_id, started_at DESC NULLS LAST, id DESC NULLS LAST): the ORDER BY names
  // the same null placement (or its exact reverse) so the planner walks the index with no sort.
  const order = {
    newest: sql`s.started_at DESC NULLS LAST, s.id DESC NULLS LAST`,
    oldest: sql`s.started_at ASC NULLS FIRST, s.id ASC NULLS FIRST`,
    near: sql`${distance} ASC, s.id ASC`,
    far: sql`${distance} DESC, s.id DESC`,
  }[p.sort];
  return sql`
    SELECT s.id, s.zone_id, z.zone_number, z.address, z.city, z.state, z.lat, z.lng,
           s.vehicle_id, s.vehicle_make, s.vehicle_model, s.plate, s.plate_state,
           s.started_at, s.ends_at, s.ended_at,
           to_char(s.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS started_key,
           s.duration_minutes, (s.parking_cents + s.fee_cents - s.refunded_cents) AS paid_cents,
           s.fee_cents, s.paid_via, (s.status = 'active' AND s.ends_at > now()) AS running, ${distance} AS distance_m
    FROM parking_sessions s
    JOIN zones z ON z.id = s.zone_id
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY ${order}
    LIMIT ${limit}`;
}

function cursorOf(sort: SessionSort, r: Row): string {
  return encodeCursor({ s: sort, k: sort === 'newest' || sort === 'oldest' ? r.started_key : Number(r.distance_m), i: r.id });
}

export async function historyPage(db: Executor, p: HistoryParams): Promise<{ rows: Row[]; next: string | null }> {
  const rows = await queryRows<Row>(db, historyQuery(p, p.limit + 1));
  const page = rows.slice(0, p.limit);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > p.limit && last ? cursorOf(p.sort, last) : null };
}

/** Every row of the filtered history, a page at a time (for the CSV; memory stays flat). */
export async function* historyRows(db: Executor, p: Omit<HistoryParams, 'cursor' | 'limit'>, pageSize = 500): AsyncGenerator<Row> {
  let cursor: string | undefined;
  for (;;) {
    const { rows, next } = await historyPage(db, { ...p, cursor, limit: pageSize });
    yield* rows;
    if (!next) return;
    cursor = next;
  }
}
