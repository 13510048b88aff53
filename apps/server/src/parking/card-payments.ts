import { desc, eq, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../db/client.ts';
import { parkingCardPayments } from '../db/schema/index.ts';
import { HttpError } from '../lib/http-error.ts';
import type { PaymentProvider } from '../wallet/index.ts';

/**
 * Quick Park's card payments (issue 11): what a session charged to the guest's card, and the
 * refunds Stop gives back through the provider. Parking's only door to cards, as payments.ts is
 * to the wallet.
 */

/** Charges the session's card (start or extension) and records the charge; a decline is a 402 with the card's message. */
export async function chargeCard(
  tx: Tx,
  provider: PaymentProvider,
  r: { sessionId: number | null; cardRef: string; amountCents: number; description: string; idempotencyKey: string },
): Promise<string> {
  const charged = await provider.charge({
    customerRef: null,
    providerRef: r.cardRef,
    amountCents: r.amountCents,
    currency: 'usd',
    description: r.description,
    idempotencyKey: r.idempotencyKey,
  });
  if (!charged.ok)
    throw new HttpError(charged.reason === 'unavailable' ? 503 : 402, charged.message, [
      { field: 'CardToken', message: charged.message },
    ]);
  if (r.sessionId !== null) await recordCardPayment(tx, r.sessionId, charged.chargeRef, r.amountCents);
  return charged.chargeRef;
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
 * Gives `cents` back to the card, from the session's newest charge first (an extension before the
 * start), never more than a charge took. The provider's idempotency key names the session and the
 * charge (a session is stopped once), so a retry after a rollback cannot refund twice. A refusal
 * or an unreachable provider throws, and the caller's transaction rolls back: the session runs on.
 * Returns what was refunded.
 */
export async function refundToCard(
  tx: Tx,
  provider: PaymentProvider,
  sessionId: number,
  cents: number,
): Promise<number> {
  if (cents <= 0) return 0;
  const charges = await tx
    .select()
    .from(parkingCardPayments)
    .where(eq(parkingCardPayments.sessionId, sessionId))
    .orderBy(desc(parkingCardPayments.id))
    .for('update');
  let left = cents;
  for (const c of charges) {
    const take = Math.min(left, c.amountCents - c.refundedCents);
    if (take <= 0) continue;
    const r = await provider.refund({
      chargeRef: c.chargeRef,
      amountCents: take,
      idempotencyKey: `quick-park-stop:${sessionId}:${c.id}`,
    });
    if (!r.ok) throw new HttpError(r.reason === 'unavailable' ? 503 : 502, r.message);
    await tx
      .update(parkingCardPayments)
      .set({ refundedCents: sql`${parkingCardPayments.refundedCents} + ${take}` })
      .where(eq(parkingCardPayments.id, c.id));
    left -= take;
    if (left === 0) break;
  }
  return cents - left;
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
