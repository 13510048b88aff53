import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorResponse,
  VehicleColorItem,
  VehicleMakeItem,
  VehicleModelItem,
  VehicleModelsParams,
} from '@parkit/contract';
import { notFound } from '../../../lib/http-error.ts';
import { REFERENCE_CACHE } from '../../../vehicles/index.ts';
import { referenceListRoute } from '../reference-route.ts';

/** The lists a vehicle form picks from (routes/public/reference-route.ts). */
const referenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const tag = 'Vehicle';
  referenceListRoute(app, {
    path: '/Makes',
    tag,
    summary: 'Vehicle makes, by name (public, cacheable)',
    response: z.array(VehicleMakeItem),
    list: 'makes',
  });
  referenceListRoute(app, {
    path: '/Colors',
    tag,
    summary: 'Vehicle colors, the common ones first (public, cacheable)',
    response: z.array(VehicleColorItem),
    list: 'colors',
  });

  app.get(
    '/Models/:makeId',
    {
      schema: {
        tags: [tag],
        summary: 'The models of one make (makeId is its PVID), by name (public, cacheable)',
        params: VehicleModelsParams,
        response: { 200: z.array(VehicleModelItem), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const models = (await app.referenceLists.get(app.db)).models.get(req.params.makeId);
      if (!models) throw notFound();
      void reply.header('cache-control', REFERENCE_CACHE);
      return models;
    },
  );
};

export default referenceRoutes;
