import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AuditPage,
  AuditQuery,
  ChangeRoleRequest,
  InviteRequest,
  MessageResponse,
  OPERATOR_CAN,
  OperatorInviteParams,
  OperatorMemberParams,
  OperatorMembershipList,
  OperatorParams,
  ChangeOperatorSettingsRequest,
  OperatorSettings,
  PendingInvite,
  PendingInviteList,
  StaffList,
  ErrorResponse,
} from '@parkit/contract';
import type { FastifyRequest } from 'fastify';
import { pickLanguage } from '../../../lib/language.ts';
import { findById } from '../../../members/index.ts';
import * as operators from '../../../operators/index.ts';

const tags = ['Operator console'];

/**
 * The operator's console (operatorOnly scope, routes/scopes.ts): the operators of the signed-in
 * person, an operator's people and invitations, its audit log. Paths carry the operator's id;
 * each route names the roles it admits (OPERATOR_CAN).
 */
const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Who the audit log names for this request's change. */
  const actor = async (req: FastifyRequest) => ({
    id: req.member.memberId,
    name: (await findById(app.db, req.member.memberId))?.userName ?? '',
  });

  app.get(
    '/Mine',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: 'The operators the signed-in person works for, and their role at each (403 for anyone else)',
        response: { 200: OperatorMembershipList },
      },
    },
    async (req) => operators.membershipsOf(app.db, req.member.memberId),
  );

  app.get(
    '/:operatorId/Staff',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "The operator's people and their roles",
        params: OperatorParams,
        response: { 200: StaffList },
      },
    },
    async (req) => operators.staffOf(app.db, req.staff.operatorId),
  );

  app.get(
    '/:operatorId/Invites',
    {
      config: { operatorRoles: OPERATOR_CAN.people },
      schema: {
        tags,
        summary: 'Invitations waiting for their code',
        params: OperatorParams,
        response: { 200: PendingInviteList },
      },
    },
    async (req) => operators.pendingInvites(app.db, req.staff.operatorId),
  );

  app.post(
    '/:operatorId/Invites',
    {
      config: { operatorRoles: OPERATOR_CAN.people },
      schema: {
        tags,
        summary: 'Invite someone by phone or e-mail: a code goes to them, which they enter signed in',
        params: OperatorParams,
        body: InviteRequest,
        response: { 201: PendingInvite, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      // Written in the invited member's language, else the console's (Accept-Language).
      const language = pickLanguage(undefined, req.headers['accept-language']);
      const made = await operators.invite(app.db, req.staff.operatorId, await actor(req), req.body, language);
      return reply.code(201).send(made);
    },
  );

  app.post(
    '/:operatorId/Invites/:inviteId/Withdraw',
    {
      config: { operatorRoles: OPERATOR_CAN.people },
      schema: {
        tags,
        summary: 'Withdraw an invitation: its code stops working',
        params: OperatorInviteParams,
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      await operators.withdrawInvite(app.db, req.staff.operatorId, await actor(req), req.params.inviteId);
      return { message: 'OK' };
    },
  );

  app.post(
    '/:operatorId/Staff/:memberId/Role',
    {
      config: { operatorRoles: OPERATOR_CAN.people },
      schema: {
        tags,
        summary: "Change a person's role (the last owner stays an owner)",
        params: OperatorMemberParams,
        body: ChangeRoleRequest,
        response: { 200: MessageResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      await operators.changeRole(app.db, req.staff.operatorId, await actor(req), req.params.memberId, req.body.Role);
      return { message: 'OK' };
    },
  );

  app.post(
    '/:operatorId/Staff/:memberId/Remove',
    {
      config: { operatorRoles: OPERATOR_CAN.people },
      schema: {
        tags,
        summary: 'Remove a person from the team (never the last owner)',
        params: OperatorMemberParams,
        response: { 200: MessageResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      await operators.removeStaff(app.db, req.staff.operatorId, await actor(req), req.params.memberId);
      return { message: 'OK' };
    },
  );

  app.get(
    '/:operatorId/Settings',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary:
          "The operator's settings: ShowPlates, whether the console shows drivers' plates in full; RetentionWeeks, after which plates in checks and expired permits are anonymised",
        params: OperatorParams,
        response: { 200: OperatorSettings },
      },
    },
    async (req) => operators.settingsOf(app.db, req.staff.operatorId),
  );

  app.put(
    '/:operatorId/Settings',
    {
      config: { operatorRoles: OPERATOR_CAN.settings },
      schema: {
        tags,
        summary: "Change the operator's settings (owners; audited when something changes)",
        params: OperatorParams,
        body: ChangeOperatorSettingsRequest,
        response: { 200: OperatorSettings },
      },
    },
    async (req) => operators.changeSettings(app.db, req.staff.operatorId, await actor(req), req.body),
  );

  app.get(
    '/:operatorId/Audit',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: 'Every change made for the operator, newest first: who, when, before and after',
        params: OperatorParams,
        querystring: AuditQuery,
        response: { 200: AuditPage },
      },
    },
    async (req) =>
      operators.auditPage(app.db, req.staff.operatorId, { before: req.query.before, limit: req.query.limit }),
  );
};

export default operatorRoutes;
