import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Executor, type Tx } from '../db/client.ts';
import { postEntrySql } from '../db/post-entry-sql.ts';
import { ledgerEntries, members, type LedgerKind } from '../db/schema/index.ts';
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
    /** Set by a member's Start, Extend or Amend: auto-reload may cover the payment (auto-reload.ts's withReloadCover), keyed by this. */
    readonly coverKey: string | null = null,
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

export { postEntrySql };

/** What post_ledger_entry answers: no row when nothing was written. */
export interface PostedRow {
  entry_id: number | string;
  balance_after: number;
  reload_due: boolean;
}

/**
 * Posts one ledger entry and moves the balance with it, inside the caller's transaction, through
 * the database function post_ledger_entry, which Start's one statement calls too: one UPDATE both
 * checks and moves the balance (it row-locks the member until the caller commits, so concurrent
 * debits queue), the entry is written, and a debit that leaves the balance under the trigger marks
 * the auto-reload due; the CHECK (balance_cents >= 0) is the database's backstop.
 * Throws InsufficientFundsError (402) when a debit exceeds the balance, and HttpError 404 when the
 * member does not exist.
 */
export async function postEntry(tx: Tx, e: PostEntryInput): Promise<PostedEntry> {
  if (!Number.isSafeInteger(e.amountCents) || e.amountCents === 0)
    throw new RangeError(`amountCents must be a non-zero integer, got ${e.amountCents}`);
  const [posted] = await queryRows<PostedRow>(
    tx,
    sql`select * from ${postEntrySql(sql`${e.memberId}::int`, sql`${e.amountCents}::int`, e.kind, sql`${e.reference}::text`, e.idempotencyKey ?? null)}`,
  );
  if (!posted) {
    const [m] = await tx.select({ balanceCents: members.balanceCents }).from(members).where(eq(members.id, e.memberId));
    if (!m) throw new HttpError(404, 'Not found');
    throw new InsufficientFundsError(m.balanceCents, -e.amountCents);
  }
  return {
    entryId: Number(posted.entry_id),
    balanceCents: Number(posted.balance_after),
    reloadDue: Boolean(posted.reload_due),
  };
}

/**
 * Locks the member's wallet (the members row, FOR NO KEY UPDATE) for the rest of the caller's
 * transaction. Every money transaction takes this lock first, before any other row it changes
 * (the Idempotency-Key claim takes it in its own statement: idempotency.ts), so two of them never
 * wait for each other in opposite orders. FOR NO KEY UPDATE is the lock the balance UPDATE takes
 * anyway and does not conflict with the KEY SHARE locks of foreign keys to the member. False when
 * the member does not exist.
 */
export async function lockWallet(tx: Tx, memberId: number): Promise<boolean> {
  const rows = await tx.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for('no key update');
  return rows.length > 0;
}

/** The member's balance in cents (0 for an unknown member). */
export async function balanceOf(db: Executor, memberId: number): Promise<number> {
  const [m] = await db.select({ b: members.balanceCents }).from(members).where(eq(members.id, memberId));
  return m?.b ?? 0;
}

/** The member's ledger entries with one of these references (a session's payments), oldest first. */
export async function entriesFor(
  db: Executor,
  memberId: number,
  references: string[],
): Promise<{ amountCents: number; reference: string; createdAt: Date }[]> {
  return db
    .select({
      amountCents: ledgerEntries.amountCents,
      reference: ledgerEntries.reference,
      createdAt: ledgerEntries.createdAt,
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.memberId, memberId), inArray(ledgerEntries.reference, references)))
    .orderBy(asc(ledgerEntries.id));
}
