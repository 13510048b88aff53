import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, LogoutRequest, MESSAGES, MessageResponse } from '@parkit/contract';
import * as refresh from '../../../auth/index.ts';
import { clearRefreshCookie, REFRESH_COOKIE, bearerClaims } from '../../../auth/index.ts';
import * as members from '../../../members/index.ts';
import { withCookies } from '../../common/cookies.ts';

/** POST /api/Account/Logout: the refresh-token family dies. */
const logoutRoutes: FastifyPluginAsyncZod = async (app) => {
  await withCookies(app);
  app.post(
    '/Logout',
    {
      schema: {
        tags: ['Account'],
        summary: 'Sign out everywhere: every refresh token and access token of the member stops working',
        // Fastify hands a body-less POST to the validator as null, not undefined.
        body: LogoutRequest.nullish(),
        response: { 200: MessageResponse, 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      // Logout ends every session of the member at once (every refresh-token
      // family, and every access token through session_version), found by the refresh token or
      // by a valid access token.
      const token = req.body?.refresh_token ?? req.cookies[REFRESH_COOKIE];
      const memberId =
        (token ? await refresh.memberOf(app.db, token) : null) ?? (await bearerClaims(app, req))?.memberId ?? null;
      if (memberId !== null) {
        await refresh.revokeAllOf(app.db, memberId);
        await members.endSessions(app.db, memberId);
        app.sessionCache.forget(memberId);
      }
      clearRefreshCookie(reply);
      return { message: MESSAGES.loggedOut };
    },
  );
};

export default logoutRoutes;
