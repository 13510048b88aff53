import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import { MAX_ATTACHMENT_BYTES } from '@parkit/contract';
import type { AttachmentStore } from '../../../plugins/app/support/attachment-store.ts';
import type { HoursSetting } from '../../../plugins/app/support/support-hours.ts';
import callBackRoutes from './callbacks.ts';
import chatRoutes from './chat.ts';
import consoleRoutes from './console.ts';
import { eventStreams } from './events.ts';

export interface SupportOptions {
  hours: HoursSetting;
  attachments: AttachmentStore;
}

/** /api/Support (issue 13): call backs, the chat, its live channel and the agents' console. */
const supportArea: FastifyPluginAsync<SupportOptions> = async (app, opts) => {
  // Multipart only here: one file under the key 'file' (spec section 7's upload helper).
  await app.register(multipart, { limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6 } });
  const streams = eventStreams(app);
  await app.register(callBackRoutes, { hours: opts.hours });
  await app.register(chatRoutes, { attachments: opts.attachments, streams });
  await app.register(consoleRoutes, { prefix: '/Console', attachments: opts.attachments, streams });
};

export default supportArea;
