import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { citationContests, citations, type CitationStatus } from '../db/schema/index.ts';
import { audit } from '../infra/audit-log.ts';
import { lockWallet, type ChargeContext } from '../wallet/index.ts';
import { rightToPark } from '../enforcement/index.ts';
import { notifyDecision } from './citation-notices.ts';
import { giveBack, refundTo, sendCardRefund, type GivenBack } from './citation-refund.ts';

type CancelledNow = { given: GivenBack };

/** Citations still open to a cancellation: unpaid, paid, or contested and not yet decided. */
const OPEN: CitationStatus[] = ['issued', 'paid', 'contested'];
const BATCH = 500;
/** Who the audit log names for an automatic cancellation. */
const SYSTEM = { id: null, name: 'ParkIt' };
export const AUTO_CANCEL_NOTE = 'Cancelled automatically: a right to park covered the plate at that moment.';

export interface CoverScope {
  /** Only these plates (as typed or saved; compared as citations keep them). */
  plates?: string[];
}

const plateKey = (plate: string) => plate.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** No contest of the citation has been decided (a decided one is the manager's word). */
const notDecided = sql`not exists (select 1 from ${citationContests} k
  where k.citation_id = ${citations.id} and k.decision is not null)`;

/**
 * Cancels every open citation that a right to park covers at its own moment, a right that became
 * known after the citation (a session amended or synced late, a visitor day given for today). The
 * right is rightToPark's, counting sessions that have ended since. Each cancellation is its own
 * transaction (cancelOne); a pass, or two at once, or a pass racing the driver's payment, cancel a
 * citation once and refund exactly what was paid. Answers how many it cancelled.
 */
export async function cancelCoveredCitations(ctx: ChargeContext, now: Date, scope: CoverScope = {}): Promise<number> {
  const db = ctx.db;
  const plates = scope.plates?.map(plateKey).filter((p) => p !== '');
  if (plates && plates.length === 0) return 0;
  let after = 0;
  let cancelled = 0;
  for (;;) {
    const batch = await db
      .select({ id: citations.id, zoneId: citations.zoneId, plate: citations.plate, issuedAt: citations.issuedAt })
      .from(citations)
      .where(
        and(
          gt(citations.id, after),
          inArray(citations.status, OPEN),
          notDecided,
          plates ? inArray(citations.plate, plates) : undefined,
        ),
      )
      .orderBy(asc(citations.id))
      .limit(BATCH);
    for (const c of batch) {
      after = c.id;
      const right = await rightToPark(db, { zoneId: c.zoneId, plate: c.plate, at: c.issuedAt, pastMoment: true });
      if (right && (await cancelOne(ctx, c.id, now))) cancelled++;
    }
    if (batch.length < BATCH) return cancelled;
  }
}

/**
 * One citation: the payer's wallet is locked before the citation (the order every money
 * transaction takes, wallet/ledger.ts's lockWallet), the citation is locked and read again, the
 * right is looked for again inside the transaction; then what was paid (and not yet refunded) goes
 * back through the ledger (kind citation-refund), the citation is cancelled, a waiting contest is
 * closed, the change audited and the drivers told through the outbox, all in one transaction.
 * A payment that committed between the first read and the lock changes the payer: tried again.
 */
async function cancelOne(ctx: ChargeContext, citationId: number, now: Date): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await ctx.db.transaction(async (tx): Promise<'skip' | 'again' | CancelledNow> => {
      const [peek] = await tx.select({ paidBy: citations.paidBy }).from(citations).where(eq(citations.id, citationId));
      if (!peek) return 'skip';
      if (peek.paidBy !== null) await lockWallet(tx, peek.paidBy);
      const [c] = await tx.select().from(citations).where(eq(citations.id, citationId)).for('update');
      if (!c || !OPEN.includes(c.status)) return 'skip';
      if (c.paidBy !== peek.paidBy) return 'again';
      const [contest] = await tx
        .select()
        .from(citationContests)
        .where(eq(citationContests.citationId, c.id))
        .for('update');
      if (contest && contest.decision !== null) return 'skip';
      const right = await rightToPark(tx, { zoneId: c.zoneId, plate: c.plate, at: c.issuedAt, pastMoment: true });
      if (!right) return 'skip';
      const refund = c.paidBy !== null ? c.paidCents - c.refundedCents : 0;
      const given = await giveBack(tx, c, refund);
      await tx
        .update(citations)
        .set({ status: 'cancelled', refundedCents: c.refundedCents + refund, updatedAt: now })
        .where(eq(citations.id, c.id));
      if (contest)
        await tx
          .update(citationContests)
          .set({ decision: 'cancelled', decisionNote: AUTO_CANCEL_NOTE, decidedBy: null, decidedAt: now })
          .where(eq(citationContests.id, contest.id));
      await audit(tx, {
        operatorId: c.operatorId,
        actor: SYSTEM,
        action: 'citation.auto-cancel',
        entity: 'citation',
        entityId: c.id,
        before: { status: c.status, paidCents: c.paidCents, refundedCents: c.refundedCents },
        after: { status: 'cancelled', refundedCents: c.refundedCents + refund, refundTo: refundTo(given), right },
      });
      await notifyDecision(
        tx,
        {
          citationId: c.id,
          plate: c.plate,
          plateState: c.plateState,
          decision: 'right-found',
          fineCents: c.fineCents,
          refundCents: refund,
          card: given.card,
        },
        now,
      );
      return { given };
    });
    if (outcome === 'again') continue;
    if (outcome === 'skip') return false;
    // After COMMIT, outside any transaction: the card refund sent (a refusal is credited to the wallet, audited and told).
    await sendCardRefund(ctx, outcome.given);
    return true;
  }
  return false;
}
