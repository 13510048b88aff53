import { and, desc, eq, gt, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { isActive } from '../db/partial-index.ts';
import { apdsAssignedRights, operators, parkingSessions, permits, visitorDays, zones } from '../db/schema/index.ts';
import { normalisePlate } from '../lib/plate.ts';
import { freePermitAt, permitsOfPlate, policyForStart } from '../pricing/index.ts';

/** A right to park: what it is, its id, and when it ends (null: not known to end). */
export interface ParkingRight {
  kind: 'session' | 'permit' | 'visitor-day' | 'assigned-right';
  id: string;
  endsAt: string | null;
}

export interface RightQuery {
  zoneId: number;
  /** As typed or saved: compared normalised (normalisePlate). */
  plate: string;
  at: Date;
  /** When given, a session must have been started for this plate state (the officers' check names one). */
  plateState?: string;
  /**
   * `at` may lie in the past (a citation written offline, the automatic cancellation of citations):
   * a session ended since still covers the moments it held. Without it only running sessions count
   * (through the active-sessions index), as a check of the present wants.
   */
  pastMoment?: boolean;
}

export const normalisedSessionPlate = sql`regexp_replace(upper(${parkingSessions.plate}), '[[:space:].·-]', '', 'g')`;

/**
 * A session that held the moment `at`, running or ended since: still active, or ended after `at`
 * (Stop sets ended_at to the stop), or ended at its paid end (the expiry job: its grace counts).
 * A session stopped early, before `at`, does not.
 */
const coveredSince = (atSql: SQL) =>
  sql`(${parkingSessions.status} = 'active' or ${parkingSessions.endedAt} > ${atSql} or ${parkingSessions.endedAt} >= ${parkingSessions.endsAt})`;

/** A zone's columns that its rights and its price rules need (with its operator's time zone). */
export const ZONE_RULE_COLUMNS = {
  id: zones.id,
  operatorId: zones.operatorId,
  rateCents: zones.rateCents,
  maxStayMinutes: zones.maxStayMinutes,
  paidDays: zones.paidDays,
  paidFromMinute: zones.paidFromMinute,
  paidUntilMinute: zones.paidUntilMinute,
  timezone: operators.timezone,
};

/** What rightToPark reads of the zone: its rule columns and its operator's grace minutes. */
export const RIGHT_ZONE_COLUMNS = { ...ZONE_RULE_COLUMNS, graceMinutes: operators.graceMinutes };

/**
 * The one place that knows every right to park (docs/permits.md#rights): a paid session (a
 * member's or Quick Park's) running at `at`, counting the operator's grace minutes after its end;
 * an active permit of the plate for the zone whose window holds `at` and whose type the zone's
 * policy lets park free at `at` (not one priced at its own rate); a visitor day given to
 * the plate for `at`'s date in the operator's time zone by an active permit covering the zone; an
 * APDS assigned right a third party created with the operator's key for the plate in the zone,
 * whose window holds `at` (docs/apds.md#assigned-rights). Sessions first, then permits, then
 * visitor days, then assigned rights. Pass a transaction to check inside it (a
 * citation is refused in the transaction that would write it).
 */
export async function rightToPark(db: Executor, q: RightQuery): Promise<ParkingRight | null> {
  if (normalisePlate(q.plate) === '') return null;
  const zone = await readRightZone(db, q.zoneId);
  return zone ? rightInZone(db, zone, q) : null;
}

async function readRightZone(db: Executor, zoneId: number) {
  const [zone] = await db
    .select(RIGHT_ZONE_COLUMNS)
    .from(zones)
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .where(eq(zones.id, zoneId))
    .limit(1);
  return zone;
}
export type RightZone = NonNullable<Awaited<ReturnType<typeof readRightZone>>>;

/**
 * The zone the four reads are about: its values (rightInZone), or SQL that reads them in the same
 * statement (the plate check's one statement, check-repository.ts).
 */
export interface RightZoneRef {
  id: number | SQL;
  operatorId: number | SQL;
  graceMinutes: number | SQL;
  timezone: string | SQL;
}

/**
 * The plate and the moment the four reads are about, as SQL: a call's values (rightRef), or the
 * placeholders of a statement built once (the plate check's, check-repository.ts).
 */
export interface RightRef {
  /** The plate, normalised (normalisePlate). */
  plate: SQLWrapper;
  /** The moment, a timestamptz. */
  at: SQL;
  plateState?: SQLWrapper;
  pastMoment?: boolean;
}

/** A query's values as the reads take them. */
export function rightRef(q: Omit<RightQuery, 'zoneId'>): RightRef {
  return {
    plate: sql`${normalisePlate(q.plate)}`,
    at: sql`${q.at.toISOString()}::timestamptz`,
    plateState: q.plateState === undefined ? undefined : sql`${q.plateState}`,
    pastMoment: q.pastMoment,
  };
}

/** The paid session of the plate in the zone that covers `at` (the latest ending), as a builder: `id`, `ends_at`. */
export function sessionRightQuery(db: Executor, z: RightZoneRef, q: RightRef) {
  const { plate, at: atSql } = q;
  const s = parkingSessions;
  return db
    .select({ id: s.id, endsAt: s.endsAt })
    .from(s)
    .where(
      and(
        eq(s.zoneId, z.id),
        eq(s.operatorId, z.operatorId),
        q.pastMoment ? coveredSince(atSql) : isActive(s.status),
        sql`${s.endsAt} + make_interval(mins => ${z.graceMinutes}) > ${atSql}`,
        lte(s.startedAt, atSql),
        q.plateState === undefined ? undefined : eq(s.plateState, q.plateState),
        sql`${normalisedSessionPlate} = ${plate}`,
      ),
    )
    .orderBy(desc(s.endsAt))
    .limit(1);
}

/** A visitor day given to the plate for `at`'s local date by an active permit covering the zone, as a builder: `id`, `ends_at` (ISO text). */
export function visitorDayQuery(db: Executor, z: RightZoneRef, q: RightRef) {
  const { plate, at: atSql } = q;
  const p = permits;
  const v = visitorDays;
  const localDay = sql`(${atSql} at time zone ${z.timezone})::date`;
  return db
    .select({
      id: v.id,
      // The first moment of the next local day, as ISO text in UTC.
      endsAt:
        sql<string>`to_char(((${v.day} + 1)::timestamp at time zone ${z.timezone}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`.as(
          'ends_at',
        ),
    })
    .from(v)
    .innerJoin(p, eq(p.id, v.permitId))
    .where(
      and(
        eq(v.operatorId, z.operatorId),
        eq(v.plate, plate),
        sql`${v.day} = ${localDay}`,
        isActive(p.status),
        sql`${p.zoneIds} @> array[${z.id}]::int[]`,
      ),
    )
    .limit(1);
}

/** An APDS assigned right of the plate in the zone whose window holds `at` (the latest ending), as a builder: `apds_id`, `ends_at`. */
export function assignedRightQuery(db: Executor, z: RightZoneRef, q: RightRef) {
  const plate = q.plate;
  const a = apdsAssignedRights;
  return db
    .select({ apdsId: a.apdsId, endsAt: a.endsAt })
    .from(a)
    .where(
      and(
        eq(a.operatorId, z.operatorId),
        eq(a.zoneId, z.id),
        sql`${a.plates} @> array[${plate}::text]`,
        lte(a.startsAt, q.at),
        gt(a.endsAt, q.at),
      ),
    )
    .orderBy(desc(a.endsAt))
    .limit(1);
}

/** Each read's row as the right it is: a session's right lasts the operator's grace minutes past its end. */
export const asRight = {
  session: (row: { id: number; endsAt: Date }, graceMinutes: number): ParkingRight => ({
    kind: 'session',
    id: String(row.id),
    endsAt: new Date(row.endsAt.getTime() + graceMinutes * 60_000).toISOString(),
  }),
  permit: (row: { id: number; validUntil: Date | null }): ParkingRight => ({
    kind: 'permit',
    id: String(row.id),
    endsAt: row.validUntil?.toISOString() ?? null,
  }),
  visitorDay: (row: { id: number; endsAt: string }): ParkingRight => ({
    kind: 'visitor-day',
    id: String(row.id),
    endsAt: row.endsAt,
  }),
  assigned: (row: { apdsId: string; endsAt: Date }): ParkingRight => ({
    kind: 'assigned-right',
    id: row.apdsId,
    endsAt: row.endsAt.toISOString(),
  }),
};

/** rightToPark for a zone already read with RIGHT_ZONE_COLUMNS (q.zoneId its id): one round trip fewer. */
export async function rightInZone(db: Executor, zone: RightZone, q: RightQuery): Promise<ParkingRight | null> {
  const plate = normalisePlate(q.plate);
  if (plate === '') return null;
  const at = q.at;
  const ref: RightZoneRef = { ...zone, id: q.zoneId };
  const r = rightRef(q);
  const [session] = await sessionRightQuery(db, ref, r);
  if (session) return asRight.session(session, zone.graceMinutes);

  // A permit is a right when the zone's policy in force at `at` lets its type park free then
  // (docs/pricing.md#permit-holders); a type priced at its own rate must pay a session.
  const held = await permitsOfPlate(db, { operatorId: zone.operatorId, zoneId: q.zoneId, plate, at });
  if (held.length > 0) {
    const policy = await policyForStart(db, zone, at);
    const permit = freePermitAt(policy.policy, zone.timezone, at.getTime(), held);
    if (permit) return asRight.permit(permit);
  }

  const [day] = await visitorDayQuery(db, ref, r);
  if (day) return asRight.visitorDay(day);

  const [assigned] = await assignedRightQuery(db, ref, r);
  if (assigned) return asRight.assigned(assigned);
  return null;
}
