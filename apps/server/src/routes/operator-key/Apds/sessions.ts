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
  ApdsStatus,
} from '@parkit/contract';
import * as apds from '../../../apds/index.ts';
import { apdsNotFound } from '../../public/Apds/index.ts';

const tags = ['APDS'];

/**
 * /apds/sessions (docs/apds.md): the sessions of the key's operator's zones, behind the operator's
 * API key (the enforcement keys' scheme, x-operator-key). Another operator's session is not found;
 * the plate is a credential only where the operator shows plates (operators.show_plates). A third
 * party registers a Session by the rights its segments hold, and it is kept beside ours
 * (docs/apds.md#partner-sessions).
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
