import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChalkAnswer,
  ChalkQuery,
  ChalkRequest,
  ENFORCEMENT_MESSAGES,
  EnforcementAnswer,
  ErrorResponse,
  IdempotencyHeaders,
  MAX_RIGHTS_ZONES,
  OfficerCheckQuery,
  OPERATOR_CAN,
  OperatorParams,
  RightsDownload,
  RightsQuery,
} from '@parkit/contract';
import type { z } from 'zod';
import {
  chalkPlate,
  chalkPlateIn,
  checkAnswer,
  checkPlate,
  findChalk,
  normalisePlate,
  rightsOfZones,
} from '../../../enforcement/index.ts';
import { notFound } from '../../../lib/http-error.ts';
import { findById } from '../../../members/index.ts';
import { IDEMPOTENCY_HEADER, idempotencyKeyOf, withIdempotency } from '../../../wallet/index.ts';

type ChalkAnswerBody = z.infer<typeof ChalkAnswer>;

const tags = ['Operator enforcement'];

/**
 * The officer's page (operatorOnly scope, docs/enforcement.md): the online check of one plate, the
 * rights to park of some of the operator's zones, downloaded for checks with no signal, and
 * digital chalking. Officers, managers
 * and owners (OPERATOR_CAN.enforce); another operator's zone is 404.
 */
const operatorEnforcementRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:operatorId/Rights',
    {
      config: { operatorRoles: OPERATOR_CAN.enforce },
      schema: {
        tags,
        summary: `Every right to park now (paid sessions incl. Quick Park, permits, visitor days; grace included) in the zones named (comma-separated ids, at most ${MAX_RIGHTS_ZONES}), or in every zone of the operator`,
        params: OperatorParams,
        querystring: RightsQuery,
        response: { 200: RightsDownload, 404: ErrorResponse },
      },
    },
    async (req) => rightsOfZones(app.db, req.staff.operatorId, req.query.zones ?? null, new Date(), MAX_RIGHTS_ZONES),
  );

  app.get(
    '/:operatorId/Check',
    {
      config: { operatorRoles: OPERATOR_CAN.enforce },
      schema: {
        tags,
        summary:
          'Does a right (a paid session, a permit, a visitor day, an assigned right) cover this plate in this zone of the operator now? The officer’s online check, audited under the officer’s name',
        params: OperatorParams,
        querystring: OfficerCheckQuery,
        response: { 200: EnforcementAnswer, 404: ErrorResponse },
      },
    },
    async (req) => {
      const plate = normalisePlate(req.query.plate);
      // The answer and its audit row in one statement, as the key's check (check-repository.ts);
      // only the operator's own zones are looked at.
      const found = await checkPlate(app.db, {
        keyId: null,
        memberId: req.member.memberId,
        operatorId: req.staff.operatorId,
        keyPrefix: null,
        clientAddress: req.ip,
        zone: { id: req.query.zoneId },
        plate,
        plateState: req.query.state,
      });
      if (!found.zoneFound) throw notFound(ENFORCEMENT_MESSAGES.zoneNotFound);
      return checkAnswer(found, { zoneNumber: found.zoneNumber, plate, plateState: req.query.state });
    },
  );

  app.get(
    '/:operatorId/Chalks',
    {
      config: { operatorRoles: OPERATOR_CAN.enforce },
      schema: {
        tags,
        summary: "A plate's chalk in a zone (its first sighting in the last 24 hours) against the zone's maximum stay",
        params: OperatorParams,
        querystring: ChalkQuery,
        response: { 200: ChalkAnswer, 404: ErrorResponse },
      },
    },
    async (req) => ({
      Chalk: await findChalk(
        app.db,
        req.staff.operatorId,
        { zoneId: req.query.zoneId, plate: req.query.plate },
        new Date(),
      ),
    }),
  );

  app.post(
    '/:operatorId/Chalks',
    {
      config: { operatorRoles: OPERATOR_CAN.enforce },
      schema: {
        tags,
        summary:
          'Chalk a plate: record its first sighting in a zone (201), or answer the chalk already there (200). ObservedAt: the moment seen (a chalk recorded offline; at most a minute ahead, at most 24 hours ago). An Idempotency-Key header makes a resend answer the first chalk',
        params: OperatorParams,
        headers: IdempotencyHeaders,
        body: ChalkRequest,
        response: { 200: ChalkAnswer, 201: ChalkAnswer, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (req, reply) => {
      const operatorId = req.staff.operatorId;
      const actor = { id: req.member.memberId, name: (await findById(app.db, req.member.memberId))?.userName ?? '' };
      if (req.headers[IDEMPOTENCY_HEADER] === undefined) {
        const { chalk, created } = await chalkPlate(app.db, operatorId, actor, req.body, new Date());
        return reply.code(created ? 201 : 200).send({ Chalk: chalk });
      }
      // A chalk sent from the officer's offline queue, as a citation is (routes' Citations).
      const out = await withIdempotency<ChalkAnswerBody>(
        app.db,
        {
          memberId: req.member.memberId,
          key: idempotencyKeyOf(req),
          scope: `Operator/${operatorId}/Chalks`,
          body: req.body,
        },
        async (tx) => {
          const { chalk, created } = await chalkPlateIn(tx, operatorId, actor, req.body, new Date());
          return { statusCode: created ? 201 : 200, body: { Chalk: chalk } };
        },
      );
      if (out.replayed) void reply.header('idempotent-replayed', 'true');
      return reply.code(out.statusCode === 201 ? 201 : 200).send(out.body);
    },
  );
};

export default operatorEnforcementRoutes;
