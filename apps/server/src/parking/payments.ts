import type { Executor, Tx } from '../db/client.ts';
import {
  autoReloadCents,
  balanceOf,
  entriesFor,
  InsufficientFundsError,
  postEntry,
  type PostedEntry,
  planForMember,
} from '../wallet/index.ts';

/**
 * Parking's only door to the wallet (issue 10's ledger): parking never writes ledger rows or
 * balances itself. Every call runs inside the caller's transaction, so a refused debit rolls the
 * session back with it.
 */

/** The member's plan's convenience fee (added once per session) and zone discount in percent (Deluxe: 10). */
export async function planTerms(
  db: Executor,
  memberId: number,
): Promise<{ feeCents: number; discountPercent: number }> {
  const plan = await planForMember(db, memberId);
  return { feeCents: plan.convenienceFeeCents, discountPercent: plan.zoneDiscountPercent };
}

/** The balance, and what auto-reload would add at Start or Extend (0 when off). */
export async function walletFunds(
  db: Executor,
  memberId: number,
): Promise<{ balanceCents: number; reloadCents: number }> {
  const [balanceCents, reloadCents] = await Promise.all([balanceOf(db, memberId), autoReloadCents(db, memberId)]);
  return { balanceCents, reloadCents };
}

/**
 * Takes a parking payment from the wallet; throws the wallet's 402 when the balance is short. With
 * `coverKey` (a member's Start, Extend or Amend), the 402 names it, so that auto-reload may top up
 * the wallet outside the transaction and the request run again (auto-reload.ts's withReloadCover;
 * the card is charged once per cover key). Answers the entry, whose reloadDue says the debit marked
 * an auto-reload due (none for 0 cents).
 */
export async function chargeWallet(
  tx: Tx,
  memberId: number,
  cents: number,
  reference: string,
  idempotencyKey: string | null,
  coverKey: string | null = null,
): Promise<PostedEntry | null> {
  if (cents <= 0) return null;
  try {
    return await postEntry(tx, { memberId, amountCents: -cents, kind: 'parking', reference, idempotencyKey });
  } catch (err) {
    if (err instanceof InsufficientFundsError && coverKey !== null)
      throw new InsufficientFundsError(err.balanceCents, err.requiredCents, coverKey);
    throw err;
  }
}

/** Gives parking money back to the wallet, as a refund in the ledger (with the request's Idempotency-Key, when one moved it). */
export async function refundWallet(
  tx: Tx,
  memberId: number,
  cents: number,
  reference: string,
  idempotencyKey: string | null = null,
) {
  if (cents <= 0) return null;
  return postEntry(tx, { memberId, amountCents: cents, kind: 'refund', reference, idempotencyKey });
}

/**
 * A wallet-paid session's payments as the receipt lists them, from the ledger: the start
 * (`session:ID`), each extension (`session:ID:extend`) and zone change (`session:ID:amend`), the
 * amounts as the member paid them (a debit shows positive). Stop's refund is the session's own
 * RefundedAmount.
 */
export async function walletPaymentsOf(
  db: Executor,
  memberId: number,
  sessionId: number,
): Promise<{ kind: 'Start' | 'Extension' | 'ZoneChange'; cents: number; at: Date }[]> {
  const ref = `session:${sessionId}`;
  const kinds = new Map<string, 'Start' | 'Extension' | 'ZoneChange'>([
    [ref, 'Start'],
    [`${ref}:extend`, 'Extension'],
    [`${ref}:amend`, 'ZoneChange'],
  ]);
  const rows = await entriesFor(db, memberId, [...kinds.keys()]);
  return rows.map((r) => ({ kind: kinds.get(r.reference) ?? 'ZoneChange', cents: -r.amountCents, at: r.createdAt }));
}
