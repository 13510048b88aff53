import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Executor } from '../../../db/client.ts';
import { IDEMPOTENCY_HEADER, idempotencyKeyOf, withIdempotency } from '../../../wallet/index.ts';

/**
 * An APDS update whose Idempotency-Key is optional (docs/apds.md#idempotency): without one it runs
 * as it is; with one, in the key's transaction, so a retry whose first try was written answers that
 * try again (`Idempotent-Replayed: true`) rather than a 409 for its now stale version, and the same
 * key with another body is a 422. The key is the operator's.
 */
export async function withOptionalKey<T>(
  db: Db,
  req: FastifyRequest,
  reply: FastifyReply,
  key: { operatorId: number; scope: string },
  update: (db: Executor) => Promise<T>,
): Promise<T> {
  if (req.headers[IDEMPOTENCY_HEADER] === undefined) return update(db);
  const out = await withIdempotency(
    db,
    { operatorId: key.operatorId, key: idempotencyKeyOf(req), scope: key.scope, body: req.body },
    async (tx) => ({ statusCode: 200, body: await update(tx) }),
  );
  if (out.replayed) void reply.header('idempotent-replayed', 'true');
  return out.body;
}
