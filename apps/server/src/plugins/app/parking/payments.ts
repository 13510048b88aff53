import type { Executor, Tx } from '../../../db/client.ts';
import { balanceOf, postEntry } from '../wallet/ledger.ts';
import { convenienceFeeCents } from '../wallet/plans.ts';

/**
 * Parking's only door to the wallet (issue 10's ledger): parking never writes ledger rows or
 * balances itself. Every call runs inside the caller's transaction, so a refused debit rolls the
 * session back with it.
 */

/** The member's plan's convenience fee, added once per session. */
export function sessionFeeCents(db: Executor, memberId: number): Promise<number> {
  return convenienceFeeCents(db, memberId);
}

export function walletBalanceCents(db: Executor, memberId: number): Promise<number> {
  return balanceOf(db, memberId);
}

/** Takes a parking payment from the wallet; throws the wallet's 402 when the balance is short. */
export async function chargeWallet(tx: Tx, memberId: number, cents: number, reference: string, idempotencyKey: string | null) {
  if (cents <= 0) return null;
  return postEntry(tx, { memberId, amountCents: -cents, kind: 'parking', reference, idempotencyKey });
}

/** Gives parking money back to the wallet, as a refund in the ledger. */
export async function refundWallet(tx: Tx, memberId: number, cents: number, reference: string) {
  if (cents <= 0) return null;
  return postEntry(tx, { memberId, amountCents: cents, kind: 'refund', reference, idempotencyKey: null });
}
