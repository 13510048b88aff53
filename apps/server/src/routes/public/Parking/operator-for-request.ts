import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SPEC_MESSAGES } from '@parkit/contract';
import { primaryElseReplica } from '../../../db/unavailable.ts';
import { HttpError, notFound } from '../../../lib/http-error.ts';
import type { OperatorRecord } from '../../../zones/index.ts';

/**
 * Whose zones a public zone read shows: the signed-in member's operator (the spec's client_id), or
 * for a guest (no Authorization header) the default operator. A token that is sent but not valid
 * is a 401, as on member routes, so an expired session is renewed rather than silently shown
 * another city. Both are read once per process (OperatorCache): a member's on the primary (a member
 * just registered searches at once; a replica while the primary is away), the default one on the
 * replicas when there are some.
 */
export async function operatorForRequest(app: FastifyInstance, req: FastifyRequest): Promise<OperatorRecord> {
  const header = req.headers.authorization;
  if (header) {
    const claims = header.startsWith('Bearer ') ? await app.tokens.verify(header.slice(7).trim()) : null;
    if (!claims) throw new HttpError(401, SPEC_MESSAGES.unauthorized);
    const operator = await primaryElseReplica(app.db, app.reads, (db) => app.operators.ofMember(db, claims.memberId));
    if (!operator) throw notFound();
    return operator;
  }
  const operator = await app.operators.defaultOperator(app.reads);
  if (!operator) throw notFound();
  return operator;
}
