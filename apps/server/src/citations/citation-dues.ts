import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { citations, type CitationStatus } from '../db/schema/index.ts';

// What a citation asks to be paid: the amount due now, and the late fee added after the due date.

/** Statuses in which something is to pay. */
const PAYABLE: CitationStatus[] = ['issued', 'upheld', 'reduced'];

/** What is to pay now (cents): the fine and, once applied, the late fee, while payable. */
export function amountDueCents(c: {
  status: string;
  fineCents: number;
  lateFeeCents: number;
  lateFeeAppliedAt: Date | null;
}) {
  if (!PAYABLE.includes(c.status as CitationStatus)) return 0;
  return c.fineCents + (c.lateFeeAppliedAt ? c.lateFeeCents : 0);
}

/**
 * Adds the late fee to every payable citation past its due date, once: one UPDATE whose WHERE
 * holds only rows not yet charged (late_fee_applied_at is null), so a second run, or two
 * processes at once, charge nothing again. Answers how many it charged.
 */
export async function applyLateFees(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .update(citations)
    .set({ lateFeeAppliedAt: now, updatedAt: now })
    .where(
      and(isNull(citations.lateFeeAppliedAt), inArray(citations.status, PAYABLE), sql`${citations.dueAt} <= ${now}`),
    )
    .returning({ id: citations.id });
  return rows.length;
}
