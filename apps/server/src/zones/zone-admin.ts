import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  amountToCents,
  centsToAmount,
  OPERATOR_ZONE_MESSAGES as M,
  type OperatorZone,
  type OperatorZonePage,
  type ZoneCurb,
  type ZoneInput,
  type ZoneKind,
  type ZoneInput as ZoneInputSchema,
} from '@parkit/contract';
import type { z } from 'zod';
import type { Db, Executor, Tx } from '../db/client.ts';
import { zones } from '../db/schema/index.ts';
import { conflict, HttpError, notFound } from '../lib/http-error.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { storedHoursToClock, toStoredHours } from './paid-hours.ts';
import { isUniqueViolation } from '../db/errors.ts';

/** A zone's input once checked by the contract (numbers upper-cased, defaults filled). */
export type CheckedZone = z.output<typeof ZoneInputSchema>;
export type { ZoneInput };

type ZoneRow = typeof zones.$inferSelect;

/** A zone as the console and the audit log show it. */
export function toOperatorZone(z: ZoneRow): OperatorZone {
  const hours = storedHoursToClock(z);
  return {
    ZoneId: z.id,
    ZoneNumber: z.zoneNumber,
    Name: z.name,
    Address: z.address,
    City: z.city,
    State: z.state,
    Zip: z.zip,
    Latitude: z.lat,
    Longitude: z.lng,
    Kind: z.kind as ZoneKind,
    Capacity: z.capacity,
    RatePerHour: centsToAmount(z.rateCents),
    MaxStayMinutes: z.maxStayMinutes,
    PaidDays: [...z.paidDays].sort((a, b) => a - b),
    PaidFrom: hours.from,
    PaidUntil: hours.until,
    Curb: (z.curb as ZoneCurb | null) ?? null,
    RetiredAt: z.retiredAt ? z.retiredAt.toISOString() : null,
  };
}

/** The columns a checked input writes. */
function columns(input: CheckedZone, operatorCity: { city: string; state: string }) {
  const hours = toStoredHours(input.PaidFrom, input.PaidUntil);
  // The contract refuses equal hours; a malformed pair never reaches here.
  if (!hours) throw new HttpError(400, M.paidHoursInvalid, [{ field: 'PaidUntil', message: M.paidHoursInvalid }]);
  return {
    zoneNumber: input.ZoneNumber,
    name: input.Name,
    address: input.Address,
    city: input.City || operatorCity.city,
    state: input.State || operatorCity.state,
    zip: input.Zip,
    lat: input.Latitude,
    lng: input.Longitude,
    kind: input.Kind,
    capacity: input.Capacity,
    rateCents: amountToCents(input.RatePerHour) ?? 0,
    maxStayMinutes: input.MaxStayMinutes,
    paidDays: [...input.PaidDays].sort((a, b) => a - b),
    paidFromMinute: hours.paidFromMinute,
    paidUntilMinute: hours.paidUntilMinute,
    curb: input.Curb,
  };
}

const numberTaken = () => conflict('ZoneNumber', M.numberTaken);

/** LIKE's wildcards taken literally. */
const likeText = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The operator's zones, by number, matching `q` in number, name or address; a page of them and the count of all. */
export async function listOperatorZones(
  db: Executor,
  operatorId: number,
  p: { q: string; retired: 'include' | 'exclude' | 'only'; offset: number; limit: number },
): Promise<OperatorZonePage> {
  const like = likeText(p.q);
  const where = and(
    eq(zones.operatorId, operatorId),
    p.retired === 'exclude' ? isNull(zones.retiredAt) : p.retired === 'only' ? isNotNull(zones.retiredAt) : undefined,
    p.q === ''
      ? undefined
      : sql`(lower(${zones.zoneNumber}) like ${like} or lower(${zones.name}) like ${like} or lower(${zones.address}) like ${like})`,
  );
  const [rows, [count]] = await Promise.all([
    db.select().from(zones).where(where).orderBy(asc(zones.zoneNumber)).offset(p.offset).limit(p.limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(zones)
      .where(where),
  ]);
  return { Zones: rows.map(toOperatorZone), Total: Number(count?.n ?? 0) };
}

async function rowOf(db: Executor, operatorId: number, zoneId: number, lock = false): Promise<ZoneRow | null> {
  const q = db
    .select()
    .from(zones)
    .where(and(eq(zones.id, zoneId), eq(zones.operatorId, operatorId)))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

/** One of the operator's zones; 404 for a zone of another operator or none. */
export async function getOperatorZone(db: Executor, operatorId: number, zoneId: number): Promise<OperatorZone> {
  const row = await rowOf(db, operatorId, zoneId);
  if (!row) throw notFound(M.zoneNotFound);
  return toOperatorZone(row);
}

/**
 * Creates a zone. The number is unique per operator by the table's constraint
 * (zones_operator_number_key): of two creates of one number at once, one is refused with 409.
 * Audited in the same transaction. The set's version and notification (migrations 0021, 0022)
 * put it in drivers' Find Parking at once.
 */
export async function createOperatorZone(
  db: Db,
  operator: { id: number; city: string; state: string },
  actor: Actor,
  input: CheckedZone,
): Promise<OperatorZone> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(zones)
        .values({ operatorId: operator.id, ...columns(input, operator) })
        .returning();
      const after = toOperatorZone(row!);
      await audit(tx, {
        operatorId: operator.id,
        actor,
        action: 'zone.create',
        entity: 'zone',
        entityId: row!.id,
        before: null,
        after,
      });
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw numberTaken();
    throw err;
  }
}

/**
 * Changes a zone (its row locked, so two edits queue and each audit entry's before is what the
 * other left). A running session keeps the rate it started with (parking_sessions.rate_cents);
 * new quotes use the new one. A retired zone is not changed.
 */
export async function updateOperatorZone(
  db: Db,
  operator: { id: number; city: string; state: string },
  actor: Actor,
  zoneId: number,
  input: CheckedZone,
): Promise<OperatorZone> {
  try {
    return await db.transaction(async (tx: Tx) => {
      const row = await rowOf(tx, operator.id, zoneId, true);
      if (!row) throw notFound(M.zoneNotFound);
      if (row.retiredAt) throw conflict('ZoneId', M.retiredNoEdit);
      const [next] = await tx
        .update(zones)
        .set(columns(input, operator))
        .where(and(eq(zones.id, zoneId), eq(zones.operatorId, operator.id)))
        .returning();
      const before = toOperatorZone(row);
      const after = toOperatorZone(next!);
      await audit(tx, {
        operatorId: operator.id,
        actor,
        action: 'zone.update',
        entity: 'zone',
        entityId: zoneId,
        before,
        after,
      });
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw numberTaken();
    throw err;
  }
}

/**
 * Retires a zone: it keeps its row and history (sessions, citations point at it), leaves Find
 * Parking and refuses new quotes and sessions; sessions running there run to their end. 409 when
 * it is retired already.
 */
export async function retireOperatorZone(
  db: Db,
  operatorId: number,
  actor: Actor,
  zoneId: number,
  now: Date,
): Promise<OperatorZone> {
  return db.transaction(async (tx) => {
    const row = await rowOf(tx, operatorId, zoneId, true);
    if (!row) throw notFound(M.zoneNotFound);
    if (row.retiredAt) throw conflict('ZoneId', M.alreadyRetired);
    const [next] = await tx
      .update(zones)
      .set({ retiredAt: now })
      .where(and(eq(zones.id, zoneId), eq(zones.operatorId, operatorId)))
      .returning();
    const before = toOperatorZone(row);
    const after = toOperatorZone(next!);
    await audit(tx, { operatorId, actor, action: 'zone.retire', entity: 'zone', entityId: zoneId, before, after });
    return after;
  });
}
