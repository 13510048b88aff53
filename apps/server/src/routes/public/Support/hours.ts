import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SupportHours } from '@parkit/contract';
import { hoursView, type HoursSetting } from '../../../support/index.ts';

/** GET /api/Support/Hours: public, the SUPPORT_HOURS setting the time picker offers slots from. */
const hoursRoutes: FastifyPluginAsyncZod<{ hours: HoursSetting }> = async (app, { hours }) => {
  app.get(
    '/Hours',
    {
      schema: {
        tags: ['Support'],
        summary: 'Support hours: the slots a call back can be booked in',
        response: { 200: SupportHours },
      },
    },
    async () => hoursView(hours),
  );
};

export default hoursRoutes;
