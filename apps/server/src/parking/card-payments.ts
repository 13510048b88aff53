import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from '../db/client.ts';
import { parkingCardPayments, parkingQuotes, parkingSessions, walletCharges } from '../db/schema/index.ts';
import { HttpError } from '../lib/http-error.ts';
import {
  claimCharge,
  dropPending,
  markRecorded,
  releaseCharge,
  sendCharge,
  type ChargeContext,
  type ChargeHandler,
  type NewCharge,
  type WalletCharge,
} from '../wallet/index.ts';

/**
 * Quick Park's card payments: what a session charged to the guest's card, and the
 * refunds Stop gives back through the provider. Parking's only door to cards, as payments.ts is
 * to the wallet. Every movement takes the wallet's one card path (wallet/charges.ts): claimed as a
 * pending wallet_charges row in the caller's transaction, sent to the provider after COMMIT (no
 * lock or transaction is held during the call), recorded in a short transaction, and recovered by
 * the wallet job when the process died in between.
 */

/**
 * A start or extension charge claimed in the caller's transaction (the quote's claim): pending, not
 * yet sent. A typed card's start saves the card (`saveCard`: the provider keeps it for the
 * extensions, under a customer it answers); an extension of it names that customer (`customerRef`).
 */
export function claimCardCharge(
  tx: Tx,
  ctx: ChargeContext,
  c: Pick<NewCharge, 'providerKey' | 'amountCents' | 'description' | 'providerRef' | 'quoteId'> & {
    kind: 'quick-park-start' | 'quick-park-extend';
    /** The request's Idempotency-Key, for a repeated Start to find this charge (guest-service.ts). */
    idempotencyKey?: string | null;
    customerRef?: string | null;
    saveCard?: boolean;
  },
): Promise<WalletCharge> {
  return claimCharge(tx, ctx.currency, { idempotencyKey: null, customerRef: null, ...c, memberId: null });
}

/**
 * Whether a card charge of this kind is claimed and not yet recorded for a quote that `quote`
 * picks (a column condition on parking_quotes): another Start of the plate, or an extension of the
 * session, is being paid right now.
 */
export async function cardChargePending(
  tx: Tx,
  kind: 'quick-park-start' | 'quick-park-extend',
  quote: (q: typeof parkingQuotes) => SQL | undefined,
): Promise<boolean> {
  const [row] = await tx
    .select({ id: walletCharges.id })
    .from(walletCharges)
    .innerJoin(parkingQuotes, eq(parkingQuotes.id, walletCharges.quoteId))
    .where(and(eq(walletCharges.kind, kind), eq(walletCharges.status, 'pending'), quote(parkingQuotes)))
    .limit(1);
  return row !== undefined;
}

/**
 * Sends a claimed charge to the card, outside any transaction. A decline (402) or an unreachable
 * provider (503) releases it with `release` (the quote can be paid again) and answers with the
 * card's message; a success returns the provider's charge reference and the customer a saved card
 * is kept under (saveCard), for the caller to record (markRecorded).
 */
export async function sendCardCharge(
  ctx: ChargeContext,
  charge: WalletCharge,
  release: ChargeHandler['release'],
): Promise<{ chargeRef: string; customerRef: string | null }> {
  const charged = await sendCharge(ctx, charge);
  if (charged.ok) return { chargeRef: charged.chargeRef, customerRef: charged.customerRef ?? null };
  await releaseCharge(ctx, charge, release);
  throw new HttpError(charged.reason === 'unavailable' ? 503 : 402, charged.message, [
    { field: 'CardToken', message: charged.message },
  ]);
}

export async function recordCardPayment(
  tx: Executor,
  sessionId: number,
  chargeRef: string,
  amountCents: number,
): Promise<void> {
  await tx.insert(parkingCardPayments).values({ sessionId, chargeRef, amountCents });
}

/**
 * In the caller's transaction, which holds the session's row lock: `cents` to give back to the
 * card, from the session's newest charge first (an extension before the start), never more than a
 * charge took. Each share is counted on its charge now (refunded_cents, so no second refund can
 * take it) and claimed as a pending refund under the provider key `<keyBase>:<charge>` (Stop's:
 * `quick-park-stop:<session>:<charge>:<at>`); the caller sends them after COMMIT (sendRefunds).
 * Returns the claimed refunds.
 */
export async function claimRefunds(
  tx: Tx,
  ctx: ChargeContext,
  sessionId: number,
  cents: number,
  at: Date,
  keyOf: (chargeId: number) => string = (chargeId) => `quick-park-stop:${sessionId}:${chargeId}:${at.getTime()}`,
): Promise<WalletCharge[]> {
  if (cents <= 0) return [];
  const charges = await tx
    .select()
    .from(parkingCardPayments)
    .where(eq(parkingCardPayments.sessionId, sessionId))
    .orderBy(desc(parkingCardPayments.id))
    .for('update');
  const claimed: WalletCharge[] = [];
  let left = cents;
  for (const c of charges) {
    const take = Math.min(left, c.amountCents - c.refundedCents);
    if (take <= 0) continue;
    await tx
      .update(parkingCardPayments)
      .set({ refundedCents: sql`${parkingCardPayments.refundedCents} + ${take}` })
      .where(eq(parkingCardPayments.id, c.id));
    claimed.push(
      await claimCharge(tx, ctx.currency, {
        memberId: null,
        kind: 'quick-park-refund',
        providerKey: keyOf(c.id),
        amountCents: take,
        description: `ParkIt refund of session ${sessionId}`,
        providerRef: c.chargeRef,
        customerRef: null,
        idempotencyKey: null,
        cardPaymentId: c.id,
      }),
    );
    left -= take;
    if (left === 0) break;
  }
  return claimed;
}

/** A refund the provider refused: its share is no longer counted on the charge nor on the session. */
export async function releaseRefund(tx: Tx, refund: WalletCharge): Promise<void> {
  if (refund.cardPaymentId === null) return;
  const [payment] = await tx
    .update(parkingCardPayments)
    .set({ refundedCents: sql`${parkingCardPayments.refundedCents} - ${refund.amountCents}` })
    .where(eq(parkingCardPayments.id, refund.cardPaymentId))
    .returning({ sessionId: parkingCardPayments.sessionId });
  if (!payment) return;
  await tx
    .update(parkingSessions)
    .set({ refundedCents: sql`greatest(${parkingSessions.refundedCents} - ${refund.amountCents}, 0)` })
    .where(eq(parkingSessions.id, payment.sessionId));
}

/** What sending a stop's refunds came to: all given back, or the first refusal (nothing given back yet). */
export type RefundsSent = { ok: true } | { ok: false; status: 502 | 503; message: string; refused: WalletCharge[] };

/**
 * Sends claimed refunds to the provider one by one, outside any transaction, and records each
 * given back. At the first that is refused or cannot be sent, stops: that one and the rest are
 * returned for the caller to release (when nothing was given back yet, the stop is undone) or,
 * once some were given back, the refused one is released and the others left to the wallet job.
 */
export async function sendRefunds(ctx: ChargeContext, refunds: WalletCharge[]): Promise<RefundsSent> {
  for (const [i, refund] of refunds.entries()) {
    const sent = await sendCharge(ctx, refund);
    if (!sent.ok) {
      if (i > 0) {
        // Part was given back: the stop stands; a refusal is uncounted, an outage retried by the job.
        if (sent.reason !== 'unavailable') await releaseCharge(ctx, refund, releaseRefund);
        return { ok: true };
      }
      return {
        ok: false,
        status: sent.reason === 'unavailable' ? 503 : 502,
        message: sent.message,
        refused: refunds,
      };
    }
    await ctx.db.transaction((tx) => markRecorded(tx, refund.id, sent.chargeRef));
  }
  return { ok: true };
}

/** The refunds of a stop that could not be given back, released with their shares, in the caller's transaction. */
export async function releaseRefunds(tx: Tx, refunds: WalletCharge[]): Promise<void> {
  for (const r of refunds) if (await dropPending(tx, r.id)) await releaseRefund(tx, r);
}

/** A card-paid (Quick Park) session's charges, oldest first: the start, then each extension. */
export async function cardPaymentsOf(
  db: Executor,
  sessionId: number,
): Promise<{ kind: 'Start' | 'Extension'; cents: number; at: Date }[]> {
  const rows = await db
    .select({ cents: parkingCardPayments.amountCents, at: parkingCardPayments.createdAt })
    .from(parkingCardPayments)
    .where(eq(parkingCardPayments.sessionId, sessionId))
    .orderBy(parkingCardPayments.id);
  return rows.map((r, i) => ({ kind: i === 0 ? 'Start' : 'Extension', cents: r.cents, at: r.at }));
}
