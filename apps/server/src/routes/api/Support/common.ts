import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorResponse, MESSAGES, SUPPORT_MESSAGES } from '@parkit/contract';
import { HttpError, tooManyRequests } from '../../../lib/http-error.ts';
import { hit } from '../../../plugins/app/auth/rate-limit-repository.ts';
import { isAgent } from '../../../plugins/app/support/agent-repository.ts';

export const member = { security: [{ bearer: [] }], tags: ['Support'] };
export const agent = { security: [{ bearer: [] }], tags: ['Support console'] };
export const refused = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse };

/** Per-member limits of support's writes (issue 13: messages are rate-limited). */
export const SUPPORT_LIMITS = {
  message: { bucket: 'support:message', limit: 30, windowSeconds: 60 },
  attachment: { bucket: 'support:attachment', limit: 20, windowSeconds: 60 * 60 },
  callBack: { bucket: 'support:callback', limit: 10, windowSeconds: 60 * 60 },
} as const;

export async function limitMember(app: FastifyInstance, limit: (typeof SUPPORT_LIMITS)[keyof typeof SUPPORT_LIMITS], memberId: number) {
  const wait = await hit(app.db, limit, `member:${memberId}`);
  if (wait > 0) throw tooManyRequests(limit === SUPPORT_LIMITS.message ? SUPPORT_MESSAGES.tooManyMessages : MESSAGES.tooManyAttempts, wait);
}

/**
 * The agent-only scope: a signed-in member who is a support agent; any other member gets 403.
 * Checked against the database on every request, so removing an agent takes effect at once.
 */
export function requireAgent(app: FastifyInstance) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    if (!(await isAgent(app.db, req.member.memberId))) throw new HttpError(403, SUPPORT_MESSAGES.agentsOnly);
  };
}

/** Personal answers are never cached (DESIGN.md section 4). */
export const noStore = async (_req: FastifyRequest, reply: FastifyReply) => {
  void reply.header('cache-control', 'no-store');
};
