import type { AuditPage } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { auditEntries } from '../infra/audit-log.ts';

/** A page of the operator's audit log, newest first (the console's Audit log). */
export async function auditPage(
  db: Executor,
  operatorId: number,
  opts: { before?: number | undefined; limit: number },
): Promise<AuditPage> {
  const rows = await auditEntries(db, operatorId, {
    limit: opts.limit + 1,
    ...(opts.before === undefined ? {} : { before: opts.before }),
  });
  const page = rows.slice(0, opts.limit);
  return {
    Entries: page.map((r) => ({
      Id: r.id,
      At: r.createdAt.toISOString(),
      ActorId: r.actorId,
      ActorName: r.actorName,
      Action: r.action,
      Entity: r.entity,
      EntityId: r.entityId,
      Before: r.before,
      After: r.after,
    })),
    Next: rows.length > opts.limit ? page.at(-1)!.id : null,
  };
}
