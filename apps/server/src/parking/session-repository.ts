import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { AMEND_WINDOW_MINUTES, centsToAmount, type ParkingSession } from '@parkit/contract';
import { queryRows, type Executor } from '../db/client.ts';
import { operators, parkingSessions, zones } from '../db/schema/index.ts';
import { vehicleSessionsSql } from './rules.ts';

export type SessionRow = typeof parkingSessions.$inferSelect;
export type NewSession = typeof parkingSessions.$inferInsert;

/** A session with the zone and time zone it needs for prices and views. */
export interface SessionWithZone {
  session: SessionRow;
  zone: typeof zones.$inferSelect;
  timezone: string;
}

const withZone = (db: Executor) =>
  db
    .select({ session: parkingSessions, zone: zones, timezone: operators.timezone })
    .from(parkingSessions)
    .innerJoin(zones, eq(zones.id, parkingSessions.zoneId))
    .innerJoin(operators, eq(operators.id, parkingSessions.operatorId));

/** A new session's period and price, from its quote: from now, the quote's minutes at the zone's rate. */
export const paidPeriod = (
  q: { durationMinutes: number; parkingCents: number; policyVersionId: number | null },
  zone: { rateCents: number },
  now: Date,
) => ({
  startedAt: now,
  endsAt: new Date(now.getTime() + q.durationMinutes * 60_000),
  durationMinutes: q.durationMinutes,
  initialMinutes: q.durationMinutes,
  rateCents: zone.rateCents,
  parkingCents: q.parkingCents,
  policyVersionId: q.policyVersionId,
  updatedAt: now,
});

/** Who may see a session: its member, or (Quick Park) the guest phone it was paid from. */
export type Owner = { memberId: number } | { guestPhone: string };

const ownedBy = (o: Owner) =>
  'memberId' in o
    ? eq(parkingSessions.memberId, o.memberId)
    : and(eq(parkingSessions.guestPhone, o.guestPhone), sql`${parkingSessions.memberId} is null`);

/** One session of this owner; null for none, including another member's. */
export async function findOwned(db: Executor, owner: Owner, id: number): Promise<SessionWithZone | null> {
  const [row] = await withZone(db)
    .where(and(eq(parkingSessions.id, id), ownedBy(owner)))
    .limit(1);
  return row ?? null;
}

/**
 * Locks one session of this owner until the transaction ends (Stop, Extend, Amend and the jobs
 * queue on it), then reads it with its zone. Null for none, including another member's.
 */
export async function lockOwned(tx: Executor, owner: Owner, id: number): Promise<SessionWithZone | null> {
  const cond =
    'memberId' in owner
      ? sql`member_id = ${owner.memberId}`
      : sql`guest_phone = ${owner.guestPhone} and member_id is null`;
  const locked = await queryRows<{ id: number }>(
    tx,
    sql`select id from parking_sessions where id = ${id} and ${cond} for update`,
  );
  if (locked.length === 0) return null;
  return findOwned(tx, owner, id);
}

/** The owner's sessions that are running at `now`, soonest end first. */
export async function activeOf(db: Executor, owner: Owner, now: Date): Promise<SessionWithZone[]> {
  return withZone(db)
    .where(and(ownedBy(owner), eq(parkingSessions.status, 'active'), gt(parkingSessions.endsAt, now)))
    .orderBy(parkingSessions.endsAt);
}

/**
 * The running session of a vehicle, if any: rules.ts's busy-vehicle rule (expired rows the job has
 * not closed yet do not count).
 */
export async function activeOfVehicle(db: Executor, vehicleId: number, now: Date): Promise<SessionRow | null> {
  const [row] = await db
    .select()
    .from(parkingSessions)
    .where(
      sql`${parkingSessions.id} in (${vehicleSessionsSql(sql`${vehicleId}::int`, sql`${now.toISOString()}::timestamptz`)})`,
    )
    .limit(1);
  return row ?? null;
}

/**
 * Whether the vehicle's last stay in the zone ended less than `minutes` ago: a policy's no-return
 * period (docs/pricing.md). A stay ends when it was stopped, or at its end time.
 */
export async function leftZoneSince(
  db: Executor,
  vehicleId: number,
  zoneId: number,
  now: Date,
  minutes: number,
): Promise<boolean> {
  const since = new Date(now.getTime() - minutes * 60_000).toISOString();
  const [row] = await db
    .select({ id: parkingSessions.id })
    .from(parkingSessions)
    .where(
      and(
        eq(parkingSessions.vehicleId, vehicleId),
        eq(parkingSessions.zoneId, zoneId),
        sql`coalesce(${parkingSessions.endedAt}, ${parkingSessions.endsAt}) > ${since}::timestamptz`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Closes the vehicle's sessions whose time ran out before the expiry job got to them, so the
 * unique "one active session per vehicle" index admits the new one.
 */
export async function closeExpiredOfVehicle(tx: Executor, vehicleId: number, now: Date): Promise<void> {
  await tx
    .update(parkingSessions)
    .set({ status: 'ended', endedAt: sql`${parkingSessions.endsAt}`, updatedAt: now })
    .where(
      and(
        eq(parkingSessions.vehicleId, vehicleId),
        eq(parkingSessions.status, 'active'),
        sql`${parkingSessions.endsAt} <= ${now}`,
      ),
    );
}

export async function insertSession(tx: Executor, s: NewSession): Promise<SessionRow> {
  const [row] = await tx.insert(parkingSessions).values(s).returning();
  if (!row) throw new Error('session insert returned no row');
  return row;
}

export async function updateSession(tx: Executor, id: number, changes: Partial<NewSession>): Promise<void> {
  await tx.update(parkingSessions).set(changes).where(eq(parkingSessions.id, id));
}

/** The member's most recent session (Auto Start reuses its first duration). */
export async function latestOf(db: Executor, memberId: number): Promise<SessionRow | null> {
  const [row] = await db
    .select()
    .from(parkingSessions)
    .where(eq(parkingSessions.memberId, memberId))
    .orderBy(desc(parkingSessions.id))
    .limit(1);
  return row ?? null;
}

const iso = (d: Date) => d.toISOString();

/** The columns a session's view reads (Start's one statement returns just these). */
export interface SessionViewRow {
  session: Pick<
    SessionRow,
    | 'id'
    | 'zoneId'
    | 'vehicleId'
    | 'vehicleMake'
    | 'vehicleModel'
    | 'plate'
    | 'plateState'
    | 'startedAt'
    | 'endsAt'
    | 'endedAt'
    | 'durationMinutes'
    | 'parkingCents'
    | 'feeCents'
    | 'refundedCents'
    | 'paidVia'
    | 'autoSessionUsed'
    | 'autoExtendedUsed'
    | 'status'
  >;
  zone: Pick<SessionWithZone['zone'], 'zoneNumber' | 'address' | 'city' | 'state' | 'lat' | 'lng' | 'maxStayMinutes'>;
}

/** A session as the API shows it (issue 11's fields). */
export function toSessionView({ session: s, zone }: SessionViewRow, now: Date): ParkingSession {
  const running = s.status === 'active' && s.endsAt.getTime() > now.getTime();
  return {
    SessionId: s.id,
    ZoneId: s.zoneId,
    ZoneNumber: zone.zoneNumber,
    Address: zone.address,
    City: zone.city,
    State: zone.state,
    Latitude: zone.lat,
    Longitude: zone.lng,
    VehicleId: s.vehicleId,
    VehicleMake: s.vehicleMake,
    VehicleModel: s.vehicleModel,
    PlateNumber: s.plate,
    PlateState: s.plateState,
    StartedAt: iso(s.startedAt),
    EndsAt: iso(s.endsAt),
    EndedAt: s.endedAt ? iso(s.endedAt) : running ? null : iso(s.endsAt),
    DurationMinutes: s.durationMinutes,
    MaxStayMinutes: zone.maxStayMinutes,
    AmountPaid: centsToAmount(s.parkingCents + s.feeCents - s.refundedCents),
    ParkingAmount: centsToAmount(s.parkingCents),
    FeeAmount: centsToAmount(s.feeCents),
    RefundedAmount: centsToAmount(s.refundedCents),
    PaidVia: s.paidVia,
    PaymentStatus: 'Paid',
    AutoSessionUsed: s.autoSessionUsed,
    AutoExtendedUsed: s.autoExtendedUsed,
    Status: running ? 'Active' : 'Ended',
    AmendableUntil: iso(new Date(s.startedAt.getTime() + AMEND_WINDOW_MINUTES * 60_000)),
    ServerTime: iso(now),
  };
}
