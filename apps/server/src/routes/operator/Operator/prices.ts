import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AssignPolicyRequest,
  AssignPolicyResponse,
  CreatePolicyRequest,
  DraftPreviewRequest,
  ErrorResponse,
  OPERATOR_CAN,
  OperatorParams,
  OperatorPolicyParams,
  OperatorPriceEventParams,
  PolicyDetail,
  PolicyList,
  PolicyVersion,
  PolicyVersionRequest,
  PRICING_MESSAGES,
  PriceEvent,
  PriceEventList,
  PriceEventRequest,
  PricePreview,
} from '@parkit/contract';
import type { FastifyRequest } from 'fastify';
import { HttpError, notFound } from '../../../lib/http-error.ts';
import { findById } from '../../../members/index.ts';
import * as pricing from '../../../pricing/index.ts';

const tags = ['Operator console'];

/**
 * An operator's prices in the console (operatorOnly scope; docs/pricing.md): every role reads the
 * policies and events, owners and managers (OPERATOR_CAN.prices) create policies, publish versions,
 * assign them to zones, and create and cancel events. A draft is previewed by the quote engine
 * itself. Each change is audited.
 */
const operatorPriceRoutes: FastifyPluginAsyncZod = async (app) => {
  const actor = async (req: FastifyRequest) => ({
    id: req.member.memberId,
    name: (await findById(app.db, req.member.memberId))?.userName ?? '',
  });

  app.get(
    '/:operatorId/Policies',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "The operator's price policies by name: latest version, the one in force now, zones priced",
        params: OperatorParams,
        response: { 200: PolicyList },
      },
    },
    async (req) => pricing.listPolicies(app.db, req.staff.operatorId, new Date()),
  );

  app.get(
    '/:operatorId/Policies/:policyId',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: 'One price policy with every version (oldest first) and the zones it prices',
        params: OperatorPolicyParams,
        response: { 200: PolicyDetail },
      },
    },
    async (req) => {
      const p = await pricing.getPolicy(app.db, req.staff.operatorId, req.params.policyId, new Date());
      if (!p) throw notFound(PRICING_MESSAGES.policyNotFound);
      return p;
    },
  );

  app.post(
    '/:operatorId/Policies',
    {
      config: { operatorRoles: OPERATOR_CAN.prices },
      schema: {
        tags,
        summary: 'Create a price policy and its version 1, in force from EffectiveFrom (default now)',
        params: OperatorParams,
        body: CreatePolicyRequest,
        response: { 201: PolicyVersion, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const v = await pricing.savePolicyVersion(
        app.db,
        req.staff.operatorId,
        null,
        req.body,
        new Date(),
        await actor(req),
      );
      return reply.code(201).send(v);
    },
  );

  app.post(
    '/:operatorId/Policies/:policyId/Versions',
    {
      config: { operatorRoles: OPERATOR_CAN.prices },
      schema: {
        tags,
        summary:
          'Publish a new version: it prices sessions started from EffectiveFrom (default now, never the past); running sessions keep theirs',
        params: OperatorPolicyParams,
        body: PolicyVersionRequest,
        response: { 201: PolicyVersion, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const v = await pricing.savePolicyVersion(
        app.db,
        req.staff.operatorId,
        req.params.policyId,
        req.body,
        new Date(),
        await actor(req),
      );
      return reply.code(201).send(v);
    },
  );

  app.post(
    '/:operatorId/Policies/Preview',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary:
          'Price a stay by a draft policy before it is saved ("a 2-hour stay at 17:30 on a Saturday costs ..."), with the spans it crosses',
        params: OperatorParams,
        body: DraftPreviewRequest,
        response: { 200: PricePreview },
      },
    },
    async (req) => {
      const { Body, ...stay } = req.body;
      return pricing.previewPrice(app.db, req.staff.operatorId, { body: Body }, stay);
    },
  );

  app.post(
    '/:operatorId/Policies/:policyId/Zones',
    {
      config: { operatorRoles: OPERATOR_CAN.prices },
      schema: {
        tags,
        summary: 'Price these zones by the policy from now on (running sessions keep their price)',
        params: OperatorPolicyParams,
        body: AssignPolicyRequest,
        response: { 200: AssignPolicyResponse },
      },
    },
    async (req) => {
      const ids = await pricing.assignPolicy(
        app.db,
        req.staff.operatorId,
        req.body.ZoneIds,
        req.params.policyId,
        await actor(req),
      );
      if (!ids) throw new HttpError(404, PRICING_MESSAGES.zonesNotFound);
      return { PolicyId: req.params.policyId, ZoneIds: ids };
    },
  );

  app.get(
    '/:operatorId/PriceEvents',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "The operator's events that have not ended (cancelled ones marked), by start",
        params: OperatorParams,
        response: { 200: PriceEventList },
      },
    },
    async (req) => pricing.listPriceEvents(app.db, req.staff.operatorId, new Date()),
  );

  app.post(
    '/:operatorId/PriceEvents',
    {
      config: { operatorRoles: OPERATOR_CAN.prices },
      schema: {
        tags,
        summary: 'A named event: its policy prices sessions started in its window in the chosen zones',
        params: OperatorParams,
        body: PriceEventRequest,
        response: { 201: PriceEvent },
      },
    },
    async (req, reply) => {
      const e = await pricing.createPriceEvent(app.db, req.staff.operatorId, req.body, await actor(req));
      return reply.code(201).send(e);
    },
  );

  app.post(
    '/:operatorId/PriceEvents/:eventId/Cancel',
    {
      config: { operatorRoles: OPERATOR_CAN.prices },
      schema: {
        tags,
        summary: 'Cancel an event: sessions starting from now are priced by their zones again',
        params: OperatorPriceEventParams,
        response: { 200: PriceEvent, 409: ErrorResponse },
      },
    },
    async (req) =>
      pricing.cancelPriceEvent(app.db, req.staff.operatorId, req.params.eventId, new Date(), await actor(req)),
  );
};

export default operatorPriceRoutes;
