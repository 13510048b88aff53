import type { Executor, Tx } from '../db/client.ts';
import { autoReloadCents, reloadToCover, type CoverContext, balanceOf, postEntry, planForMember } from '../wallet/index.ts';

export type { CoverContext };

/**
 * Parking's only door to the wallet (issue 10's ledger): parking never writes ledger rows or
 * balances itself. Every call runs inside the caller's transaction, so a refused debit rolls the
 * session back with it.
 */

/** The member's plan's convenience fee (added once per session) and zone discount in percent (Deluxe: 10). */
export async function planTerms(db: Executor, memberId: number): Promise<{ feeCents: number; discountPercent: number }> {
  const plan = await planForMember(db, memberId);
  return { feeCents: plan.convenienceFeeCents, discountPercent: plan.zoneDiscountPercent };
}

/** The balance, and what auto-reload would add at Start or Extend (0 when off). */
export async function walletFunds(db: Executor, memberId: number): Promise<{ balanceCents: number; reloadCents: number }> {
  const [balanceCents, reloadCents] = await Promise.all([balanceOf(db, memberId), autoReloadCents(db, memberId)]);
  return { balanceCents, reloadCents };
}

/**
 * Takes a parking payment from the wallet; throws the wallet's 402 when the balance is short.
 * With `cover` (a member's Start or Extend), auto-reload first tops up a short balance from the
 * default card, charged once per `cover.chargeKey` (the quote).
 */
export async function chargeWallet(tx: Tx, memberId: number, cents: number, reference: string, idempotencyKey: string | null, cover?: { ctx: CoverContext; chargeKey: string }) {
  if (cents <= 0) return null;
  if (cover) await reloadToCover(tx, cover.ctx, memberId, cents, cover.chargeKey);
  return postEntry(tx, { memberId, amountCents: -cents, kind: 'parking', reference, idempotencyKey });
}

/** Gives parking money back to the wallet, as a refund in the ledger. */
export async function refundWallet(tx: Tx, memberId: number, cents: number, reference: string) {
  if (cents <= 0) return null;
  return postEntry(tx, { memberId, amountCents: cents, kind: 'refund', reference, idempotencyKey: null });
}
