import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StateList } from '@parkit/contract';
import { REFERENCE_CACHE } from '../../../plugins/app/vehicles/reference-repository.ts';

/** /api/Core: lists shared by several screens (vehicle plate state, profile address state). */
const coreRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/States',
    {
      schema: {
        tags: ['Core'],
        summary: 'The 50 states and DC as two-letter codes (public, cacheable)',
        response: { 200: StateList },
      },
    },
    async (_req, reply) => {
      void reply.header('cache-control', REFERENCE_CACHE);
      return (await app.referenceLists.get(app.db)).states;
    },
  );
};

export default coreRoutes;
