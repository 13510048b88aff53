import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { REFERENCE_CACHE } from '../../vehicles/index.ts';

/**
 * A public, cacheable reference list (vehicle makes and colors, states), read from memory
 * (ReferenceCache: the lists change only by migration): the one shape of these GET routes.
 */
export function referenceListRoute(
  app: FastifyInstance,
  route: { path: string; tag: string; summary: string; response: z.ZodType; list: 'makes' | 'colors' | 'states' },
) {
  app.get(
    route.path,
    { schema: { tags: [route.tag], summary: route.summary, response: { 200: route.response } } },
    async (_req, reply) => {
      void reply.header('cache-control', REFERENCE_CACHE);
      return (await app.referenceLists.get(app.db))[route.list];
    },
  );
}
