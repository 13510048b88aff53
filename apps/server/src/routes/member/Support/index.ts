import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import { MAX_ATTACHMENT_BYTES } from '@parkit/contract';
import type { SupportOptions } from '../../common/Support/common.ts';
import { eventStreams } from '../../common/Support/events.ts';
import callBackRoutes from './callbacks.ts';
import chatRoutes from './chat.ts';

/**
 * /api/Support, members' part: call backs, the chat and its live channel. The support
 * hours are public (public/Support/hours.ts), the console is the agents' (agent/Support).
 */
const supportMemberRoutes: FastifyPluginAsync<SupportOptions> = async (app, opts) => {
  // Multipart only here: one file under the key 'file' (the upload helper of docs/product.md#api-calls).
  await app.register(multipart, {
    limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
  });
  await app.register(callBackRoutes, { hours: opts.hours });
  await app.register(chatRoutes, { attachments: opts.attachments, streams: eventStreams(app) });
};

export default supportMemberRoutes;
