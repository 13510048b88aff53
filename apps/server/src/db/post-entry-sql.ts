import { sql, type SQL } from 'drizzle-orm';
import type { LedgerKind } from './schema/index.ts';

/** post_ledger_entry(...) as SQL: the one writer of balances and ledger rows (migration 0023). */
export function postEntrySql(
  memberId: SQL,
  amountCents: SQL,
  kind: LedgerKind,
  reference: SQL,
  idempotencyKey: string | null,
): SQL {
  return sql`post_ledger_entry(${memberId}, ${amountCents}, ${kind}::text, ${reference}, ${idempotencyKey}::text)`;
}
