import { and, eq } from 'drizzle-orm';
import { centsToAmount, CITATION_MESSAGES as M } from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import { citations } from '../db/schema/index.ts';
import { conflict, notFound } from '../lib/http-error.ts';
import { postEntry } from '../wallet/index.ts';
import { amountDueCents } from './citation-dues.ts';
import { lockMemberCitation, ownedBy } from './citation-view.ts';

// A driver pays a citation: the amount a card payment charges, and paying from the wallet.

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
  /** The card charge that paid it (a payment by card), kept for a cancellation's refund to that card. */
  chargeId?: number,
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
    .set({
      status: 'paid',
      paidCents: due,
      paidAt: now,
      paidBy: memberId,
      paidChargeId: chargeId ?? null,
      updatedAt: now,
    })
    .where(eq(citations.id, c.id));
  return { CitationId: c.id, Amount: centsToAmount(due), Balance: centsToAmount(posted.balanceCents), message: M.paid };
}
