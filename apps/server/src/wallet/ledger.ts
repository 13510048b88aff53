import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../db/client.ts';
import { ledgerEntries, members, paymentMethods, walletSettings, type LedgerKind } from '../db/schema/index.ts';
import { HttpError } from '../lib/http-error.ts';
import { WALLET_MESSAGES } from '@parkit/contract';

export type { LedgerKind };

/**
 * Thrown by postEntry when a debit would take the balance below zero. Nothing was written (the
 * caller's transaction may go on or roll back). HTTP 402 with the field 'Balance'.
 */
export class InsufficientFundsError extends HttpError {
  readonly code = 'INSUFFICIENT_FUNDS';
  constructor(
    readonly balanceCents: number,
    readonly requiredCents: number,
  ) {
    super(402, WALLET_MESSAGES.insufficientFunds, [{ field: 'Balance', message: WALLET_MESSAGES.insufficientFunds }]);
    this.name = 'InsufficientFundsError';
  }
}

export interface PostEntryInput {
  memberId: number;
  /** Signed integer cents: credits positive, debits negative; never 0. */
  amountCents: number;
  kind: LedgerKind;
  /** What caused it, e.g. 'session:42'. */
  reference: string;
  /** The request's Idempotency-Key, or null for a job. */
  idempotencyKey?: string | null;
}

export interface PostedEntry {
  entryId: number;
  balanceCents: number;
  /**
   * True when this debit left the balance below the member's trigger with auto-reload on and a
   * default card: the reload is now marked due (once; a second debit does not mark it again).
   * After COMMIT, call runDueReload(app, memberId) (auto-reload.ts) or leave it to the job.
   */
  reloadDue: boolean;
}

/**
 * Posts one ledger entry and moves the balance with it, inside the caller's transaction.
 * One UPDATE both checks and moves the balance (it row-locks the member until the caller commits,
 * so concurrent debits queue); the CHECK (balance_cents >= 0) is the database's backstop.
 * Throws InsufficientFundsError (402) when a debit exceeds the balance, and HttpError 404 when the
 * member does not exist.
 */
export async function postEntry(tx: Tx, e: PostEntryInput): Promise<PostedEntry> {
  if (!Number.isSafeInteger(e.amountCents) || e.amountCents === 0) throw new RangeError(`amountCents must be a non-zero integer, got ${e.amountCents}`);
  const [moved] = await tx
    .update(members)
    .set({ balanceCents: sql`${members.balanceCents} + ${e.amountCents}` })
    .where(and(eq(members.id, e.memberId), sql`${members.balanceCents} + ${e.amountCents} >= 0`))
    .returning({ balanceCents: members.balanceCents, minBalanceCents: members.minBalanceCents });
  if (!moved) {
    const [m] = await tx.select({ balanceCents: members.balanceCents }).from(members).where(eq(members.id, e.memberId));
    if (!m) throw new HttpError(404, 'Not found');
    throw new InsufficientFundsError(m.balanceCents, -e.amountCents);
  }
  const [entry] = await tx
    .insert(ledgerEntries)
    .values({
      memberId: e.memberId,
      amountCents: e.amountCents,
      kind: e.kind,
      reference: e.reference.slice(0, 200),
      idempotencyKey: e.idempotencyKey ?? null,
      balanceAfterCents: moved.balanceCents,
    })
    .returning({ id: ledgerEntries.id });
  // Stryker disable next-line StringLiteral: never thrown, an INSERT … RETURNING of one row returns it or throws
  if (!entry) throw new Error('ledger insert returned no row');
  let reloadDue = false;
  if (e.amountCents < 0 && moved.balanceCents < moved.minBalanceCents) {
    // Marks the reload due only when none is pending, auto-reload is on and a default card exists.
    const marked = await tx
      .update(walletSettings)
      .set({ reloadDueAt: sql`now()` })
      .where(
        and(
          eq(walletSettings.memberId, e.memberId),
          eq(walletSettings.autoReload, true),
          isNull(walletSettings.reloadDueAt),
          sql`exists (select 1 from ${paymentMethods} pm where pm.member_id = ${e.memberId} and pm.is_default)`,
        ),
      )
      .returning({ memberId: walletSettings.memberId });
    reloadDue = marked.length > 0;
  }
  return { entryId: entry.id, balanceCents: moved.balanceCents, reloadDue };
}

/** The member's balance in cents (0 for an unknown member). */
export async function balanceOf(db: Executor, memberId: number): Promise<number> {
  const [m] = await db.select({ b: members.balanceCents }).from(members).where(eq(members.id, memberId));
  return m?.b ?? 0;
}
