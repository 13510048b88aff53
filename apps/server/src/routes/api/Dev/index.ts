import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OutboxMessage } from '@parkit/contract';
import * as outbox from '../../../plugins/app/auth/outbox-repository.ts';
import devOperatorKeyRoutes from './operator-key.ts';

/** Development only (never registered in production): the messages that would have been sent. */
const devRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Outbox',
    {
      schema: {
        tags: ['Dev'],
        summary: 'Messages the app would have sent (development only)',
        querystring: z.object({
          to: z.string().regex(/^\d{1,15}$/).optional(),
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
