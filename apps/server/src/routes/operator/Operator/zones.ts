import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  OPERATOR_CAN,
  OPERATOR_MESSAGES,
  OperatorParams,
  OperatorZone,
  OperatorZonePage,
  OperatorZoneParams,
  OperatorZoneQuery,
  ZoneInput,
} from '@parkit/contract';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../../lib/http-error.ts';
import { findById } from '../../../members/index.ts';
import * as zones from '../../../zones/index.ts';

const tags = ['Operator console'];

/**
 * An operator's zones in the console (operatorOnly scope): every role reads them, owners and
 * managers (OPERATOR_CAN.zones) create, edit and retire them. Each change is audited.
 */
const operatorZoneRoutes: FastifyPluginAsyncZod = async (app) => {
  const actor = async (req: FastifyRequest) => ({
    id: req.member.memberId,
    name: (await findById(app.db, req.member.memberId))?.userName ?? '',
  });
  const operatorOf = async (req: FastifyRequest) => {
    const operator = await zones.operatorById(app.db, req.staff.operatorId);
    if (!operator) throw new HttpError(404, OPERATOR_MESSAGES.operatorNotFound);
    return operator;
  };

  app.get(
    '/:operatorId/Zones',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "The operator's zones by number: search by number, name or address, a page at a time",
        params: OperatorParams,
        querystring: OperatorZoneQuery,
        response: { 200: OperatorZonePage },
      },
    },
    async (req) => zones.listOperatorZones(app.db, req.staff.operatorId, req.query),
  );

  app.get(
    '/:operatorId/Zones/:zoneId',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: 'One zone of the operator',
        params: OperatorZoneParams,
        response: { 200: OperatorZone },
      },
    },
    async (req) => zones.getOperatorZone(app.db, req.staff.operatorId, req.params.zoneId),
  );

  app.post(
    '/:operatorId/Zones',
    {
      config: { operatorRoles: OPERATOR_CAN.zones },
      schema: {
        tags,
        summary: 'Create a zone: a point, an optional curb line or polygon, its number (unique), capacity and rate',
        params: OperatorParams,
        body: ZoneInput,
        response: { 201: OperatorZone, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const made = await zones.createOperatorZone(app.db, await operatorOf(req), await actor(req), req.body);
      return reply.code(201).send(made);
    },
  );

  app.put(
    '/:operatorId/Zones/:zoneId',
    {
      config: { operatorRoles: OPERATOR_CAN.zones },
      schema: {
        tags,
        summary: 'Change a zone (running sessions keep the rate they started with)',
        params: OperatorZoneParams,
        body: ZoneInput,
        response: { 200: OperatorZone, 409: ErrorResponse },
      },
    },
    async (req) =>
      zones.updateOperatorZone(app.db, await operatorOf(req), await actor(req), req.params.zoneId, req.body),
  );

  app.post(
    '/:operatorId/Zones/:zoneId/Retire',
    {
      config: { operatorRoles: OPERATOR_CAN.zones },
      schema: {
        tags,
        summary: 'Retire a zone: it keeps its history, leaves Find Parking and refuses new sessions',
        params: OperatorZoneParams,
        response: { 200: OperatorZone, 409: ErrorResponse },
      },
    },
    async (req) =>
      zones.retireOperatorZone(app.db, req.staff.operatorId, await actor(req), req.params.zoneId, new Date()),
  );
};

export default operatorZoneRoutes;
