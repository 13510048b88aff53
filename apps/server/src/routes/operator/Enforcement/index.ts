import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENFORCEMENT_KEY_HEADER, EnforcementAnswer, EnforcementQuery, ErrorResponse, HISTORY_MESSAGES as M, SPEC_MESSAGES } from '@parkit/contract';
import { HttpError, tooManyRequests } from '../../../lib/http-error.ts';
import { hitWindow, type Limit } from '../../../infra/rate-limits/rate-limit-repository.ts';
import { identifyKey, presentedPrefix, audit, checkPlate, type CheckOutcome, normalisePlate } from '../../../enforcement/index.ts';

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
      const presented = typeof header === 'string' ? header : undefined;
      const row = await identifyKey(app.db, presented);
      const key = row && !row.revoked ? row : null;
      const zoneNumber = req.query.zone;
      const plate = normalisePlate(req.query.plate);
      // Every check is audited, refused ones too (bad input, a 400, is not: it asked nothing).
      const entry = (outcome: CheckOutcome, answer?: { paid: boolean; sessionId: number | null; address: string }) =>
        audit(app.db, {
          keyId: row?.id ?? null,
          operatorId: row?.operatorId ?? null,
          keyPrefix: presentedPrefix(presented),
          clientAddress: req.ip,
          zoneNumber,
          plate,
          plateState: req.query.state,
          outcome,
          paid: answer?.paid ?? null,
          sessionId: answer?.sessionId ?? null,
          address: answer?.address ?? '',
        });
      // A flood is audited a window at a time: each 401 (at most BAD_KEY_LIMIT per address per window)
      // and the window's first 429; the refusals after it are only counted, in rate_limits.
      const refuseOverLimit = async (limit: Limit, bucket: string) => {
        const limited = await hitWindow(app.db, limit, bucket);
        if (limited.wait > 0) {
          if (limited.firstRefusal) await entry('rate_limited');
          throw tooManyRequests(M.tooManyChecks, limited.wait);
        }
      };
      if (!key) {
        await refuseOverLimit(BAD_KEY_LIMIT, req.ip);
        await entry('unauthorized');
        throw new HttpError(401, SPEC_MESSAGES.unauthorized);
      }
      await refuseOverLimit(KEY_LIMIT, String(key.id));

      const found = await checkPlate(app.db, key.operatorId, zoneNumber, plate, req.query.state);
      const paid = found.sessionId !== null;
      await entry(!found.zoneFound ? 'zone_not_found' : paid ? 'paid' : 'not_paid', { paid, sessionId: found.sessionId, address: found.address });
      void reply.header('cache-control', 'no-store');
      // Another operator's zone (or none) is not found: the key must not reveal it exists.
      if (!found.zoneFound) throw new HttpError(404, M.zoneNotFound, [{ field: 'zone', message: M.zoneNotFound }]);
      return { Paid: paid, EndsAt: found.endsAt?.toISOString() ?? null, ZoneNumber: zoneNumber, PlateNumber: plate, PlateState: req.query.state };
    },
  );
};

export default enforcementRoutes;
