import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APDS_MESSAGES as M,
  ApdsAnySession,
  ApdsAnySessionList,
  ApdsErrorResponse,
  ApdsIdParams,
  ApdsSessionCreated,
  ApdsSessionRequest,
  ApdsSessionsQuery,
  ApdsSessionUpdated,
  ApdsStatus,
  IdempotencyHeaders,
} from '@parkit/contract';
import type { Executor } from '../../../db/client.ts';
import * as apds from '../../../apds/index.ts';
import { apdsNotFound } from '../../public/Apds/index.ts';
import { withOptionalKey } from './optional-key.ts';

const tags = ['APDS'];

/**
 * /apds/sessions (docs/apds.md): the sessions of the key's operator's zones, behind the operator's
 * API key (the enforcement keys' scheme, x-operator-key). Another operator's session is not found;
 * the plate is a credential only where the operator shows plates (operators.show_plates). A third
 * party registers a Session by the rights its segments hold, and it is kept beside ours
 * (docs/apds.md#partner-sessions); it replaces it with its next version (an Idempotency-Key makes a
 * retry answer the first answer) and deletes it.
 */
const apdsSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const currency = () => app.wallet.currency.toUpperCase();

  app.get(
    '/sessions',
    {
      schema: {
        tags,
        summary:
          'APDS: list and search the sessions of the key’s operator’s zones, then the Sessions third parties registered with its key',
        querystring: ApdsSessionsQuery,
        response: { 200: ApdsAnySessionList },
      },
    },
    async (req) => apds.listSessions(app.db, req.operatorKey.row!.operatorId, req.query, currency(), new Date()),
  );
  app.get(
    '/sessions/:id',
    {
      schema: {
        tags,
        summary:
          'APDS: one session of the key’s operator’s zones (session-<id>), or a Session a third party registered with its key',
        params: ApdsIdParams,
        response: { 200: ApdsAnySession, 404: ApdsStatus },
      },
    },
    async (req, reply) =>
      (await apds.getSession(app.db, req.operatorKey.row!.operatorId, req.params.id, currency())) ??
      apdsNotFound(reply),
  );
  app.delete(
    '/sessions/:id',
    {
      schema: {
        tags,
        summary:
          'APDS: delete a Session a third party registered with the key (its rights stay); ParkIt’s own sessions are not deleted (409)',
        params: ApdsIdParams,
        response: { 200: ApdsStatus, 404: ApdsStatus, 409: ApdsErrorResponse },
      },
    },
    async (req, reply) =>
      (await apds.deletePartnerSession(app.db, req.operatorKey.row!.operatorId, req.params.id))
        ? { status: 'ok' as const, code: 200, message: M.deleted }
        : apdsNotFound(reply),
  );
  app.put(
    '/sessions/:id',
    {
      schema: {
        tags,
        summary:
          'APDS: replace a Session a third party registered with the key by its next version (the whole Session, checked as a registration is; version the kept one plus one, else 409 and nothing changes; its segments’ rights created, or updated to the version they name). ParkIt’s own sessions are not updated (409). An Idempotency-Key header makes a retry answer the first answer (the same key with another body: 422)',
        params: ApdsIdParams,
        headers: IdempotencyHeaders,
        body: ApdsSessionRequest,
        response: {
          200: ApdsSessionUpdated,
          400: ApdsErrorResponse,
          404: ApdsStatus,
          409: ApdsErrorResponse,
          422: ApdsErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const operatorId = req.operatorKey.row!.operatorId;
      const update = async (db: Executor) => {
        const { session, rights } = await apds.updatePartnerSession(
          db,
          operatorId,
          req.params.id,
          req.body,
          new Date(),
        );
        return { status: 'ok' as const, code: 200, message: M.updated, session, assignedRights: rights };
      };
      return withOptionalKey(app.db, req, reply, { operatorId, scope: `APDS/Sessions/${req.params.id}` }, update);
    },
  );
  app.post(
    '/sessions',
    {
      schema: {
        tags,
        summary:
          'APDS: register a Session whose segments carry an AssignedRight (created as POST /rights/assigned does) or name one; the plate check honours the rights, and the Session is kept (the same id with other content: 409)',
        body: ApdsSessionRequest,
        response: { 200: ApdsSessionCreated, 400: ApdsErrorResponse, 409: ApdsErrorResponse },
      },
    },
    async (req) => ({
      status: 'ok' as const,
      code: 200,
      message: M.registered,
      assignedRights: await apds.registerSession(app.db, req.operatorKey.row!.operatorId, req.body, new Date()),
    }),
  );
};

export default apdsSessionRoutes;
