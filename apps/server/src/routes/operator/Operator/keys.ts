import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateApiKeyRequest,
  CreatedApiKey,
  ErrorResponse,
  MessageResponse,
  OPERATOR_CAN,
  OperatorApiKeyList,
  OperatorKeyParams,
  OperatorParams,
} from '@parkit/contract';
import type { FastifyRequest } from 'fastify';
import { issueKey, keysOf, withdrawKey } from '../../../enforcement/index.ts';
import { findById } from '../../../members/index.ts';

const tags = ['Operator keys'];

/**
 * The operator's API keys (operatorOnly scope, docs/operations.md#api-keys): officers' devices and
 * the city's CDS feed. Owners only (OPERATOR_CAN.keys); another operator's key is 404.
 */
const operatorKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const actor = async (req: FastifyRequest) => ({
    id: req.member.memberId,
    name: (await findById(app.db, req.member.memberId))?.userName ?? '',
  });

  app.get(
    '/:operatorId/Keys',
    {
      config: { operatorRoles: OPERATOR_CAN.keys },
      schema: {
        tags,
        summary: "The operator's API keys, officers' and CDS, live and revoked, by prefix (never the secret)",
        params: OperatorParams,
        response: { 200: OperatorApiKeyList },
      },
    },
    async (req) => keysOf(app.db, req.staff.operatorId),
  );

  app.post(
    '/:operatorId/Keys',
    {
      config: { operatorRoles: OPERATOR_CAN.keys },
      schema: {
        tags,
        summary: 'Make an API key: the answer carries the key once; only its hash is kept (audited)',
        params: OperatorParams,
        body: CreateApiKeyRequest,
        response: { 201: CreatedApiKey },
      },
    },
    async (req, reply) => {
      const made = await issueKey(app.db, req.staff.operatorId, await actor(req), {
        purpose: req.body.Purpose,
        label: req.body.Label,
      });
      return reply.code(201).send(made);
    },
  );

  app.post(
    '/:operatorId/Keys/:prefix/Revoke',
    {
      config: { operatorRoles: OPERATOR_CAN.keys },
      schema: {
        tags,
        summary: 'Revoke a key: it stops opening anything at once (audited; 404 when not live)',
        params: OperatorKeyParams,
        response: { 200: MessageResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      await withdrawKey(app.db, req.staff.operatorId, await actor(req), req.params.prefix);
      // Committed: this process trusts its cached row no longer (the others are told by KEY_CHANNEL).
      app.operatorKeys.forget(req.params.prefix);
      return { message: 'OK' };
    },
  );
};

export default operatorKeyRoutes;
