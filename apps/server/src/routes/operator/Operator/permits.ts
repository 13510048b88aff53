import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  OPERATOR_CAN,
  OperatorParams,
  OperatorPermitParams,
  OperatorPermitsQuery,
  OperatorPermitTypeParams,
  Permit,
  PermitList,
  PERMIT_MESSAGES as M,
  PermitType,
  PermitTypeInput,
  PermitTypeList,
  RefusePermitRequest,
} from '@parkit/contract';
import type { FastifyRequest } from 'fastify';
import { notFound } from '../../../lib/http-error.ts';
import { findById } from '../../../members/index.ts';
import * as permits from '../../../permits/index.ts';
import { attachmentAnswer, sendAttachment, type SupportOptions } from '../../common/Support/common.ts';

const tags = ['Operator console'];

/**
 * Permit types and applications in the console (docs/permits.md): owners and managers
 * change them, analysts read, officers see none. Each change is audited; another operator's ids
 * are 404.
 */
const operatorPermitRoutes: FastifyPluginAsyncZod<SupportOptions> = async (app, { attachments }) => {
  const actor = async (req: FastifyRequest) => ({
    id: req.member.memberId,
    name: (await findById(app.db, req.member.memberId))?.userName ?? '',
  });

  app.get(
    '/:operatorId/PermitTypes',
    {
      config: { operatorRoles: OPERATOR_CAN.readPermits },
      schema: {
        tags,
        summary: "The operator's permit types",
        params: OperatorParams,
        response: { 200: PermitTypeList },
      },
    },
    async (req) => permits.listTypes(app.db, req.staff.operatorId),
  );

  app.post(
    '/:operatorId/PermitTypes',
    {
      config: { operatorRoles: OPERATOR_CAN.permits },
      schema: {
        tags,
        summary: 'Create a permit type: its kind, zones, months, price, proof, plates and visitor days',
        params: OperatorParams,
        body: PermitTypeInput,
        response: { 201: PermitType },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await permits.createType(app.db, req.staff.operatorId, await actor(req), req.body)),
  );

  app.put(
    '/:operatorId/PermitTypes/:typeId',
    {
      config: { operatorRoles: OPERATOR_CAN.permits },
      schema: {
        tags,
        summary: 'Change a permit type (permits already applied for keep their price, plates and zones)',
        params: OperatorPermitTypeParams,
        body: PermitTypeInput,
        response: { 200: PermitType, 404: ErrorResponse },
      },
    },
    async (req) => permits.updateType(app.db, req.staff.operatorId, await actor(req), req.params.typeId, req.body),
  );

  app.post(
    '/:operatorId/PermitTypes/:typeId/Retire',
    {
      config: { operatorRoles: OPERATOR_CAN.permits },
      schema: {
        tags,
        summary: 'Retire a permit type: no new applications; its permits stay',
        params: OperatorPermitTypeParams,
        response: { 200: PermitType, 404: ErrorResponse },
      },
    },
    async (req) => permits.retireType(app.db, req.staff.operatorId, await actor(req), req.params.typeId),
  );

  app.get(
    '/:operatorId/Permits',
    {
      config: { operatorRoles: OPERATOR_CAN.readPermits },
      schema: {
        tags,
        summary: 'Permit applications and permits, newest first, optionally of one status',
        params: OperatorParams,
        querystring: OperatorPermitsQuery,
        response: { 200: PermitList },
      },
    },
    async (req) => permits.listApplications(app.db, req.staff.operatorId, req.query.status),
  );

  app.get(
    '/:operatorId/Permits/:permitId/Proof',
    {
      config: { operatorRoles: OPERATOR_CAN.readPermits },
      schema: {
        tags,
        summary: 'The proof attached to an application',
        params: OperatorPermitParams,
        response: { 200: attachmentAnswer, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const permit = await permits.operatorPermit(app.db, req.staff.operatorId, req.params.permitId);
      const att = permit.ProofAttachmentId && (await attachments.find(app.db, permit.ProofAttachmentId, null));
      if (!att) throw notFound(M.proofNotFound);
      return sendAttachment(reply, attachments, att);
    },
  );

  app.post(
    '/:operatorId/Permits/:permitId/Approve',
    {
      config: { operatorRoles: OPERATOR_CAN.permits },
      schema: {
        tags,
        summary: 'Approve a pending application (a free permit is active at once; else it waits for payment)',
        params: OperatorPermitParams,
        response: { 200: Permit, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) =>
      permits.decide(app.db, req.staff.operatorId, await actor(req), req.params.permitId, { approve: true }),
  );

  app.post(
    '/:operatorId/Permits/:permitId/Refuse',
    {
      config: { operatorRoles: OPERATOR_CAN.permits },
      schema: {
        tags,
        summary: 'Refuse a pending application with a reason the driver reads',
        params: OperatorPermitParams,
        body: RefusePermitRequest,
        response: { 200: Permit, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) =>
      permits.decide(app.db, req.staff.operatorId, await actor(req), req.params.permitId, {
        approve: false,
        reason: req.body.Reason,
      }),
  );
};

export default operatorPermitRoutes;
