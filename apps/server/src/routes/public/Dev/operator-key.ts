import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse, Id } from '@parkit/contract';
import { notFound } from '../../../lib/http-error.ts';
import { createKey } from '../../../enforcement/index.ts';
import { defaultOperatorId, operatorById } from '../../../zones/index.ts';

/**
 * Development only (never registered in production): an operator key for trying /enforcement on
 * the local demo, where `npm run operator:key` cannot open the embedded database the server holds.
 */
const devOperatorKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/OperatorKey',
    {
      schema: {
        tags: ['Dev'],
        summary: 'A new enforcement API key for an operator, shown once (development only)',
        body: z.object({ ClientId: Id.optional() }),
        response: { 201: z.object({ Key: z.string(), ClientId: z.number().int() }), 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const operator = await operatorById(app.db, req.body.ClientId ?? (await defaultOperatorId(app.db)));
      if (!operator) throw notFound();
      const created = await createKey(app.db, operator.id, 'development');
      return reply.code(201).send({ Key: created.key, ClientId: operator.id });
    },
  );
};

export default devOperatorKeyRoutes;
