import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, SPEC_MESSAGES, TokenRequest, TokenResponse } from '@parkit/contract';
import { HttpError } from '../../lib/http-error.ts';
import * as refresh from '../../auth/index.ts';
import { passwordGrant, otpGrant, clearRefreshCookie, issueTokens, REFRESH_COOKIE } from '../../auth/index.ts';
import { withCookies } from '../common/cookies.ts';
import { pickLanguage } from '../../lib/language.ts';
import { saveMemberLanguage } from '../../infra/recipient-language.ts';

/**
 * The spec's form-encoded token POST (docs/product.md#api-calls; docs/product.md#sign-in): grant_type password, otp
 * or refresh_token, one function each in auth/. JSON bodies are accepted too.
 */
const tokenRoute: FastifyPluginAsyncZod = async (app) => {
  await withCookies(app);
  app.post(
    '/token',
    {
      schema: {
        tags: ['Account'],
        summary: 'Sign in: password, a code sent to the phone, or a refresh token',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: TokenRequest,
        response: { 200: TokenResponse, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (req, reply) => {
      const body = req.body;
      // A sign-in saves the app's language (Accept-Language): the member's SMS are written in it.
      const language = pickLanguage(undefined, req.headers['accept-language']);
      if (body.grant_type === 'password') {
        const memberId = await passwordGrant(app, req, reply, body.username, body.password);
        await saveMemberLanguage(app.db, memberId, language);
        return issueTokens(app, reply, memberId, 'pwd');
      }
      if (body.grant_type === 'otp') {
        const memberId = await otpGrant(app, req.ip, body.phone, body.code);
        await saveMemberLanguage(app.db, memberId, language);
        return issueTokens(app, reply, memberId, 'otp');
      }
      const presented = body.refresh_token ?? req.cookies[REFRESH_COOKIE];
      const rotated = presented ? await refresh.rotate(app.db, presented) : null;
      if (!rotated) {
        clearRefreshCookie(reply);
        throw new HttpError(401, SPEC_MESSAGES.unauthorized);
      }
      const { grant, token } = rotated;
      return issueTokens(app, reply, grant.memberId, grant.amr, token, grant.authTime);
    },
  );
};

export default tokenRoute;
