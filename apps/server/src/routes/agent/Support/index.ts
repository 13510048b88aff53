import type { FastifyPluginAsync } from 'fastify';
import type { SupportOptions } from '../../shared/Support/common.ts';
import { eventStreams } from '../../shared/Support/events.ts';
import consoleRoutes from './console.ts';

/** /api/Support/Console (inside the agent-only scope): every conversation and the call-back queue. */
const supportConsoleRoutes: FastifyPluginAsync<SupportOptions> = async (app, opts) => {
  await app.register(consoleRoutes, { attachments: opts.attachments, streams: eventStreams(app) });
};

export default supportConsoleRoutes;
