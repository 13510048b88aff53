import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, SUPPORT_MESSAGES } from '@parkit/contract';
import { tooManyRequests } from '../../../lib/http-error.ts';
import { hit } from '../../../infra/rate-limits/rate-limit-repository.ts';

export const member = { tags: ['Support'] };
export const agent = { tags: ['Support console'] };

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

/** Personal answers are never cached (DESIGN.md section 4). */
export const noStore = async (_req: FastifyRequest, reply: FastifyReply) => {
  void reply.header('cache-control', 'no-store');
};
