import { eq } from 'drizzle-orm';
import { OPERATOR_MESSAGES as M, type ChangeOperatorSettingsRequest, type OperatorSettings } from '@parkit/contract';
import type { Db, Executor } from '../db/client.ts';
import { operators } from '../db/schema/index.ts';
import { notFound } from '../lib/http-error.ts';
import { audit, type Actor } from '../infra/audit-log.ts';

const columns = { showPlates: operators.showPlates, retentionWeeks: operators.retentionWeeks };
const view = (row: { showPlates: boolean; retentionWeeks: number }): OperatorSettings => ({
  ShowPlates: row.showPlates,
  RetentionWeeks: row.retentionWeeks,
});

/** The operator's settings (every role reads them). */
export async function settingsOf(db: Executor, operatorId: number): Promise<OperatorSettings> {
  const [row] = await db.select(columns).from(operators).where(eq(operators.id, operatorId));
  if (!row) throw notFound(M.operatorNotFound);
  return view(row);
}

/**
 * Changes the operator's settings (the owner's): the operator's row is locked, read, written and
 * the change audited in one transaction, so two owners' changes never lose one another's entry. A
 * setting already as asked is no change and writes no entry; RetentionWeeks left out is kept.
 */
export async function changeSettings(
  db: Db,
  operatorId: number,
  actor: Actor,
  wanted: ChangeOperatorSettingsRequest,
): Promise<OperatorSettings> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select(columns).from(operators).where(eq(operators.id, operatorId)).for('update');
    if (!row) throw notFound(M.operatorNotFound);
    const before = view(row);
    const after: OperatorSettings = {
      ShowPlates: wanted.ShowPlates,
      RetentionWeeks: wanted.RetentionWeeks ?? before.RetentionWeeks,
    };
    if (before.ShowPlates === after.ShowPlates && before.RetentionWeeks === after.RetentionWeeks) return before;
    await tx
      .update(operators)
      .set({ showPlates: after.ShowPlates, retentionWeeks: after.RetentionWeeks })
      .where(eq(operators.id, operatorId));
    await audit(tx, {
      operatorId,
      actor,
      action: 'operator.update',
      entity: 'operator',
      entityId: operatorId,
      before,
      after,
    });
    return after;
  });
}
