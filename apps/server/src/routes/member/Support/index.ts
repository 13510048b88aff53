import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import { MAX_ATTACHMENT_BYTES } from '@parkit/contract';
import type { AttachmentStore, HoursSetting } from '../../../support/index.ts';
import callBackRoutes from './callbacks.ts';
import chatRoutes from './chat.ts';
import consoleRoutes from '../../agent/Support/console.ts';
import { eventStreams } from '../../shared/Support/events.ts';
import hoursRoutes from '../../public/Support/hours.ts';

export interface SupportOptions {
  hours: HoursSetting;
  attachments: AttachmentStore;
}

/** /api/Support (issue 13), public part: the support hours the call-back form offers. */
export const supportPublicRoutes: FastifyPluginAsync<SupportOptions> = async (app, opts) => {
  await app.register(hoursRoutes, { hours: opts.hours });
};

/** /api/Support, members' part (inside the member scope): call backs, the chat and its live channel. */
export const supportMemberRoutes: FastifyPluginAsync<SupportOptions> = async (app, opts) => {
  // Multipart only here: one file under the key 'file' (spec section 7's upload helper).
  await app.register(multipart, { limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6 } });
  await app.register(callBackRoutes, { hours: opts.hours });
  await app.register(chatRoutes, { attachments: opts.attachments, streams: eventStreams(app) });
};

/** /api/Support/Console (inside the agent-only scope): every conversation and the call-back queue. */
export const supportConsoleRoutes: FastifyPluginAsync<SupportOptions> = async (app, opts) => {
  await app.register(consoleRoutes, { attachments: opts.attachments, streams: eventStreams(app) });
};
