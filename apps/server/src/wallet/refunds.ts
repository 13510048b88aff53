import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { walletCharges, walletRefunds } from '../db/schema/index.ts';
import type { ChargeContext } from './charges.ts';
import { balanceOf, postEntry } from './ledger.ts';

/** What emptyWalletToCards did: given back to cards, and credit no card paid for (ended). */
export interface EmptiedWallet {
  refundedCents: number;
  forfeitedCents: number;
}

/**
 * Empties the member's wallet back to the cards its money came from, in the caller's transaction,
 * which holds the wallet lock (lockWallet or the Idempotency-Key's claim): the newest card charges
 * first, never more than a charge took less what was given back from it. Each part is a
 * 'card-refund' debit in the ledger and a pending wallet_refunds row; the provider is called after
 * COMMIT by sendRefunds, never here (docs/architecture.md#money). What no card charge covers (credit
 * the operator gave, as the demo's opening balance) is debited as an 'adjustment' and ends.
 */
export async function emptyWalletToCards(tx: Tx, memberId: number, idempotencyKey: string): Promise<EmptiedWallet> {
  const balance = await balanceOf(tx, memberId);
  if (balance <= 0) return { refundedCents: 0, forfeitedCents: 0 };
  const charges = await tx
    .select()
    .from(walletCharges)
    .where(
      and(
        eq(walletCharges.memberId, memberId),
        eq(walletCharges.status, 'recorded'),
        gt(walletCharges.amountCents, walletCharges.refundedCents),
      ),
    )
    .orderBy(desc(walletCharges.id))
    .for('update');
  let left = balance;
  for (const c of charges) {
    if (left === 0 || !c.chargeRef) continue;
    const take = Math.min(left, c.amountCents - c.refundedCents);
    const posted = await postEntry(tx, {
      memberId,
      amountCents: -take,
      kind: 'card-refund',
      reference: `refund:${c.chargeRef}`,
      idempotencyKey,
    });
    await tx
      .update(walletCharges)
      .set({ refundedCents: sql`${walletCharges.refundedCents} + ${take}` })
      .where(eq(walletCharges.id, c.id));
    await tx.insert(walletRefunds).values({
      memberId,
      chargeId: c.id,
      amountCents: take,
      providerKey: `wallet-refund:${memberId}:${c.id}:${idempotencyKey}`,
      ledgerEntryId: posted.entryId,
    });
    left -= take;
  }
  if (left > 0) {
    await postEntry(tx, {
      memberId,
      amountCents: -left,
      kind: 'adjustment',
      reference: 'account-deleted:credit-ended',
      idempotencyKey,
    });
  }
  return { refundedCents: balance - left, forfeitedCents: left };
}

/** How each refund sent went: done, failed (the provider refused: the operator pays it another way), or still pending. */
export type RefundOutcome = 'done' | 'failed' | 'pending';

/**
 * Sends the pending refunds (of one member, or every one older than `graceMs`: the wallet job's
 * recovery) to the provider, outside any transaction, each with its own key, so a retry is
 * answered with the first refund; each answer is written on its row. An unreachable provider
 * leaves the row pending for the next run.
 */
export async function sendRefunds(
  ctx: ChargeContext,
  of: { memberId: number } | { graceMs: number },
  limit = 50,
): Promise<RefundOutcome[]> {
  const pending = await ctx.db
    .select({
      id: walletRefunds.id,
      amountCents: walletRefunds.amountCents,
      providerKey: walletRefunds.providerKey,
      chargeRef: walletCharges.chargeRef,
    })
    .from(walletRefunds)
    .innerJoin(walletCharges, eq(walletCharges.id, walletRefunds.chargeId))
    .where(
      and(
        eq(walletRefunds.status, 'pending'),
        'memberId' in of
          ? eq(walletRefunds.memberId, of.memberId)
          : lt(walletRefunds.createdAt, sql`now() - make_interval(secs => ${of.graceMs / 1000})`),
      ),
    )
    .orderBy(walletRefunds.id)
    .limit(limit);
  const outcomes: RefundOutcome[] = [];
  for (const r of pending) {
    const answer = await ctx.provider.refund({
      chargeRef: r.chargeRef ?? '',
      amountCents: r.amountCents,
      idempotencyKey: r.providerKey,
    });
    if (!answer.ok && answer.reason === 'unavailable') {
      outcomes.push('pending');
      continue;
    }
    const status = answer.ok ? 'done' : 'failed';
    await ctx.db
      .update(walletRefunds)
      .set({ status, refundRef: answer.ok ? answer.refundRef : null, settledAt: sql`now()` })
      .where(and(eq(walletRefunds.id, r.id), eq(walletRefunds.status, 'pending')));
    outcomes.push(status);
  }
  return outcomes;
}
