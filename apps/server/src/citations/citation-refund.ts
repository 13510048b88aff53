import { and, eq } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { citations, paymentMethods, walletCharges } from '../db/schema/index.ts';
import { audit } from '../infra/audit-log.ts';
import {
  postEntry,
  refundableCharge,
  refundToCharge,
  sendRefunds,
  type ChargeContext,
  type RefundOutcome,
  type RefusedCardRefund,
} from '../wallet/index.ts';
import { notifyCardRefundRefused } from './citation-notices.ts';

// What a cancelled (or reduced) citation gives back, and where: the wallet, or the card it was paid with.

/** The provider key of a citation's card refund (`citation-refund:<citation>:<charge>`) starts with this. */
const REFUND_KEY = 'citation-refund';

/** Where a citation's refund went: the card (its pending refund row, the amount, the card's last 4 digits), or only the wallet. */
export interface GivenBack {
  refundCents: number;
  card: { refundId: number; cents: number; last4: string | null } | null;
}

/**
 * Gives `refundCents` of what the citation's payer paid back, in the caller's transaction, which
 * holds the payer's wallet lock and the citation's row: through the ledger to the wallet (kind
 * 'citation-refund', reference `citation:<id>:refund`), and, when a card charge paid it
 * (`paid_charge_id`), from the wallet on to that card (wallet/refunds.ts's refundToCharge: a
 * 'card-refund' debit and a pending refund, sent by sendCardRefund after COMMIT; at most what the
 * charge has not given back yet, the rest stays in the wallet). A payment from the wallet stays
 * there.
 */
export async function giveBack(tx: Tx, c: typeof citations.$inferSelect, refundCents: number): Promise<GivenBack> {
  if (refundCents <= 0 || c.paidBy === null) return { refundCents: 0, card: null };
  await postEntry(tx, {
    memberId: c.paidBy,
    amountCents: refundCents,
    kind: 'citation-refund',
    reference: `citation:${c.id}:refund`,
    idempotencyKey: null,
  });
  if (c.paidChargeId === null) return { refundCents, card: null };
  const charge = await refundableCharge(tx, c.paidChargeId);
  if (!charge || charge.memberId !== c.paidBy) return { refundCents, card: null };
  const cents = Math.min(refundCents, charge.left);
  const refundId = await refundToCharge(tx, charge, {
    amountCents: cents,
    reference: `citation:${c.id}:card-refund`,
    providerKey: `${REFUND_KEY}:${c.id}:${charge.id}`,
    idempotencyKey: null,
    creditOnRefusal: true,
  });
  const [card] = await tx
    .select({ last4: paymentMethods.last4 })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.memberId, c.paidBy), eq(paymentMethods.providerRef, charge.providerRef)))
    .limit(1);
  return { refundCents, card: { refundId, cents, last4: card?.last4 ?? null } };
}

/** Where a refund went, for the audit log: 'wallet', `card:<last 4>` (`card` when unknown), or null (none). */
export function refundTo(given: GivenBack): string | null {
  if (given.refundCents <= 0) return null;
  return given.card ? `card${given.card.last4 ? `:${given.card.last4}` : ''}` : 'wallet';
}

/**
 * After the decision's COMMIT (a cancellation's, or a reduction's), outside any transaction: the
 * card refund sent to the provider (wallet/refunds.ts's sendRefunds). Refused, the amount is back
 * in the wallet (the refund's credit_on_refusal) and cardRefundRefused audits and tells, in the
 * transaction that marks it failed. An unreachable provider leaves the refund pending: the wallet
 * job sends it again, and a refusal then is credited, audited and told the same way.
 */
export async function sendCardRefund(ctx: ChargeContext, given: GivenBack): Promise<RefundOutcome | null> {
  if (!given.card) return null;
  const [outcome = 'pending'] = await sendRefunds(ctx, { refundIds: [given.card.refundId] });
  return outcome;
}

/**
 * A citation's card refund the provider refused (wallet/refunds.ts's sendRefunds, at the first try
 * or the wallet job's retry), in the transaction that marked it failed and credited the wallet:
 * the audit log's `citation.card-refund-refused`, and the payer told (SMS, push) that the card
 * refused it and where the money is.
 */
export async function cardRefundRefused(tx: Tx, r: RefusedCardRefund): Promise<void> {
  const citationId = Number(r.providerKey.split(':')[1]);
  const [c] = await tx
    .select({ id: citations.id, operatorId: citations.operatorId, plate: citations.plate })
    .from(citations)
    .where(eq(citations.id, citationId));
  if (!c) return;
  const [card] = await tx
    .select({ last4: paymentMethods.last4 })
    .from(walletCharges)
    .innerJoin(
      paymentMethods,
      and(
        eq(paymentMethods.memberId, walletCharges.memberId),
        eq(paymentMethods.providerRef, walletCharges.providerRef),
      ),
    )
    .where(eq(walletCharges.id, r.chargeId))
    .limit(1);
  const last4 = card?.last4 ?? null;
  await audit(tx, {
    operatorId: c.operatorId,
    actor: { id: null, name: 'ParkIt' },
    action: 'citation.card-refund-refused',
    entity: 'citation',
    entityId: c.id,
    before: { refundTo: 'card', cardLast4: last4, cents: r.amountCents },
    after: { refundTo: r.credited ? 'wallet' : null, memberId: r.memberId, cents: r.amountCents },
  });
  if (r.credited)
    await notifyCardRefundRefused(
      tx,
      { memberId: r.memberId, citationId: c.id, plate: c.plate, last4, cents: r.amountCents },
      new Date(),
    );
}

/** At start-up: a citation's refused card refund is audited and told, whoever sent it (app.ts). */
export function registerCitationRefundRefusals(wallet: ChargeContext): void {
  (wallet.refundRefused ??= {})[REFUND_KEY] = cardRefundRefused;
}
