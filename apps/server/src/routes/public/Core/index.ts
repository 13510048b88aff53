import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StateList } from '@parkit/contract';
import { referenceListRoute } from '../reference-route.ts';

/** /api/Core: lists shared by several screens (vehicle plate state, profile address state). */
const coreRoutes: FastifyPluginAsyncZod = async (app) => {
  referenceListRoute(app, {
    path: '/States',
    tag: 'Core',
    summary: 'The 50 states and DC as two-letter codes (public, cacheable)',
    response: StateList,
    list: 'states',
  });
};

export default coreRoutes;
