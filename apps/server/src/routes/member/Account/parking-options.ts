import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, ParkingOptions, UpdateParkingOptionsRequest } from '@parkit/contract';
import * as options from '../../../members/index.ts';

const schemaBase = { tags: ['Account'], security: [{ bearer: [] }] };

/** Default Parking Options of the profile screen, saved per member (docs/product.md#placeholders-made-real). */
const parkingOptionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/ParkingOptions',
    {
      schema: {
        ...schemaBase,
        summary: 'The member’s default parking options (all off and a $20.00 cap until saved)',
        response: { 200: ParkingOptions },
      },
    },
    async (req) => options.get(app.db, req.member.memberId),
  );

  app.post(
    '/ParkingOptions',
    {
      schema: {
        ...schemaBase,
        summary: 'Save any of the options; the ones not sent keep their values',
        body: UpdateParkingOptionsRequest,
        response: { 200: ParkingOptions, 400: ErrorResponse },
      },
    },
    async (req) => options.save(app.db, req.member.memberId, req.body),
  );
};

export default parkingOptionsRoutes;
