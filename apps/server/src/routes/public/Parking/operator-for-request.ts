import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SPEC_MESSAGES } from '@parkit/contract';
import { HttpError, notFound } from '../../../lib/http-error.ts';
import type { OperatorRecord } from '../../../zones/index.ts';

/**
 * Whose zones a public zone read shows: the signed-in member's operator (the spec's client_id), or
 * for a guest (no Authorization header) the default operator. A token that is sent but not valid
 * is a 401, as on member routes, so an expired session is renewed rather than silently shown
 * another city. Both are read once per process (OperatorCache).
 */
export async function operatorForRequest(app: FastifyInstance, req: FastifyRequest): Promise<OperatorRecord> {
  const header = req.headers.authorization;
  if (header) {
    const claims = header.startsWith('Bearer ') ? await app.tokens.verify(header.slice(7).trim()) : null;
    if (!claims) throw new HttpError(401, SPEC_MESSAGES.unauthorized);
    const operator = await app.operators.ofMember(app.db, claims.memberId);
    if (!operator) throw notFound();
    return operator;
  }
  const operator = await app.operators.defaultOperator(app.db);
  if (!operator) throw notFound();
  return operator;
}
