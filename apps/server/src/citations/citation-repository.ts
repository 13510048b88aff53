import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { centsToAmount, CITATION_MESSAGES as M, type Citation, type Violation } from '@parkit/contract';
import type { Db, Executor, Tx } from '../db/client.ts';
import {
  citationContests,
  citationFiles,
  citations,
  members,
  vehicles,
  violations,
  zones,
  type CitationStatus,
} from '../db/schema/index.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { conflict, notFound } from '../lib/http-error.ts';
import { lockWallet, postEntry } from '../wallet/index.ts';
import { bindFiles } from './file-store.ts';
import { notifyDecision } from './citation-notices.ts';
import { isUniqueViolation } from '../db/errors.ts';

/** Statuses in which something is to pay. */
const PAYABLE: CitationStatus[] = ['issued', 'upheld', 'reduced'];

/** A plate as citations keep it: upper case, letters and digits only (vehicles.plate_key). */
export const citationPlate = (plate: string) => plate.toUpperCase().replace(/[^A-Z0-9]/g, '');

// ---- violations ----

const violationView = (v: typeof violations.$inferSelect): Violation => ({
  ViolationId: v.id,
  Code: v.code,
  Description: v.description,
  Fine: centsToAmount(v.fineCents),
  DueDays: v.dueDays,
  LateFee: centsToAmount(v.lateFeeCents),
  Retired: v.retiredAt !== null,
});

export async function listViolations(db: Executor, operatorId: number): Promise<Violation[]> {
  const rows = await db
    .select()
    .from(violations)
    .where(eq(violations.operatorId, operatorId))
    .orderBy(asc(violations.retiredAt), asc(violations.code));
  return rows.map(violationView);
}

export interface ViolationInput {
  Code: string;
  Description: string;
  Fine: number;
  DueDays: number;
  LateFee: number;
}

/** Adds a violation to the operator's list (a code once per operator, any case), audited. */
export async function createViolation(db: Db, operatorId: number, actor: Actor, v: ViolationInput): Promise<Violation> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(violations)
        .values({
          operatorId,
          code: v.Code,
          description: v.Description,
          fineCents: v.Fine,
          dueDays: v.DueDays,
          lateFeeCents: v.LateFee,
        })
        .returning();
      const out = violationView(row!);
      await audit(tx, {
        operatorId,
        actor,
        action: 'violation.create',
        entity: 'violation',
        entityId: row!.id,
        before: null,
        after: out,
      });
      return out;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Code', M.codeTaken);
    throw err;
  }
}

/** Changes a violation; citations already issued keep the fine they were issued with. */
export async function updateViolation(
  db: Db,
  operatorId: number,
  actor: Actor,
  id: number,
  v: ViolationInput,
): Promise<Violation> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(violations)
        .where(and(eq(violations.id, id), eq(violations.operatorId, operatorId)))
        .for('update');
      if (!before) throw notFound(M.violationNotFound);
      const [row] = await tx
        .update(violations)
        .set({
          code: v.Code,
          description: v.Description,
          fineCents: v.Fine,
          dueDays: v.DueDays,
          lateFeeCents: v.LateFee,
        })
        .where(eq(violations.id, id))
        .returning();
      const out = violationView(row!);
      await audit(tx, {
        operatorId,
        actor,
        action: 'violation.update',
        entity: 'violation',
        entityId: id,
        before: violationView(before),
        after: out,
      });
      return out;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Code', M.codeTaken);
    throw err;
  }
}

/** Retires a violation: no new citation names it; those issued keep it. */
export async function retireViolation(
  db: Db,
  operatorId: number,
  actor: Actor,
  id: number,
  now: Date,
): Promise<Violation> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(violations)
      .where(and(eq(violations.id, id), eq(violations.operatorId, operatorId)))
      .for('update');
    if (!before) throw notFound(M.violationNotFound);
    const [row] = await tx
      .update(violations)
      .set({ retiredAt: sql`coalesce(${violations.retiredAt}, ${now})` })
      .where(eq(violations.id, id))
      .returning();
    const out = violationView(row!);
    await audit(tx, {
      operatorId,
      actor,
      action: 'violation.retire',
      entity: 'violation',
      entityId: id,
      before: violationView(before),
      after: out,
    });
    return out;
  });
}

// ---- citations: the view ----

/** What is to pay now (cents): the fine and, once applied, the late fee, while payable. */
export function amountDueCents(c: {
  status: string;
  fineCents: number;
  lateFeeCents: number;
  lateFeeAppliedAt: Date | null;
}) {
  if (!PAYABLE.includes(c.status as CitationStatus)) return 0;
  return c.fineCents + (c.lateFeeAppliedAt ? c.lateFeeCents : 0);
}

async function views(db: Executor, where: SQL | undefined, limit = 200): Promise<Citation[]> {
  const rows = await db
    .select({ c: citations, zoneNumber: zones.zoneNumber, code: violations.code, description: violations.description })
    .from(citations)
    .innerJoin(zones, eq(zones.id, citations.zoneId))
    .innerJoin(violations, eq(violations.id, citations.violationId))
    .where(where)
    .orderBy(desc(citations.issuedAt), desc(citations.id))
    .limit(limit);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.c.id);
  const files = await db
    .select()
    .from(citationFiles)
    .where(inArray(citationFiles.citationId, ids))
    .orderBy(asc(citationFiles.createdAt), asc(citationFiles.id));
  const contests = await db
    .select({ k: citationContests, decidedByName: members.userName })
    .from(citationContests)
    .leftJoin(members, eq(members.id, citationContests.decidedBy))
    .where(inArray(citationContests.citationId, ids));
  return rows.map(({ c, zoneNumber, code, description }) => {
    const k = contests.find((x) => x.k.citationId === c.id);
    return {
      CitationId: c.id,
      ZoneId: c.zoneId,
      ZoneNumber: zoneNumber,
      PlateNumber: c.plate,
      PlateState: c.plateState,
      ViolationCode: code,
      ViolationDescription: description,
      Fine: centsToAmount(c.fineCents),
      LateFee: centsToAmount(c.lateFeeAppliedAt ? c.lateFeeCents : 0),
      AmountDue: centsToAmount(amountDueCents(c)),
      AmountPaid: centsToAmount(c.paidCents),
      Refunded: centsToAmount(c.refundedCents),
      Officer: c.officerName,
      IssuedAt: c.issuedAt.toISOString(),
      Location: c.location,
      Status: c.status,
      DueAt: c.dueAt.toISOString(),
      Files: files
        .filter((f) => f.citationId === c.id)
        .map((f) => ({
          FileId: f.id,
          Kind: f.kind as 'photo' | 'contest',
          FileName: f.fileName,
          ContentType: f.contentType,
          Size: f.size,
        })),
      Contest: k
        ? {
            Reason: k.k.reason,
            CreatedAt: k.k.createdAt.toISOString(),
            Decision: k.k.decision,
            DecisionNote: k.k.decisionNote,
            DecidedBy: k.k.decidedBy === null ? null : (k.decidedByName ?? ''),
            DecidedAt: k.k.decidedAt?.toISOString() ?? null,
          }
        : null,
    };
  });
}

/** The member's vehicles' plates own the citation (same plate key and state). */
export const ownedBy = (memberId: number) =>
  sql`exists (select 1 from ${vehicles} v where v.member_id = ${memberId}
        and v.plate_key = ${citations.plate} and v.plate_state = ${citations.plateState})`;

export async function listOperatorCitations(
  db: Executor,
  operatorId: number,
  q: { status?: CitationStatus | undefined },
): Promise<Citation[]> {
  return views(db, and(eq(citations.operatorId, operatorId), q.status ? eq(citations.status, q.status) : undefined));
}

export async function getOperatorCitation(db: Executor, operatorId: number, id: number): Promise<Citation> {
  const [c] = await views(db, and(eq(citations.operatorId, operatorId), eq(citations.id, id)), 1);
  if (!c) throw notFound(M.citationNotFound);
  return c;
}

export async function listMemberCitations(db: Executor, memberId: number): Promise<Citation[]> {
  return views(db, ownedBy(memberId));
}

export async function getMemberCitation(db: Executor, memberId: number, id: number): Promise<Citation> {
  const [c] = await views(db, and(eq(citations.id, id), ownedBy(memberId)), 1);
  if (!c) throw notFound(M.citationNotFound);
  return c;
}

// ---- the manager's decision ----

export interface DecideInput {
  Decision: 'upheld' | 'cancelled' | 'reduced';
  NewFine?: number | undefined;
  Note: string;
}

/**
 * Decides a waiting contest: upheld (the fine stands), cancelled (nothing to pay; what was paid
 * goes back to the payer's wallet), reduced (a new, lower fine; any overpayment goes back).
 * Audited; the driver is told through the outbox (SMS, push where enabled) in the same
 * transaction. The payer's wallet is locked before the citation (every money transaction takes
 * the wallet first: wallet/ledger.ts's lockWallet). 404 for another operator's citation.
 */
export async function decideContest(
  db: Db,
  operatorId: number,
  actor: Actor,
  citationId: number,
  input: DecideInput,
  now: Date,
): Promise<Citation> {
  await db.transaction(async (tx) => {
    const [peek] = await tx
      .select({ paidBy: citations.paidBy })
      .from(citations)
      .where(and(eq(citations.id, citationId), eq(citations.operatorId, operatorId)));
    if (!peek) throw notFound(M.citationNotFound);
    if (peek.paidBy !== null) await lockWallet(tx, peek.paidBy);
    const [c] = await tx.select().from(citations).where(eq(citations.id, citationId)).for('update');
    const [contest] = await tx
      .select()
      .from(citationContests)
      .where(eq(citationContests.citationId, citationId))
      .for('update');
    if (!c || !contest || contest.decision !== null || c.status !== 'contested')
      throw conflict('Decision', M.noContest);
    if (c.paidBy !== peek.paidBy) throw conflict('Decision', M.noContest);
    let fine = c.fineCents;
    if (input.Decision === 'reduced') {
      if (input.NewFine === undefined || input.NewFine >= c.fineCents) throw conflict('NewFine', M.reducedFineRequired);
      fine = input.NewFine;
    }
    const kept = c.paidCents - c.refundedCents;
    const owed = input.Decision === 'cancelled' ? 0 : fine + (c.lateFeeAppliedAt ? c.lateFeeCents : 0);
    const refund = c.paidCents > 0 ? Math.max(0, kept - owed) : 0;
    if (refund > 0 && c.paidBy !== null)
      await postEntry(tx, {
        memberId: c.paidBy,
        amountCents: refund,
        kind: 'citation-refund',
        reference: `citation:${c.id}:refund`,
        idempotencyKey: null,
      });
    const status: CitationStatus =
      input.Decision === 'cancelled' ? 'cancelled' : c.paidCents > 0 ? 'paid' : input.Decision;
    await tx
      .update(citations)
      .set({ status, fineCents: fine, refundedCents: c.refundedCents + refund, updatedAt: now })
      .where(eq(citations.id, c.id));
    await tx
      .update(citationContests)
      .set({
        decision: input.Decision,
        decisionNote: input.Note,
        reducedFineCents: input.Decision === 'reduced' ? fine : null,
        decidedBy: actor.id,
        decidedAt: now,
      })
      .where(eq(citationContests.id, contest.id));
    await audit(tx, {
      operatorId,
      actor,
      action: 'citation.decide',
      entity: 'citation',
      entityId: c.id,
      before: { status: c.status, fineCents: c.fineCents, refundedCents: c.refundedCents },
      after: {
        status,
        decision: input.Decision,
        fineCents: fine,
        refundedCents: c.refundedCents + refund,
        note: input.Note,
      },
    });
    await notifyDecision(
      tx,
      {
        citationId: c.id,
        plate: c.plate,
        plateState: c.plateState,
        decision: input.Decision,
        fineCents: fine,
        refundCents: refund,
      },
      now,
    );
  });
  return getOperatorCitation(db, operatorId, citationId);
}

// ---- the driver's side ----

/** Locks a citation of the member's vehicles for the rest of the transaction, or 404. */
async function lockMemberCitation(tx: Tx, memberId: number, citationId: number) {
  const [c] = await tx
    .select()
    .from(citations)
    .where(and(eq(citations.id, citationId), ownedBy(memberId)))
    .for('update');
  if (!c) throw notFound(M.citationNotFound);
  return c;
}

/** What a citation asks to be paid now (cents); 409 when nothing is to pay (paid, contested, cancelled). */
function payableCents(c: typeof citations.$inferSelect): number {
  const due = amountDueCents(c);
  if (due <= 0 || c.paidCents > 0) throw conflict('CitationId', M.notPayable);
  return due;
}

/** The amount a card payment of a member's citation charges, read before the charge: 404, or 409 as payCitation. */
export async function citationDueCents(db: Executor, memberId: number, citationId: number): Promise<number> {
  const [c] = await db
    .select()
    .from(citations)
    .where(and(eq(citations.id, citationId), ownedBy(memberId)));
  if (!c) throw notFound(M.citationNotFound);
  return payableCents(c);
}

/**
 * Pays a citation from the member's wallet, in the caller's transaction (withIdempotency's: the
 * wallet is locked first by the key's claim), through the ledger (kind 'citation'). A citation
 * with nothing to pay (paid, contested, cancelled) is refused (409); a short balance is 402.
 */
export async function payCitation(
  tx: Tx,
  memberId: number,
  citationId: number,
  key: string,
  now: Date,
): Promise<{ CitationId: number; Amount: number; Balance: number; message: string }> {
  const c = await lockMemberCitation(tx, memberId, citationId);
  const due = payableCents(c);
  const posted = await postEntry(tx, {
    memberId,
    amountCents: -due,
    kind: 'citation',
    reference: `citation:${c.id}`,
    idempotencyKey: key,
  });
  await tx
    .update(citations)
    .set({ status: 'paid', paidCents: due, paidAt: now, paidBy: memberId, updatedAt: now })
    .where(eq(citations.id, c.id));
  return { CitationId: c.id, Amount: centsToAmount(due), Balance: centsToAmount(posted.balanceCents), message: M.paid };
}

/**
 * Contests a citation (once): the reason and the member's uploaded attachments; the citation
 * waits for a manager's decision (status contested). A paid citation may be contested too (a
 * cancellation refunds it); a cancelled or decided one may not.
 */
export async function contestCitation(
  db: Db,
  memberId: number,
  citationId: number,
  input: { Reason: string; AttachmentIds: string[] },
  now: Date,
): Promise<Citation> {
  await db.transaction(async (tx) => {
    const c = await lockMemberCitation(tx, memberId, citationId);
    if (c.status !== 'issued' && c.status !== 'paid') throw conflict('Reason', M.notContestable);
    const made = await tx
      .insert(citationContests)
      .values({ citationId: c.id, memberId, reason: input.Reason })
      .onConflictDoNothing()
      .returning({ id: citationContests.id });
    if (made.length === 0) throw conflict('Reason', M.alreadyContested);
    const ids = [...new Set(input.AttachmentIds)];
    const bound = await bindFiles(tx, c.id, ids, { kind: 'contest', uploadedBy: memberId, operatorId: null });
    if (bound !== ids.length) throw conflict('AttachmentIds', M.fileNotFound);
    await tx.update(citations).set({ status: 'contested', updatedAt: now }).where(eq(citations.id, c.id));
  });
  return getMemberCitation(db, memberId, citationId);
}

// ---- the late-fee job ----

/**
 * Adds the late fee to every payable citation past its due date, once: one UPDATE whose WHERE
 * holds only rows not yet charged (late_fee_applied_at is null), so a second run, or two
 * processes at once, charge nothing again. Answers how many it charged.
 */
export async function applyLateFees(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .update(citations)
    .set({ lateFeeAppliedAt: now, updatedAt: now })
    .where(
      and(isNull(citations.lateFeeAppliedAt), inArray(citations.status, PAYABLE), sql`${citations.dueAt} <= ${now}`),
    )
    .returning({ id: citations.id });
  return rows.length;
}
