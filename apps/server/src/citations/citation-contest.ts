import { and, eq } from 'drizzle-orm';
import { CITATION_MESSAGES as M, type Citation } from '@parkit/contract';
import type { Db, Tx } from '../db/client.ts';
import { citationContests, citations, type CitationStatus } from '../db/schema/index.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { conflict, notFound } from '../lib/http-error.ts';
import { lockWallet, withIdempotency, type ChargeContext } from '../wallet/index.ts';
import { giveBack, refundTo, sendCardRefund, type GivenBack } from './citation-refund.ts';
import { bindFiles } from './file-store.ts';
import { notifyDecision } from './citation-notices.ts';
import { getMemberCitation, getOperatorCitation, lockMemberCitation } from './citation-view.ts';

// A contest: the driver contests a citation, a manager decides it.

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

export interface DecideInput {
  Decision: 'upheld' | 'cancelled' | 'reduced';
  NewFine?: number | undefined;
  Note: string;
}

/** Who asked for a decision with an Idempotency-Key: the staff member whose key it is, the key, the request's body. */
export interface DecisionKey {
  memberId: number;
  key: string;
  body: unknown;
}

/**
 * Decides a waiting contest: upheld (the fine stands), cancelled (nothing to pay; what was paid
 * goes back), reduced (a new, lower fine; any overpayment goes back). What goes back goes to the
 * card when a card paid the citation (its charge refunded, in part for a reduction), else to the
 * payer's wallet (citation-refund.ts's giveBack; docs/citations.md#refunds-to-the-card). Audited;
 * the driver is told through the outbox (SMS, push where enabled) in the same transaction. With an
 * Idempotency-Key the decision is run once per key (wallet/idempotency.ts's withIdempotency: a
 * resend answers the first decision, `replayed`); a decision made since under another key is a
 * 409, as without one. The card refund is sent after COMMIT, outside any transaction, by the
 * request that made the decision (a replay sends nothing; an unreachable provider leaves it to the
 * wallet job). 404 for another operator's citation.
 */
export async function decideContest(
  ctx: ChargeContext,
  operatorId: number,
  actor: Actor,
  citationId: number,
  input: DecideInput,
  now: Date,
  key: DecisionKey | null = null,
): Promise<{ citation: Citation; replayed: boolean }> {
  const db = ctx.db;
  let given: GivenBack | null = null;
  const decide = async (tx: Tx) => {
    given = null;
    given = await decideIn(tx, operatorId, actor, citationId, input, now);
    return getOperatorCitation(tx, operatorId, citationId);
  };
  let out: { citation: Citation; replayed: boolean };
  if (key) {
    const r = await withIdempotency<Citation>(
      db,
      {
        memberId: key.memberId,
        key: key.key,
        scope: `Operator/${operatorId}/Citations/${citationId}/Decide`,
        body: key.body,
      },
      async (tx) => ({ statusCode: 200, body: await decide(tx) }),
    );
    out = { citation: r.body, replayed: r.replayed };
  } else {
    out = { citation: await db.transaction(decide), replayed: false };
  }
  const made = out.replayed ? null : (given as GivenBack | null);
  if (!made?.card) return out;
  // After COMMIT, outside any transaction: the card refund sent (a refusal is credited to the wallet, audited and told).
  await sendCardRefund(ctx, made);
  return { citation: await getOperatorCitation(db, operatorId, citationId), replayed: out.replayed };
}

/**
 * The decision in the caller's transaction. The payer's wallet is locked before the citation
 * (every money transaction takes the wallet first: wallet/ledger.ts's lockWallet).
 */
async function decideIn(
  tx: Tx,
  operatorId: number,
  actor: Actor,
  citationId: number,
  input: DecideInput,
  now: Date,
): Promise<GivenBack> {
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
  if (!c || !contest || contest.decision !== null || c.status !== 'contested') throw conflict('Decision', M.noContest);
  if (c.paidBy !== peek.paidBy) throw conflict('Decision', M.noContest);
  let fine = c.fineCents;
  if (input.Decision === 'reduced') {
    if (input.NewFine === undefined || input.NewFine >= c.fineCents) throw conflict('NewFine', M.reducedFineRequired);
    fine = input.NewFine;
  }
  const kept = c.paidCents - c.refundedCents;
  const owed = input.Decision === 'cancelled' ? 0 : fine + (c.lateFeeAppliedAt ? c.lateFeeCents : 0);
  const refund = c.paidCents > 0 ? Math.max(0, kept - owed) : 0;
  // A cancellation's refund and a reduction's overpayment alike go back to the card that paid (issue 30).
  const given = await giveBack(tx, c, refund);
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
      refundTo: refundTo(given),
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
      card: given.card,
    },
    now,
  );
  return given;
}
