import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OutboxMessage } from '@parkit/contract';
import * as outbox from '../../../infra/outbox-repository.ts';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../lib/http-error.ts';
import devOperatorKeyRoutes from './operator-key.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * The development routes answer only a client on this machine that came straight in: a request
 * from another address, or one a proxy forwarded (X-Forwarded-For, Forwarded), gets the 404 of a
 * route that does not exist, even if the loopback server sits behind a proxy.
 */
export function localOnly(app: FastifyInstance) {
  app.addHook('onRequest', async (req) => {
    const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
    if (forwarded || !LOOPBACK.test(req.socket.remoteAddress ?? '')) throw notFound();
  });
}

/** Development only (never registered in production): the messages that would have been sent. */
const devRoutes: FastifyPluginAsyncZod = async (app) => {
  localOnly(app);
  app.get(
    '/Outbox',
    {
      schema: {
        tags: ['Dev'],
        summary: 'Messages the app would have sent (development only)',
        querystring: z.object({
          // A phone (digits) or an e-mail address (an operator's invitation).
          to: z
            .string()
            .max(254)
            .regex(/^(\d{1,15}|[^\s@]+@[^\s@]+)$/)
            .optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
        }),
        response: { 200: z.array(OutboxMessage) },
      },
    },
    async (req) => {
      const rows = await outbox.latest(app.db, req.query);
      return rows.map((r) => ({
        Id: r.id,
        Channel: r.channel === 'email' ? ('email' as const) : ('sms' as const),
        To: r.recipient,
        Body: r.body,
        CreatedAt: r.createdAt.toISOString(),
      }));
    },
  );
  await app.register(devOperatorKeyRoutes);
};

export default devRoutes;
