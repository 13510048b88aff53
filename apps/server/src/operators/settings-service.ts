import { eq } from 'drizzle-orm';
import { OPERATOR_MESSAGES as M, type OperatorSettings } from '@parkit/contract';
import type { Db, Executor } from '../db/client.ts';
import { operators } from '../db/schema/index.ts';
import { notFound } from '../lib/http-error.ts';
import { audit, type Actor } from '../infra/audit-log.ts';

/** The operator's settings (every role reads them). */
export async function settingsOf(db: Executor, operatorId: number): Promise<OperatorSettings> {
  const [row] = await db
    .select({ showPlates: operators.showPlates })
    .from(operators)
    .where(eq(operators.id, operatorId));
  if (!row) throw notFound(M.operatorNotFound);
  return { ShowPlates: row.showPlates };
}

/**
 * Changes the operator's settings (the owner's): the operator's row is locked, read, written and
 * the change audited in one transaction, so two owners' changes never lose one another's entry. A
 * setting already as asked is no change and writes no entry.
 */
export async function changeSettings(
  db: Db,
  operatorId: number,
  actor: Actor,
  wanted: OperatorSettings,
): Promise<OperatorSettings> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ showPlates: operators.showPlates })
      .from(operators)
      .where(eq(operators.id, operatorId))
      .for('update');
    if (!row) throw notFound(M.operatorNotFound);
    const before: OperatorSettings = { ShowPlates: row.showPlates };
    if (before.ShowPlates === wanted.ShowPlates) return before;
    await tx.update(operators).set({ showPlates: wanted.ShowPlates }).where(eq(operators.id, operatorId));
    await audit(tx, {
      operatorId,
      actor,
      action: 'operator.update',
      entity: 'operator',
      entityId: operatorId,
      before,
      after: { ShowPlates: wanted.ShowPlates },
    });
    return { ShowPlates: wanted.ShowPlates };
  });
}
