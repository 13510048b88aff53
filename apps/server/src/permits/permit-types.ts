import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { PERMIT_MESSAGES as M, type PermitType, type PermitTypeInput } from '@parkit/contract';
import type { Db, Executor, Tx } from '../db/client.ts';
import { permitTypes, zones } from '../db/schema/index.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { badRequest, notFound } from '../lib/http-error.ts';

/**
 * An operator's permit types (docs/permits.md): made, changed and retired by its managers, listed
 * for drivers. Every statement names the operator; every change is audited.
 */

type TypeRow = typeof permitTypes.$inferSelect;

export function typeView(r: TypeRow): PermitType {
  return {
    Id: r.id,
    OperatorId: r.operatorId,
    Kind: r.kind,
    Name: r.name,
    ZoneIds: r.zoneIds,
    ValidMonths: r.validMonths,
    PriceCents: r.priceCents,
    ProofRequired: r.proofRequired,
    MaxPlates: r.maxPlates,
    VisitorDaysPerMonth: r.visitorDaysPerMonth,
    Retired: r.retiredAt !== null,
  };
}

/** Every zone id is one of the operator's: 400 otherwise (another operator's zone is not named). */
async function checkZones(db: Executor, operatorId: number, zoneIds: number[]): Promise<number[]> {
  const unique = [...new Set(zoneIds)];
  const found = await db
    .select({ id: zones.id })
    .from(zones)
    .where(and(eq(zones.operatorId, operatorId), inArray(zones.id, unique)));
  if (found.length !== unique.length) throw badRequest('ZoneIds', M.zonesOfOperator);
  return unique.sort((a, b) => a - b);
}

export async function listTypes(db: Executor, operatorId: number): Promise<PermitType[]> {
  const rows = await db
    .select()
    .from(permitTypes)
    .where(eq(permitTypes.operatorId, operatorId))
    .orderBy(asc(permitTypes.id));
  return rows.map(typeView);
}

const typeValues = (input: PermitTypeInput, zoneIds: number[]) => ({
  kind: input.Kind,
  name: input.Name,
  zoneIds,
  validMonths: input.ValidMonths,
  priceCents: input.PriceCents,
  proofRequired: input.ProofRequired,
  maxPlates: input.MaxPlates,
  visitorDaysPerMonth: input.VisitorDaysPerMonth,
});

export async function createType(
  db: Db,
  operatorId: number,
  actor: Actor,
  input: PermitTypeInput,
): Promise<PermitType> {
  return db.transaction(async (tx) => {
    const zoneIds = await checkZones(tx, operatorId, input.ZoneIds);
    const [row] = await tx
      .insert(permitTypes)
      .values({ operatorId, ...typeValues(input, zoneIds) })
      .returning();
    const view = typeView(row!);
    await audit(tx, {
      operatorId,
      actor,
      action: 'permit-type.create',
      entity: 'permit-type',
      entityId: row!.id,
      before: null,
      after: view,
    });
    return view;
  });
}

async function lockType(tx: Tx, operatorId: number, typeId: number): Promise<TypeRow> {
  const [row] = await tx
    .select()
    .from(permitTypes)
    .where(and(eq(permitTypes.id, typeId), eq(permitTypes.operatorId, operatorId)))
    .for('update');
  if (!row) throw notFound(M.typeNotFound);
  return row;
}

/** A change applies to new applications; permits already made keep their price, plates and zones. */
export async function updateType(
  db: Db,
  operatorId: number,
  actor: Actor,
  typeId: number,
  input: PermitTypeInput,
): Promise<PermitType> {
  return db.transaction(async (tx) => {
    const before = await lockType(tx, operatorId, typeId);
    const zoneIds = await checkZones(tx, operatorId, input.ZoneIds);
    const [row] = await tx
      .update(permitTypes)
      .set({ ...typeValues(input, zoneIds), updatedAt: new Date() })
      .where(eq(permitTypes.id, typeId))
      .returning();
    const view = typeView(row!);
    await audit(tx, {
      operatorId,
      actor,
      action: 'permit-type.update',
      entity: 'permit-type',
      entityId: typeId,
      before: typeView(before),
      after: view,
    });
    return view;
  });
}

export async function retireType(db: Db, operatorId: number, actor: Actor, typeId: number): Promise<PermitType> {
  return db.transaction(async (tx) => {
    const before = await lockType(tx, operatorId, typeId);
    if (before.retiredAt) return typeView(before);
    const [row] = await tx
      .update(permitTypes)
      .set({ retiredAt: new Date(), updatedAt: new Date() })
      .where(eq(permitTypes.id, typeId))
      .returning();
    const view = typeView(row!);
    await audit(tx, {
      operatorId,
      actor,
      action: 'permit-type.retire',
      entity: 'permit-type',
      entityId: typeId,
      before: typeView(before),
      after: view,
    });
    return view;
  });
}

/** The types a driver may apply for: an operator's, or those covering a zone; retired ones left out. */
export async function typesForDriver(db: Executor, q: { zoneId?: number; operatorId?: number }): Promise<PermitType[]> {
  let operatorId = q.operatorId;
  if (q.zoneId !== undefined) {
    const [zone] = await db.select({ operatorId: zones.operatorId }).from(zones).where(eq(zones.id, q.zoneId));
    if (!zone || (operatorId !== undefined && operatorId !== zone.operatorId)) throw notFound(M.zoneNotFound);
    operatorId = zone.operatorId;
  }
  const rows = await db
    .select()
    .from(permitTypes)
    .where(
      and(
        eq(permitTypes.operatorId, operatorId!),
        isNull(permitTypes.retiredAt),
        q.zoneId === undefined ? undefined : sql`${permitTypes.zoneIds} @> array[${q.zoneId}]::int[]`,
      ),
    )
    .orderBy(asc(permitTypes.id));
  return rows.map(typeView);
}
