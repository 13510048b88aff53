import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AttachmentParams,
  CallBackParams,
  ChatMessage,
  ChatMessageList,
  ChatMessagesQuery,
  CloseCallBackRequest,
  ConsoleCallBack,
  ConsoleCallBackList,
  ConsoleMe,
  ConversationList,
  ErrorResponse,
  MemberParams,
  MessageResponse,
  SendChatRequest,
  SUPPORT_MESSAGES as M,
} from '@parkit/contract';
import { HttpError, notFound } from '../../../lib/http-error.ts';
import { findById } from '../../../members/index.ts';
import * as support from '../../../support/index.ts';
import { agent, attachmentAnswer, sendAttachment } from '../../common/Support/common.ts';
import { eventStream } from '../../common/media-types.ts';
import type { EventStreams } from '../../common/Support/events.ts';

/**
 * The support console's API: agents only, every conversation and the call-back queue.
 * Members get 403 on every route here.
 */
const consoleRoutes: FastifyPluginAsyncZod<{ attachments: support.AttachmentStore; streams: EventStreams }> = async (
  app,
  { attachments, streams },
) => {
  // Authentication and the agent role come from the agent-only scope (routes/scopes.ts).
  const errors = { 404: ErrorResponse };

  app.get(
    '/Me',
    {
      schema: {
        ...agent,
        summary: 'The signed-in agent (403 for anyone else)',
        response: { 200: ConsoleMe, ...errors },
      },
    },
    async (req) => {
      const me = await findById(app.db, req.member.memberId);
      if (!me) throw notFound();
      return { MemberId: me.id, UserName: me.userName };
    },
  );

  app.get(
    '/Conversations',
    {
      schema: {
        ...agent,
        summary: 'Open conversations, newest activity first, with unread counts',
        response: { 200: ConversationList },
      },
    },
    async () => support.conversations(app.db),
  );

  app.get(
    '/Conversations/:memberId/Messages',
    {
      schema: {
        ...agent,
        summary: 'One conversation, oldest first',
        params: MemberParams,
        querystring: ChatMessagesQuery,
        response: { 200: ChatMessageList, ...errors },
      },
    },
    async (req) => {
      if (!(await support.conversationExists(app.db, req.params.memberId))) throw notFound(M.conversationNotFound);
      return support.list(app.db, req.params.memberId, req.query);
    },
  );

  app.post(
    '/Conversations/:memberId/Read',
    {
      schema: {
        ...agent,
        summary: 'Mark a conversation read',
        params: MemberParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (req) => {
      const memberId = req.params.memberId;
      if (!(await support.conversationExists(app.db, memberId))) throw notFound(M.conversationNotFound);
      await support.markRead(app.db, memberId);
      await app.supportBus.publish({ k: 'read', memberId });
      return { message: 'OK' };
    },
  );

  app.post(
    '/Conversations/:memberId/Send',
    {
      schema: {
        ...agent,
        summary:
          'Reply to a driver (live to the driver); a retry with the same ClientMessageId returns the first reply',
        params: MemberParams,
        body: SendChatRequest,
        response: { 200: ChatMessage, 201: ChatMessage, ...errors },
      },
    },
    async (req, reply) => {
      const memberId = req.params.memberId;
      if (!(await support.conversationExists(app.db, memberId))) throw notFound(M.conversationNotFound);
      const result = await support.send(
        app.db,
        memberId,
        { sender: 'agent', agentId: req.member.memberId },
        {
          text: req.body.Text,
          attachmentId: req.body.AttachmentId,
          clientMessageId: req.body.ClientMessageId,
        },
      );
      if (!result.ok) throw notFound(M.attachmentNotFound);
      if (result.created) await app.supportBus.publish({ k: 'message', memberId, messageId: result.message.MessageId });
      return reply.code(result.created ? 201 : 200).send(result.message);
    },
  );

  app.get(
    '/CallBacks',
    {
      schema: {
        ...agent,
        summary: 'The call-back queue: open requests by scheduled time, then recently closed',
        response: { 200: ConsoleCallBackList },
      },
    },
    async () => support.queue(app.db),
  );

  app.post(
    '/CallBacks/:callBackId/Close',
    {
      schema: {
        ...agent,
        summary: 'Close a call-back request as called or no answer (the driver sees it)',
        params: CallBackParams,
        body: CloseCallBackRequest,
        response: { 200: ConsoleCallBack.omit({ UserName: true, Name: true }), 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      const closed = await support.close(app.db, req.params.callBackId, req.body.Status, req.member.memberId);
      if (closed === null) throw notFound(M.callBackNotFound);
      if (closed === 'closed') throw new HttpError(409, M.callBackClosed);
      const full = await support.findForConsole(app.db, closed.CallBackId);
      if (!full) throw notFound(M.callBackNotFound);
      await app.supportBus.publish({ k: 'callback', memberId: full.MemberId, callBackId: full.CallBackId });
      return full;
    },
  );

  app.get(
    '/Attachment/:attachmentId',
    {
      schema: {
        ...agent,
        summary: 'Download any conversation’s attachment',
        params: AttachmentParams,
        response: { 200: attachmentAnswer, ...errors },
      },
    },
    async (req, reply) => {
      const att = await attachments.find(app.db, req.params.attachmentId, null);
      if (!att) throw notFound(M.attachmentNotFound);
      return sendAttachment(reply, attachments, att);
    },
  );

  app.get(
    '/Events',
    {
      schema: {
        ...agent,
        summary: 'Live events of every conversation and the call-back queue (text/event-stream)',
        response: { 200: eventStream('`data: {json}` events: ready, message, read, callback') },
      },
    },
    async (req, reply) => {
      streams.open(req, reply, async (e) => {
        if (e.k === 'message') {
          const message = await support.findMessage(app.db, e.messageId);
          return message && { type: 'message', message };
        }
        if (e.k === 'callback') {
          const callBack = await support.findForConsole(app.db, e.callBackId);
          return callBack && { type: 'callback', callBack };
        }
        if (e.k === 'read') return { type: 'read', memberId: e.memberId };
        return null;
      });
    },
  );
};

export default consoleRoutes;
