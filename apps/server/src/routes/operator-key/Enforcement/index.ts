import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EnforcementAnswer, EnforcementQuery, ErrorResponse, HISTORY_MESSAGES as M } from '@parkit/contract';
import { HttpError } from '../../../lib/http-error.ts';
import {
  presentedPrefix,
  audit,
  checkAnswer,
  checkPlate,
  type AuditEntry,
  type CheckOutcome,
  normalisePlate,
} from '../../../enforcement/index.ts';

/** The limits the operator scope applies (routes/scopes.ts). */
export { BAD_KEY_LIMIT, KEY_LIMIT } from '../../scopes.ts';

/**
 * A refused check's audit row: every check is audited, refused ones too (bad input, a 400, is not:
 * it asked nothing). An answered check writes its own row with the answer (checkPlate).
 */
function entry(req: FastifyRequest, outcome: CheckOutcome): AuditEntry {
  const { row, presented } = req.operatorKey;
  const query = req.query as EnforcementQuery;
  return {
    keyId: row?.id ?? null,
    memberId: null,
    operatorId: row?.operatorId ?? null,
    keyPrefix: presentedPrefix(presented),
    clientAddress: req.ip,
    zoneNumber: query.zone,
    plate: normalisePlate(query.plate),
    plateState: query.state,
    outcome,
    paid: null,
    sessionId: null,
    address: '',
  };
}

/** /api/Enforcement: the officers' plate check, in the operator scope (an operator's API key). */
const enforcementRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Check',
    {
      schema: {
        tags: ['Enforcement'],
        summary:
          'Does a right (a paid session, a permit, a visitor day) cover this plate in this zone now? For the key’s operator’s zones only; every check is audited',
        querystring: EnforcementQuery,
        response: { 200: EnforcementAnswer, 404: ErrorResponse },
      },
      // The operator scope (routes/scopes.ts operatorKeyOnly) checks the key; its refusals are audited too.
      config: { operatorKeyRefused: (req, outcome) => audit(app.db, entry(req, outcome)) },
    },
    async (req) => {
      const key = req.operatorKey.row!;
      const zoneNumber = req.query.zone;
      const plate = normalisePlate(req.query.plate);
      // The answer and its audit row (with the key's last use) in one statement (check-repository.ts).
      const found = await checkPlate(app.db, {
        keyId: key.id,
        memberId: null,
        operatorId: key.operatorId,
        keyPrefix: presentedPrefix(req.operatorKey.presented),
        clientAddress: req.ip,
        zone: { number: zoneNumber },
        plate,
        plateState: req.query.state,
      });
      // Another operator's zone (or none) is not found: the key must not reveal it exists.
      if (!found.zoneFound) throw new HttpError(404, M.zoneNotFound, [{ field: 'zone', message: M.zoneNotFound }]);
      return checkAnswer(found, { zoneNumber, plate, plateState: req.query.state });
    },
  );
};

export default enforcementRoutes;
