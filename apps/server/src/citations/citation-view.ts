import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { centsToAmount, CITATION_MESSAGES as M, type Citation } from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
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
import { notFound } from '../lib/http-error.ts';
import { amountDueCents } from './citation-dues.ts';

// Citations as the console and the driver read them, and which citations are a member's.

/** A plate as citations keep it: upper case, letters and digits only (vehicles.plate_key). */
export const citationPlate = (plate: string) => plate.toUpperCase().replace(/[^A-Z0-9]/g, '');

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

/** Locks a citation of the member's vehicles for the rest of the transaction, or 404. */
export async function lockMemberCitation(tx: Tx, memberId: number, citationId: number) {
  const [c] = await tx
    .select()
    .from(citations)
    .where(and(eq(citations.id, citationId), ownedBy(memberId)))
    .for('update');
  if (!c) throw notFound(M.citationNotFound);
  return c;
}
