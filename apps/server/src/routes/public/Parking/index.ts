import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, Operator, ProofKeySet } from '@parkit/contract';
import { toOperatorView } from '../../../zones/index.ts';
import { operatorForRequest } from './operator-for-request.ts';
import zoneRoutes from './zones.ts';

/**
 * /api/Parking, the public part: Find Parking's reads, open to guests. A
 * member sees the member's operator, a guest the default one. Sessions are in sessions.ts (members)
 * and guest.ts (Quick Park).
 */
const parkingBrowseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Operator',
    {
      schema: {
        tags: ['Parking'],
        summary:
          'The operator whose zones are shown (the member’s client_id, or the default one for a guest) and its city centre',
        response: { 200: Operator, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => toOperatorView(await operatorForRequest(app, req)),
  );
  app.get(
    '/ProofKeys',
    {
      schema: {
        tags: ['Parking'],
        summary:
          'The public keys (a JWK Set, Ed25519) that verify a session’s proof of payment offline; a token names its key by kid (docs/proof-of-payment.md)',
        response: { 200: ProofKeySet },
      },
    },
    async (_req, reply) => {
      // Officers' devices fetch the set now and then and keep it; a rotated key comes with a new kid.
      void reply.header('cache-control', 'public, max-age=3600');
      return ProofKeySet.parse(app.parkingProof.keySet());
    },
  );
  await app.register(zoneRoutes, { prefix: '/Zones' });
};

export default parkingBrowseRoutes;
