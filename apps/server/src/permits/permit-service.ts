import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  PERMIT_MESSAGES as M,
  type ApplyPermitRequest,
  type Permit,
  type PermitType,
  type PermitTypeInput,
  type VisitorDayRequest,
} from '@parkit/contract';
import type { Db, Executor, Tx } from '../db/client.ts';
import { operators, permits, permitTypes, visitorDays, zones } from '../db/schema/index.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { badRequest, conflict, notFound } from '../lib/http-error.ts';
import { normalisePlate } from '../enforcement/index.ts';
import { type AttachmentStore } from '../support/index.ts';

/** The proof types a permit takes (a subset of what support's content check knows). */
export const PROOF_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;

type TypeRow = typeof permitTypes.$inferSelect;
type PermitRow = typeof permits.$inferSelect;

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

/** A permit as the API shows it (expired: an active permit past ValidUntil, said on read). */
export function permitView(
  r: PermitRow,
  t: Pick<TypeRow, 'name' | 'kind' | 'visitorDaysPerMonth'>,
  now = new Date(),
): Permit {
  const expired = r.status === 'active' && r.validUntil !== null && r.validUntil <= now;
  return {
    Id: r.id,
    OperatorId: r.operatorId,
    TypeId: r.typeId,
    TypeName: t.name,
    Kind: t.kind,
    MemberId: r.memberId,
    Plates: r.plates,
    ZoneIds: r.zoneIds,
    Status: expired ? 'expired' : r.status,
    RefusalReason: r.refusalReason,
    ProofAttachmentId: r.proofAttachmentId,
    PriceCents: r.priceCents,
    ValidFrom: r.validFrom?.toISOString() ?? null,
    ValidUntil: r.validUntil?.toISOString() ?? null,
    VisitorDaysPerMonth: t.visitorDaysPerMonth,
    CreatedAt: r.createdAt.toISOString(),
  };
}

/** The type's columns a permit's view needs. */
export const typeColumns = {
  name: permitTypes.name,
  kind: permitTypes.kind,
  visitorDaysPerMonth: permitTypes.visitorDaysPerMonth,
};

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

export async function listApplications(db: Executor, operatorId: number, status?: Permit['Status']): Promise<Permit[]> {
  const now = new Date();
  const statusWhere =
    status === undefined
      ? undefined
      : status === 'expired'
        ? and(eq(permits.status, 'active'), sql`${permits.validUntil} <= ${now.toISOString()}::timestamptz`)
        : status === 'active'
          ? and(eq(permits.status, 'active'), sql`${permits.validUntil} > ${now.toISOString()}::timestamptz`)
          : eq(permits.status, status);
  const rows = await db
    .select({ p: permits, t: typeColumns })
    .from(permits)
    .innerJoin(permitTypes, eq(permitTypes.id, permits.typeId))
    .where(and(eq(permits.operatorId, operatorId), statusWhere))
    .orderBy(desc(permits.id))
    .limit(500);
  return rows.map((r) => permitView(r.p, r.t, now));
}

/** The operator's permit (404 for another operator's), with its proof's attachment id. */
export async function operatorPermit(db: Executor, operatorId: number, permitId: number): Promise<Permit> {
  const [r] = await db
    .select({ p: permits, t: typeColumns })
    .from(permits)
    .innerJoin(permitTypes, eq(permitTypes.id, permits.typeId))
    .where(and(eq(permits.id, permitId), eq(permits.operatorId, operatorId)));
  if (!r) throw notFound(M.permitNotFound);
  return permitView(r.p, r.t);
}

/** A permit's end: `months` after `d` (UTC). */
export const addMonths = (d: Date, months: number) => {
  const out = new Date(d);
  out.setUTCMonth(out.getUTCMonth() + months);
  return out;
};

/**
 * A manager's decision on a pending application: approved (active at once when free, else waiting
 * for the driver's payment) or refused with a reason. One UPDATE whose WHERE says "still pending",
 * so two decisions never both apply: the second is a 409.
 */
export async function decide(
  db: Db,
  operatorId: number,
  actor: Actor,
  permitId: number,
  decision: { approve: true } | { approve: false; reason: string },
): Promise<Permit> {
  return db.transaction(async (tx) => {
    const before = await operatorPermit(tx, operatorId, permitId);
    const [type] = await tx.select().from(permitTypes).where(eq(permitTypes.id, before.TypeId));
    const now = new Date();
    const free = before.PriceCents === 0;
    const set = decision.approve
      ? free
        ? { status: 'active' as const, validFrom: now, validUntil: addMonths(now, type!.validMonths) }
        : { status: 'approved' as const }
      : { status: 'refused' as const, refusalReason: decision.reason };
    const [row] = await tx
      .update(permits)
      .set({ ...set, decidedBy: actor.id, decidedAt: now, updatedAt: now })
      .where(and(eq(permits.id, permitId), eq(permits.operatorId, operatorId), eq(permits.status, 'pending')))
      .returning();
    if (!row) throw conflict('Status', M.notPending);
    const after = permitView(row, type!);
    await audit(tx, {
      operatorId,
      actor,
      action: decision.approve ? 'permit.approve' : 'permit.refuse',
      entity: 'permit',
      entityId: permitId,
      before,
      after,
    });
    return after;
  });
}

/** A driver's application: the type's limits checked, the proof checked by content (PDF, PNG, JPEG). */
export async function apply(
  db: Db,
  attachments: AttachmentStore,
  memberId: number,
  input: ApplyPermitRequest,
): Promise<Permit> {
  const [type] = await db.select().from(permitTypes).where(eq(permitTypes.id, input.TypeId));
  if (!type) throw notFound(M.typeNotFound);
  if (type.retiredAt) throw conflict('TypeId', M.typeRetired);
  const plates = [...new Set(input.Plates.map(normalisePlate))];
  if (plates.length > type.maxPlates) throw badRequest('Plates', M.tooManyPlates);
  const zoneIds = input.ZoneIds ? [...new Set(input.ZoneIds)].sort((a, b) => a - b) : type.zoneIds;
  if (!zoneIds.every((z) => type.zoneIds.includes(z))) throw badRequest('ZoneIds', M.zonesOfType);
  let proof: string | null = null;
  if (input.ProofAttachmentId !== undefined) {
    const att = await attachments.find(db, input.ProofAttachmentId, memberId);
    // Another member's upload is not found, as support's Send answers it.
    if (!att) throw notFound(M.proofNotFound);
    if (!(PROOF_TYPES as readonly string[]).includes(att.ContentType))
      throw badRequest('ProofAttachmentId', M.proofType);
    proof = att.AttachmentId;
  } else if (type.proofRequired) throw badRequest('ProofAttachmentId', M.proofRequired);
  const [row] = await db
    .insert(permits)
    .values({
      operatorId: type.operatorId,
      typeId: type.id,
      memberId,
      plates,
      zoneIds,
      proofAttachmentId: proof,
      priceCents: type.priceCents,
    })
    .returning();
  return permitView(row!, type);
}

export async function myPermits(db: Executor, memberId: number): Promise<Permit[]> {
  const now = new Date();
  const rows = await db
    .select({ p: permits, t: typeColumns })
    .from(permits)
    .innerJoin(permitTypes, eq(permitTypes.id, permits.typeId))
    .where(eq(permits.memberId, memberId))
    .orderBy(desc(permits.id));
  return rows.map((r) => permitView(r.p, r.t, now));
}

/**
 * A resident gives a visitor day to a plate for a date (the operator's local date). The permit's
 * row is locked first, so the month's count and the insert are one step: concurrent gives queue,
 * and exactly the month's number succeed.
 */
export async function giveVisitorDay(db: Db, memberId: number, permitId: number, input: VisitorDayRequest) {
  const plate = normalisePlate(input.Plate);
  const day = input.Date;
  if (Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day)
    throw badRequest('Date', M.dateFormat);
  return db.transaction(async (tx) => {
    const [r] = await tx
      .select({
        p: permits,
        perMonth: permitTypes.visitorDaysPerMonth,
        timezone: operators.timezone,
        inWindow: sql<boolean>`(${day}::date >= (${permits.validFrom} at time zone ${operators.timezone})::date
          and ${day}::date < (${permits.validUntil} at time zone ${operators.timezone})::date + 1)`,
      })
      .from(permits)
      .innerJoin(permitTypes, eq(permitTypes.id, permits.typeId))
      .innerJoin(operators, eq(operators.id, permits.operatorId))
      .where(and(eq(permits.id, permitId), eq(permits.memberId, memberId)))
      .for('update', { of: permits });
    if (!r) throw notFound(M.permitNotFound);
    if (r.perMonth === 0) throw conflict('PermitId', M.noVisitorDays);
    if (r.p.status !== 'active') throw conflict('PermitId', M.notActive);
    if (!r.inWindow) throw badRequest('Date', M.dateOutOfWindow);
    const [{ used } = { used: 0 }] = await tx
      .select({ used: sql<number>`count(*)::int` })
      .from(visitorDays)
      .where(
        and(
          eq(visitorDays.permitId, permitId),
          sql`date_trunc('month', ${visitorDays.day}) = date_trunc('month', ${day}::date)`,
        ),
      );
    if (Number(used) >= r.perMonth) throw conflict('Date', M.visitorDaysUsed);
    const [row] = await tx
      .insert(visitorDays)
      .values({ operatorId: r.p.operatorId, permitId, memberId, plate, day })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict('Plate', M.visitorDayTaken);
    return { Id: row.id, PermitId: permitId, Plate: plate, Date: row.day };
  });
}

export async function visitorDaysOf(db: Executor, memberId: number, permitId: number) {
  const [p] = await db
    .select({ id: permits.id })
    .from(permits)
    .where(and(eq(permits.id, permitId), eq(permits.memberId, memberId)));
  if (!p) throw notFound(M.permitNotFound);
  const rows = await db
    .select()
    .from(visitorDays)
    .where(eq(visitorDays.permitId, permitId))
    .orderBy(desc(visitorDays.day), desc(visitorDays.id));
  return rows.map((r) => ({ Id: r.id, PermitId: r.permitId, Plate: r.plate, Date: r.day }));
}
