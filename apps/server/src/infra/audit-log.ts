import { and, desc, eq, lt } from 'drizzle-orm';
import type { AuditAction } from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

/** Who made a change: the member's id (null for a command-line tool) and the name shown for them. */
export interface Actor {
  id: number | null;
  name: string;
}

/** A command-line tool's name in the audit log. */
export const COMMAND_LINE: Actor = { id: null, name: 'command line' };

/** One change: what was done to which thing, and the thing before and after (null: none). */
export interface AuditChange {
  operatorId: number;
  actor: Actor;
  /** `<entity>.<verb>`, one of AUDIT_ACTIONS (the console names each). */
  action: AuditAction;
  entity: string;
  entityId: string | number;
  before: unknown;
  after: unknown;
}

/**
 * The one way an operator's change is written to the audit log. Call it with the transaction that
 * makes the change, so that the entry exists exactly when the change does. Entries are never
 * updated nor deleted (the table's triggers refuse it).
 */
export async function audit(tx: Tx, change: AuditChange): Promise<void> {
  await tx.insert(auditLog).values({
    operatorId: change.operatorId,
    actorId: change.actor.id,
    actorName: change.actor.name,
    action: change.action,
    entity: change.entity,
    entityId: String(change.entityId),
    before: change.before ?? null,
    after: change.after ?? null,
  });
}

/** An operator's entries, newest first, `limit` of them older than the entry `before`. */
export async function auditEntries(db: Executor, operatorId: number, opts: { before?: number; limit: number }) {
  return db
    .select()
    .from(auditLog)
    .where(
      and(eq(auditLog.operatorId, operatorId), opts.before === undefined ? undefined : lt(auditLog.id, opts.before)),
    )
    .orderBy(desc(auditLog.id))
    .limit(opts.limit);
}
