import { and, desc, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import { ENFORCEMENT_MESSAGES as M, type Chalk } from '@parkit/contract';
import type { Db, Executor, Tx } from '../db/client.ts';
import { chalks, operators, zones } from '../db/schema/index.ts';
import type { Actor } from '../infra/audit-log.ts';
import { notFound } from '../lib/http-error.ts';
import { ratesNow } from '../pricing/index.ts';
import { ANONYMISED_PLATE, normalisePlate } from '../lib/plate.ts';
import { observedMoment } from './observed.ts';
import { ZONE_RULE_COLUMNS } from './rights.ts';

/** A chalk older than this is a past visit: a new sighting starts a new one. */
const CHALK_HOURS = 24;

type ChalkRow = typeof chalks.$inferSelect;

async function zoneOf(db: Executor, operatorId: number, zoneId: number) {
  const [zone] = await db
    .select(ZONE_RULE_COLUMNS)
    .from(zones)
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .where(and(eq(zones.id, zoneId), eq(zones.operatorId, operatorId)));
  if (!zone) throw notFound(M.zoneNotFound);
  return zone;
}

const latest = (db: Executor, operatorId: number, zoneId: number, plate: string, now: Date) =>
  db
    .select()
    .from(chalks)
    .where(
      and(
        eq(chalks.operatorId, operatorId),
        eq(chalks.zoneId, zoneId),
        eq(chalks.plate, plate),
        gt(chalks.firstSeenAt, new Date(now.getTime() - CHALK_HOURS * 3_600_000)),
      ),
    )
    .orderBy(desc(chalks.firstSeenAt))
    .limit(1);

/** The chalk as the officer reads it: minutes since the first sighting against the zone's maximum stay by its price policy now. */
async function view(db: Executor, operatorId: number, row: ChalkRow, now: Date): Promise<Chalk> {
  const zone = await zoneOf(db, operatorId, row.zoneId);
  const price = (await ratesNow(db, [zone], zone.timezone, now)).get(zone.id);
  const maxStay = price?.maxStayMinutes ?? zone.maxStayMinutes;
  const minutes = Math.max(0, Math.floor((now.getTime() - row.firstSeenAt.getTime()) / 60_000));
  return {
    ChalkId: row.id,
    ZoneId: row.zoneId,
    PlateNumber: row.plate,
    PlateState: row.plateState,
    FirstSeenAt: row.firstSeenAt.toISOString(),
    Officer: row.officerName,
    MinutesParked: minutes,
    MaxStayMinutes: maxStay,
    Overstayed: minutes > maxStay,
  };
}

/** The plate's chalk in the zone (the last 24 hours), or null: never chalked there, or another operator's zone is 404. */
export async function findChalk(
  db: Executor,
  operatorId: number,
  q: { zoneId: number; plate: string },
  now: Date,
): Promise<Chalk | null> {
  await zoneOf(db, operatorId, q.zoneId);
  const [row] = await latest(db, operatorId, q.zoneId, normalisePlate(q.plate), now);
  return row ? view(db, operatorId, row, now) : null;
}

/**
 * Records a plate's first sighting in a zone, or answers the chalk already there (the last 24
 * hours): the plate's (zone, plate) advisory lock, the one a citation and a new session take,
 * makes two officers chalking at once write one row. One transaction (`chalkPlateIn`).
 */
export async function chalkPlate(
  db: Db,
  operatorId: number,
  actor: Actor,
  input: ChalkInput,
  now: Date,
): Promise<{ chalk: Chalk; created: boolean }> {
  return db.transaction((tx) => chalkPlateIn(tx, operatorId, actor, input, now));
}

export interface ChalkInput {
  ZoneId: number;
  PlateNumber: string;
  PlateState: string;
  /** When the officer saw the plate (a chalk recorded offline); absent: now. */
  ObservedAt?: string | undefined;
}

/**
 * chalkPlate's transaction, in the caller's (the Idempotency-Key's, for a chalk sent from an
 * officer's offline queue). With `ObservedAt` the sighting stands at that moment: refused (400)
 * when it is ahead of the clock or more than 24 hours ago (`observedMoment`). A chalk already
 * there that was first seen later than that moment is moved back to it, with its officer: the
 * earlier sighting is the first (docs/enforcement.md#chalking).
 */
export async function chalkPlateIn(
  tx: Tx,
  operatorId: number,
  actor: Actor,
  input: ChalkInput,
  now: Date,
): Promise<{ chalk: Chalk; created: boolean }> {
  const plate = normalisePlate(input.PlateNumber);
  await zoneOf(tx, operatorId, input.ZoneId);
  const at = observedMoment(input.ObservedAt, now, M.chalkTooOld) ?? now;
  await tx.execute(sql`select pg_advisory_xact_lock(parking_right_lock_key(${input.ZoneId}::int, ${plate}::text))`);
  const [existing] = await latest(tx, operatorId, input.ZoneId, plate, now);
  if (existing && existing.firstSeenAt <= at)
    return { chalk: await view(tx, operatorId, existing, now), created: false };
  if (existing) {
    const [moved] = await tx
      .update(chalks)
      .set({ firstSeenAt: at, officerId: actor.id, officerName: actor.name })
      .where(eq(chalks.id, existing.id))
      .returning();
    return { chalk: await view(tx, operatorId, moved!, now), created: false };
  }
  const [row] = await tx
    .insert(chalks)
    .values({
      operatorId,
      zoneId: input.ZoneId,
      plate,
      plateState: input.PlateState,
      firstSeenAt: at,
      officerId: actor.id,
      officerName: actor.name,
    })
    .returning();
  return { chalk: await view(tx, operatorId, row!, now), created: true };
}

/** The chalks of some zones of the operator from the last 24 hours, for the rights download (rights-list.ts). */
export async function chalksOfZones(db: Executor, operatorId: number, zoneIds: number[], now: Date) {
  if (zoneIds.length === 0) return [];
  const rows = await db
    .select({
      zoneId: chalks.zoneId,
      plate: chalks.plate,
      plateState: chalks.plateState,
      firstSeenAt: chalks.firstSeenAt,
    })
    .from(chalks)
    .where(
      and(
        eq(chalks.operatorId, operatorId),
        inArray(chalks.zoneId, zoneIds),
        gt(chalks.firstSeenAt, new Date(now.getTime() - CHALK_HOURS * 3_600_000)),
      ),
    );
  return rows.map((r) => ({
    ZoneId: r.zoneId,
    PlateNumber: r.plate,
    PlateState: r.plateState,
    FirstSeenAt: r.firstSeenAt.toISOString(),
  }));
}

/**
 * Retention: anonymises the plate of the operator's chalks first seen before `cutoff` (a job of the
 * retention work calls it with the operator's period). Answers how many were anonymised; a
 * second run changes none.
 */
export async function anonymiseChalksBefore(db: Executor, operatorId: number, cutoff: Date): Promise<number> {
  const rows = await db
    .update(chalks)
    .set({ plate: ANONYMISED_PLATE, plateState: '' })
    .where(and(eq(chalks.operatorId, operatorId), lt(chalks.firstSeenAt, cutoff), ne(chalks.plate, ANONYMISED_PLATE)))
    .returning({ id: chalks.id });
  return rows.length;
}
