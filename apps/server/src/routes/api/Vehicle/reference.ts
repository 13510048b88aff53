import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse, VehicleColorItem, VehicleMakeItem, VehicleModelItem, VehicleModelsParams } from '@parkit/contract';
import { notFound } from '../../../lib/http-error.ts';
import { REFERENCE_CACHE } from '../../../plugins/app/vehicles/reference-repository.ts';

/** The lists a vehicle form picks from, read from memory (ReferenceCache: they change only by migration). */
const referenceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Makes',
    {
      schema: {
        tags: ['Vehicle'],
        summary: 'Vehicle makes, by name (public, cacheable)',
        response: { 200: z.array(VehicleMakeItem) },
      },
    },
    async (_req, reply) => {
      void reply.header('cache-control', REFERENCE_CACHE);
      return (await app.referenceLists.get(app.db)).makes;
    },
  );

  app.get(
    '/Colors',
    {
      schema: {
        tags: ['Vehicle'],
        summary: 'Vehicle colors, the common ones first (public, cacheable)',
        response: { 200: z.array(VehicleColorItem) },
      },
    },
    async (_req, reply) => {
      void reply.header('cache-control', REFERENCE_CACHE);
      return (await app.referenceLists.get(app.db)).colors;
    },
  );

  app.get(
    '/Models/:makeId',
    {
      schema: {
        tags: ['Vehicle'],
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
