import type { FastifyPluginAsync } from 'fastify';
import type { SupportOptions } from '../../common/Support/common.ts';
import { eventStreams } from '../../common/Support/events.ts';
import consoleRoutes from './console.ts';

/** /api/Support/Console (inside the agent-only scope): every conversation and the call-back queue. */
const supportConsoleRoutes: FastifyPluginAsync<SupportOptions> = async (app, opts) => {
  await app.register(consoleRoutes, { attachments: opts.attachments, streams: eventStreams(app) });
};

export default supportConsoleRoutes;
