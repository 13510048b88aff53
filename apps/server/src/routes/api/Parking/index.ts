import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, Operator } from '@parkit/contract';
import { notFound } from '../../../lib/http-error.ts';
import { operatorOfMember, toOperatorView } from '../../../plugins/app/zones/operator-repository.ts';
import sessionRoutes from './sessions.ts';
import zoneRoutes from './zones.ts';
import historyRoutes from './history.ts';

/** /api/Parking: Find Parking (issue 4). Members only: zones are those of the member's operator. */
const parkingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Operator',
    {
      schema: {
        tags: ['Parking'],
        summary: 'The member’s operator (client_id) and its city centre, where Find Parking starts without a position',
        response: { 200: Operator, 404: ErrorResponse },
      },
    },
    async (req) => {
      const operator = await operatorOfMember(app.db, req.member.memberId);
      if (!operator) throw notFound();
      return toOperatorView(operator);
    },
  );
  await app.register(zoneRoutes, { prefix: '/Zones' });
  await app.register(sessionRoutes);
  await app.register(historyRoutes);
};

export default parkingRoutes;
