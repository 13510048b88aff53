import { and, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { walletCharges, walletRefunds } from '../db/schema/index.ts';
import type { ChargeContext } from './charges.ts';
import { balanceOf, lockWallet, postEntry } from './ledger.ts';

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
    await refundToCharge(tx, c, {
      amountCents: take,
      reference: `refund:${c.chargeRef}`,
      providerKey: `wallet-refund:${memberId}:${c.id}:${idempotencyKey}`,
      idempotencyKey,
      creditOnRefusal: false,
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

/**
 * Gives `amountCents` of the wallet back to the card of the charge `c` (locked FOR UPDATE by the
 * caller, in its transaction, which holds the wallet lock): a 'card-refund' debit, the amount counted
 * on the charge (refunded_cents, so no second refund can take it), and a pending wallet_refunds row
 * that sendRefunds sends after COMMIT. Answers the row's id.
 */
export async function refundToCharge(
  tx: Tx,
  c: Pick<typeof walletCharges.$inferSelect, 'id' | 'memberId'>,
  r: {
    amountCents: number;
    reference: string;
    providerKey: string;
    idempotencyKey: string | null;
    creditOnRefusal: boolean;
  },
): Promise<number> {
  if (c.memberId === null) throw new Error(`wallet charge ${c.id} has no wallet`);
  const posted = await postEntry(tx, {
    memberId: c.memberId,
    amountCents: -r.amountCents,
    kind: 'card-refund',
    reference: r.reference,
    idempotencyKey: r.idempotencyKey,
  });
  await tx
    .update(walletCharges)
    .set({ refundedCents: sql`${walletCharges.refundedCents} + ${r.amountCents}` })
    .where(eq(walletCharges.id, c.id));
  const [row] = await tx
    .insert(walletRefunds)
    .values({
      memberId: c.memberId,
      chargeId: c.id,
      amountCents: r.amountCents,
      providerKey: r.providerKey,
      ledgerEntryId: posted.entryId,
      creditOnRefusal: r.creditOnRefusal,
    })
    .returning({ id: walletRefunds.id });
  return row!.id;
}

/**
 * The charge a refund to a card may still take from, locked for the refund's transaction (which
 * holds the member's wallet lock): recorded, with what it has not given back yet; null when none.
 */
export async function refundableCharge(tx: Tx, chargeId: number) {
  const [c] = await tx
    .select({
      id: walletCharges.id,
      memberId: walletCharges.memberId,
      left: sql<number>`${walletCharges.amountCents} - ${walletCharges.refundedCents}`.mapWith(Number),
      providerRef: walletCharges.providerRef,
    })
    .from(walletCharges)
    .where(and(eq(walletCharges.id, chargeId), eq(walletCharges.status, 'recorded')))
    .for('update');
  return c && c.left > 0 ? c : null;
}

/** How each refund sent went: done, failed (the provider refused: the operator pays it another way), or still pending. */
export type RefundOutcome = 'done' | 'failed' | 'pending';

/** The refusal handler of a refund, by its provider key's first part. */
const refusalHandler = (ctx: ChargeContext, providerKey: string) =>
  ctx.refundRefused?.[providerKey.slice(0, providerKey.indexOf(':'))];

/**
 * Sends the pending refunds (of one member, the ids given, or every one older than `graceMs`: the
 * wallet job's recovery) to the provider, outside any transaction, each with its own key, so a
 * retry is answered with the first refund; each answer is written on its row. An unreachable
 * provider leaves the row pending for the next run. A refusal of a row with credit_on_refusal (a
 * citation's refund) credits the amount back to the wallet in the transaction that marks it failed
 * (ledger kind 'refund', reference `card-refund-refused:<row>`), and gives it back to the charge;
 * the refund's refusal handler (RefundRefusedHandler) runs in that transaction too, so the first
 * try and the job's retry audit and tell alike, once.
 */
export async function sendRefunds(
  ctx: ChargeContext,
  of: { memberId: number } | { refundIds: number[] } | { graceMs: number },
  limit = 50,
): Promise<RefundOutcome[]> {
  const pending = await ctx.db
    .select({
      id: walletRefunds.id,
      memberId: walletRefunds.memberId,
      chargeId: walletRefunds.chargeId,
      amountCents: walletRefunds.amountCents,
      providerKey: walletRefunds.providerKey,
      creditOnRefusal: walletRefunds.creditOnRefusal,
      chargeRef: walletCharges.chargeRef,
    })
    .from(walletRefunds)
    .innerJoin(walletCharges, eq(walletCharges.id, walletRefunds.chargeId))
    .where(
      and(
        eq(walletRefunds.status, 'pending'),
        'memberId' in of
          ? eq(walletRefunds.memberId, of.memberId)
          : 'refundIds' in of
            ? inArray(walletRefunds.id, of.refundIds)
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
    await ctx.db.transaction(async (tx) => {
      // The wallet locked first, as every money transaction; a member gone since keeps the refusal only.
      const credit = !answer.ok && r.creditOnRefusal && (await lockWallet(tx, r.memberId));
      const [settled] = await tx
        .update(walletRefunds)
        .set({ status, refundRef: answer.ok ? answer.refundRef : null, settledAt: sql`now()` })
        .where(and(eq(walletRefunds.id, r.id), eq(walletRefunds.status, 'pending')))
        .returning({ id: walletRefunds.id });
      if (!settled || answer.ok) return;
      if (credit) {
        await postEntry(tx, {
          memberId: r.memberId,
          amountCents: r.amountCents,
          kind: 'refund',
          reference: `card-refund-refused:${r.id}`,
          idempotencyKey: null,
        });
        await tx
          .update(walletCharges)
          .set({ refundedCents: sql`${walletCharges.refundedCents} - ${r.amountCents}` })
          .where(eq(walletCharges.id, r.chargeId));
      }
      await refusalHandler(ctx, r.providerKey)?.(tx, {
        id: r.id,
        memberId: r.memberId,
        chargeId: r.chargeId,
        amountCents: r.amountCents,
        providerKey: r.providerKey,
        credited: credit,
      });
    });
    outcomes.push(status);
  }
  return outcomes;
}
