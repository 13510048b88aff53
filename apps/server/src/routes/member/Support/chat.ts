import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Attachment,
  AttachmentParams,
  ChatMessage,
  ChatMessageList,
  ChatMessagesQuery,
  ErrorResponse,
  MAX_ATTACHMENT_BYTES,
  SendChatRequest,
  SUPPORT_MESSAGES as M,
} from '@parkit/contract';
import { badRequest, HttpError, notFound } from '../../../lib/http-error.ts';
import * as support from '../../../support/index.ts';
import { eventStream } from '../../common/media-types.ts';
import { attachmentAnswer, limitMember, member, sendAttachment, SUPPORT_LIMITS } from '../../common/Support/common.ts';
import type { EventStreams } from '../../common/Support/events.ts';

/** Reads the one file of a multipart upload, whole, or refuses it clearly. */
export async function readUpload(req: FastifyRequest): Promise<{ bytes: Buffer; name: string }> {
  if (!req.isMultipart()) throw badRequest('file', M.fileRequired);
  let part;
  try {
    part = await req.file();
  } catch {
    throw badRequest('file', M.fileRequired);
  }
  if (!part || part.fieldname !== 'file') throw badRequest('file', M.fileRequired);
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new HttpError(413, M.fileTooLarge, [{ field: 'file', message: M.fileTooLarge }]);
    throw badRequest('file', M.fileRequired);
  }
  if (bytes.length === 0) throw badRequest('file', M.fileRequired);
  return { bytes, name: part.filename };
}

const chatRoutes: FastifyPluginAsyncZod<{ attachments: support.AttachmentStore; streams: EventStreams }> = async (
  app,
  { attachments, streams },
) => {
  app.get(
    '/Chat/Messages',
    {
      schema: {
        ...member,
        summary: 'The member’s conversation with support, oldest first (50 before `before`, or those after `after`)',
        querystring: ChatMessagesQuery,
        response: { 200: ChatMessageList },
      },
    },
    async (req) => {
      const memberId = req.member.memberId;
      // The first visit opens the conversation with the server's greeting.
      // One transaction: a visit racing this one waits for the conversation and its greeting together.
      const greetingId = await app.db.transaction((tx) => support.ensureConversation(tx, memberId));
      if (greetingId !== null) await app.supportBus.publish({ k: 'message', memberId, messageId: greetingId });
      return support.list(app.db, memberId, req.query);
    },
  );

  app.post(
    '/Chat/Send',
    {
      schema: {
        ...member,
        summary: 'Send a message to support; a retry with the same ClientMessageId returns the first message',
        body: SendChatRequest,
        response: { 200: ChatMessage, 201: ChatMessage, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      await limitMember(app, SUPPORT_LIMITS.message, memberId);
      const result = await support.send(
        app.db,
        memberId,
        { sender: 'user' },
        {
          text: req.body.Text,
          attachmentId: req.body.AttachmentId,
          clientMessageId: req.body.ClientMessageId,
        },
      );
      if (!result.ok) throw notFound(M.attachmentNotFound);
      if (result.greetingId !== null)
        await app.supportBus.publish({ k: 'message', memberId, messageId: result.greetingId });
      if (result.created) await app.supportBus.publish({ k: 'message', memberId, messageId: result.message.MessageId });
      return reply.code(result.created ? 201 : 200).send(result.message);
    },
  );

  app.post(
    '/Chat/Attachment',
    {
      bodyLimit: MAX_ATTACHMENT_BYTES + 64 * 1024,
      schema: {
        ...member,
        summary:
          'Upload an image (PNG, JPEG, GIF, WebP) or a PDF of at most 5 MB under the key "file"; checked by its content',
        consumes: ['multipart/form-data'],
        upload: { field: 'file', description: 'The image or PDF' },
        response: { 201: Attachment, 413: ErrorResponse, 415: ErrorResponse },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      await limitMember(app, SUPPORT_LIMITS.attachment, memberId);
      const { bytes, name } = await readUpload(req);
      const saved = await attachments.save(app.db, memberId, memberId, bytes, name);
      if (!saved) throw new HttpError(415, M.fileType, [{ field: 'file', message: M.fileType }]);
      return reply.code(201).send(saved);
    },
  );

  app.get(
    '/Chat/Attachment/:attachmentId',
    {
      schema: {
        ...member,
        summary: 'Download an attachment of the member’s own conversation',
        params: AttachmentParams,
        response: { 200: attachmentAnswer, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const att = await attachments.find(app.db, req.params.attachmentId, req.member.memberId);
      if (!att) throw notFound(M.attachmentNotFound);
      return sendAttachment(reply, attachments, att);
    },
  );

  app.get(
    '/Chat/Events',
    {
      schema: {
        ...member,
        summary:
          'Live events of the member’s conversation and call backs (text/event-stream); `after` replays missed messages',
        querystring: z.object({ after: ChatMessagesQuery.shape.after }),
        response: { 200: eventStream('`data: {json}` events: ready, message, callback') },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      const after = req.query.after;
      const missed = after !== undefined ? await support.list(app.db, memberId, { after, limit: 100 }) : [];
      streams.open(
        req,
        reply,
        async (e) => {
          if (e.k === 'message' && e.memberId === memberId) {
            const message = await support.findMessage(app.db, e.messageId);
            return message && { type: 'message', message };
          }
          if (e.k === 'callback' && e.memberId === memberId) {
            const callBack = await support.findForConsole(app.db, e.callBackId);
            return callBack && { type: 'callback', callBack };
          }
          return null;
        },
        missed.map((message) => ({ type: 'message', message })),
      );
    },
  );
};

export default chatRoutes;
