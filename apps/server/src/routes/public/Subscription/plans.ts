import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PlansResponse } from '@parkit/contract';
import { listPlans, toPlan } from '../../../wallet/index.ts';

/** GET /api/Subscription/Plans, public: every plan from the database with what it changes. */
const planRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Plans',
    {
      schema: {
        tags: ['Subscription'],
        security: [],
        summary: 'Every plan with its price and what it changes',
        response: { 200: PlansResponse },
      },
    },
    async () => (await listPlans(app.db)).map(toPlan),
  );
};

export default planRoutes;
