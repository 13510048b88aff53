import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  OPERATOR_CAN,
  OperatorParams,
  OperatorSessionDetail,
  OperatorSessionPage,
  OperatorSessionParams,
  OperatorSessionQuery,
  RefundRequest,
  RefundResponse,
} from '@parkit/contract';
import { findById } from '../../../members/index.ts';
import * as parking from '../../../parking/index.ts';
import { idempotencyKeyOf } from '../../../wallet/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';

const tags = ['Operator console'];

/**
 * The sessions of an operator's zones in the console (operatorOnly scope): every role finds and
 * reads them (plates masked unless the operator opted in); owners and managers
 * (OPERATOR_CAN.refunds) refund one wholly or partly with a reason, with an Idempotency-Key.
 */
const operatorSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:operatorId/Sessions',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "The sessions of the operator's zones, newest first: by zone, the days they started, the plate",
        params: OperatorParams,
        querystring: OperatorSessionQuery,
        response: { 200: OperatorSessionPage },
      },
    },
    async (req) => parking.listOperatorSessions(app.db, req.staff.operatorId, req.query),
  );

  app.get(
    '/:operatorId/Sessions/:sessionId',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "One session of the operator's zones: what was paid and refunded, and the console's refunds",
        params: OperatorSessionParams,
        response: { 200: OperatorSessionDetail, 404: ErrorResponse },
      },
    },
    async (req) => parking.getOperatorSession(app.db, req.staff.operatorId, req.params.sessionId),
  );

  app.post(
    '/:operatorId/Sessions/:sessionId/Refund',
    {
      config: { operatorRoles: OPERATOR_CAN.refunds, rateLimit: MONEY_RATE_LIMIT },
      schema: {
        tags,
        summary:
          'Refund an ended session wholly or partly, with a reason, the way it was paid (Idempotency-Key header required)',
        params: OperatorSessionParams,
        body: RefundRequest,
        response: {
          201: RefundResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          422: ErrorResponse,
          502: ErrorResponse,
          503: ErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const key = idempotencyKeyOf(req);
      const name = (await findById(app.db, req.member.memberId))?.userName ?? '';
      const out = await parking.refundSession(
        app.wallet,
        {
          operatorId: req.staff.operatorId,
          actor: { id: req.member.memberId, name },
          sessionId: req.params.sessionId,
          key,
          body: req.body,
        },
        new Date(),
      );
      if (out.replayed) void reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(out.body);
    },
  );
};

export default operatorSessionRoutes;
