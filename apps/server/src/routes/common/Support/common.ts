import type { FastifyInstance, FastifyReply } from 'fastify';
import { ATTACHMENT_TYPES, MESSAGES, SUPPORT_MESSAGES, type Attachment } from '@parkit/contract';
import { tooManyRequests } from '../../../lib/http-error.ts';
import { hit } from '../../../infra/rate-limits/rate-limit-repository.ts';
import type { AttachmentStore, HoursSetting } from '../../../support/index.ts';
import { mediaAnswer } from '../media-types.ts';

/** What the Support areas are given (app.ts): the hours call backs are offered in, the attachments' store. */
export interface SupportOptions {
  hours: HoursSetting;
  attachments: AttachmentStore;
}

export const member = { tags: ['Support'] };
export const agent = { tags: ['Support console'] };

/** Per-member limits of support's writes (messages are rate-limited). */
export const SUPPORT_LIMITS = {
  message: { bucket: 'support:message', limit: 30, windowSeconds: 60 },
  attachment: { bucket: 'support:attachment', limit: 20, windowSeconds: 60 * 60 },
  callBack: { bucket: 'support:callback', limit: 10, windowSeconds: 60 * 60 },
} as const;

export async function limitMember(
  app: FastifyInstance,
  limit: (typeof SUPPORT_LIMITS)[keyof typeof SUPPORT_LIMITS],
  memberId: number,
) {
  const wait = await hit(app.db, limit, `member:${memberId}`);
  if (wait > 0)
    throw tooManyRequests(
      limit === SUPPORT_LIMITS.message ? SUPPORT_MESSAGES.tooManyMessages : MESSAGES.tooManyAttempts,
      wait,
    );
}

/** A stored attachment, in the type its content was checked to be (images inline, PDFs as attachments). */
export const attachmentAnswer = mediaAnswer(
  'The file, in the type its content was checked to be',
  ATTACHMENT_TYPES,
  'binary',
);

/** Sends a stored attachment with headers that keep the browser from running it. */
export function sendAttachment(reply: FastifyReply, store: AttachmentStore, att: Attachment) {
  const inline = att.ContentType.startsWith('image/');
  return reply
    .header('content-type', att.ContentType)
    .header('content-length', String(att.Size))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header(
      'content-disposition',
      `${inline ? 'inline' : 'attachment'}; filename="${att.FileName.replace(/[^\w.-]/g, '_')}"`,
    )
    .send(store.open(att.AttachmentId));
}
