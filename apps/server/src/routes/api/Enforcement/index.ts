import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENFORCEMENT_KEY_HEADER, EnforcementAnswer, EnforcementQuery, ErrorResponse, HISTORY_MESSAGES as M, SPEC_MESSAGES } from '@parkit/contract';
import { HttpError, tooManyRequests } from '../../../lib/http-error.ts';
import { hit } from '../../../plugins/app/auth/rate-limit-repository.ts';
import { verifyKey } from '../../../plugins/app/enforcement/api-key-repository.ts';
import { audit, checkPlate } from '../../../plugins/app/enforcement/check-repository.ts';
import { normalisePlate } from '../../../plugins/app/enforcement/plate.ts';

/** An officer's phone checks a plate every few seconds at most; a script that scrapes does not. */
export const KEY_LIMIT = { bucket: 'enforcement-key', limit: 60, windowSeconds: 60 };
/** Guessing keys from one address. */
export const BAD_KEY_LIMIT = { bucket: 'enforcement-bad-key', limit: 20, windowSeconds: 600 };

/** /api/Enforcement (issue 12): the officers' plate check, with an operator's API key. */
const enforcementRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Check',
    {
      schema: {
        tags: ['Enforcement'],
        summary: 'Has this plate paid in this zone now? For the key’s operator’s zones only; every check is audited',
        security: [{ operatorKey: [] }],
        querystring: EnforcementQuery,
        response: { 200: EnforcementAnswer, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const header = req.headers[ENFORCEMENT_KEY_HEADER];
      const key = await verifyKey(app.db, typeof header === 'string' ? header : undefined);
      if (!key) {
        const wait = await hit(app.db, BAD_KEY_LIMIT, req.ip);
        if (wait > 0) throw tooManyRequests(M.tooManyChecks, wait);
        throw new HttpError(401, SPEC_MESSAGES.unauthorized);
      }
      const wait = await hit(app.db, KEY_LIMIT, String(key.id));
      if (wait > 0) throw tooManyRequests(M.tooManyChecks, wait);

      const zoneNumber = req.query.zone;
      const plate = normalisePlate(req.query.plate);
      const found = await checkPlate(app.db, key.operatorId, zoneNumber, plate, req.query.state);
      const paid = found.sessionId !== null;
      await audit(app.db, {
        keyId: key.id,
        operatorId: key.operatorId,
        zoneNumber,
        plate,
        plateState: req.query.state,
        paid,
        sessionId: found.sessionId,
        address: found.address,
      });
      void reply.header('cache-control', 'no-store');
      // Another operator's zone (or none) is not found: the key must not reveal it exists.
      if (!found.zoneFound) throw new HttpError(404, M.zoneNotFound, [{ field: 'zone', message: M.zoneNotFound }]);
      return { Paid: paid, EndsAt: found.endsAt?.toISOString() ?? null, ZoneNumber: zoneNumber, PlateNumber: plate, PlateState: req.query.state };
    },
  );
};

export default enforcementRoutes;
