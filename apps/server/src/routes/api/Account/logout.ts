import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, LogoutRequest, MESSAGES, MessageResponse } from '@parkit/contract';
import * as refresh from '../../../plugins/app/auth/refresh-token-repository.ts';
import { clearRefreshCookie, REFRESH_COOKIE } from '../../../plugins/app/auth/session.ts';

/** POST /api/Account/Logout: the refresh-token family dies. */
const logoutRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/Logout',
    {
      schema: {
        tags: ['Account'],
        summary: 'Revoke the refresh token (from the body or the cookie)',
        // Fastify hands a body-less POST to the validator as null, not undefined.
        body: LogoutRequest.nullish(),
        response: { 200: MessageResponse, 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const token = req.body?.refresh_token ?? req.cookies[REFRESH_COOKIE];
      if (token) await refresh.revoke(app.db, token);
      clearRefreshCookie(reply);
      return { message: MESSAGES.loggedOut };
    },
  );
};

export default logoutRoutes;
