import { and, desc, eq, sql } from 'drizzle-orm';
import { PERMIT_MESSAGES as M, type ApplyPermitRequest, type Permit, type VisitorDayRequest } from '@parkit/contract';
import type { Db, Executor } from '../db/client.ts';
import { operators, permits, permitTypes, visitorDays } from '../db/schema/index.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { badRequest, conflict, notFound } from '../lib/http-error.ts';
import { normalisePlate } from '../enforcement/index.ts';
import { type AttachmentStore } from '../support/index.ts';
/** The proof types a permit takes (a subset of what support's content check knows). */
export const PROOF_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;

type PermitRow = typeof permits.$inferSelect;
type TypeRow = typeof permitTypes.$inferSelect;

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
