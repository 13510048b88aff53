import { and, desc, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
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

/** rightToPark for a zone already read with RIGHT_ZONE_COLUMNS (q.zoneId its id): one round trip fewer. */
export async function rightInZone(db: Executor, zone: RightZone, q: RightQuery): Promise<ParkingRight | null> {
  const plate = normalisePlate(q.plate);
  if (plate === '') return null;
  const at = q.at;
  const atSql = sql`${at.toISOString()}::timestamptz`;
  const s = parkingSessions;
  const grace = zone.graceMinutes;
  const [session] = await db
    .select({ id: s.id, endsAt: s.endsAt })
    .from(s)
    .where(
      and(
        eq(s.zoneId, q.zoneId),
        eq(s.operatorId, zone.operatorId),
        q.pastMoment ? coveredSince(atSql) : eq(s.status, 'active'),
        sql`${s.endsAt} + make_interval(mins => ${grace}) > ${atSql}`,
        lte(s.startedAt, at),
        q.plateState === undefined ? undefined : eq(s.plateState, q.plateState),
        sql`${normalisedSessionPlate} = ${plate}`,
      ),
    )
    .orderBy(desc(s.endsAt))
    .limit(1);
  if (session)
    return {
      kind: 'session',
      id: String(session.id),
      endsAt: new Date(session.endsAt.getTime() + grace * 60_000).toISOString(),
    };

  // A permit is a right when the zone's policy in force at `at` lets its type park free then
  // (docs/pricing.md#permit-holders); a type priced at its own rate must pay a session.
  const held = await permitsOfPlate(db, { operatorId: zone.operatorId, zoneId: q.zoneId, plate, at });
  if (held.length > 0) {
    const policy = await policyForStart(db, zone, at);
    const permit = freePermitAt(policy.policy, zone.timezone, at.getTime(), held);
    if (permit) return { kind: 'permit', id: String(permit.id), endsAt: permit.validUntil?.toISOString() ?? null };
  }

  const p = permits;
  const v = visitorDays;
  const localDay = sql`(${atSql} at time zone ${zone.timezone})::date`;
  const [day] = await db
    .select({
      id: v.id,
      // The first moment of the next local day, as ISO text in UTC.
      endsAt: sql<string>`to_char(((${v.day} + 1)::timestamp at time zone ${zone.timezone}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`,
    })
    .from(v)
    .innerJoin(p, eq(p.id, v.permitId))
    .where(
      and(
        eq(v.operatorId, zone.operatorId),
        eq(v.plate, plate),
        sql`${v.day} = ${localDay}`,
        eq(p.status, 'active'),
        sql`${p.zoneIds} @> array[${q.zoneId}]::int[]`,
      ),
    )
    .limit(1);
  if (day) return { kind: 'visitor-day', id: String(day.id), endsAt: day.endsAt };

  const a = apdsAssignedRights;
  const [assigned] = await db
    .select({ apdsId: a.apdsId, endsAt: a.endsAt })
    .from(a)
    .where(
      and(
        eq(a.operatorId, zone.operatorId),
        eq(a.zoneId, q.zoneId),
        sql`${a.plates} @> array[${plate}::text]`,
        lte(a.startsAt, at),
        gt(a.endsAt, at),
      ),
    )
    .orderBy(desc(a.endsAt))
    .limit(1);
  if (assigned) return { kind: 'assigned-right', id: assigned.apdsId, endsAt: assigned.endsAt.toISOString() };
  return null;
}
