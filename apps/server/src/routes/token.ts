import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, MESSAGES, SPEC_MESSAGES, TokenRequest, TokenResponse } from '@parkit/contract';
import { badRequest, HttpError } from '../lib/http-error.ts';
import * as members from '../plugins/app/members/member-repository.ts';
import * as otp from '../plugins/app/auth/otp-repository.ts';
import * as rate from '../plugins/app/auth/rate-limit-repository.ts';
import * as refresh from '../plugins/app/auth/refresh-token-repository.ts';
import { DUMMY_HASH, verifyPassword } from '../plugins/app/auth/passwords.ts';
import { clearRefreshCookie, enforce, enforceAddress, issueTokens, LIMITS, REFRESH_COOKIE } from '../plugins/app/auth/sign-in.ts';

/**
 * The spec's form-encoded token POST (section 7; DESIGN.md section 3): grant_type password, otp
 * or refresh_token. JSON bodies are accepted too.
 */
const tokenRoute: FastifyPluginAsyncZod = async (app) => {
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
      if (body.grant_type === 'password') {
        await enforceAddress(app, LIMITS.loginAddress, req.ip);
        const member = await members.findByLogin(app.db, body.username);
        // Counted per account, not per name: username and e-mail must not give twice the tries.
        const accountKey = member ? `member:${member.id}` : `name:${body.username.toLowerCase()}`;
        await enforce(app.db, LIMITS.loginAccount, accountKey);
        const ok = await verifyPassword(body.password, member?.passwordHash ?? DUMMY_HASH);
        if (!member || !ok) throw badRequest('password', MESSAGES.invalidCredentials);
        await rate.reset(app.db, LIMITS.loginAccount.bucket, accountKey);
        return issueTokens(app, reply, member.id, 'pwd');
      }
      if (body.grant_type === 'otp') {
        await enforceAddress(app, LIMITS.loginAddress, req.ip);
        const valid = await otp.consume(app.db, body.phone, 'login', body.code);
        const member = valid ? await members.findByPhone(app.db, body.phone) : null;
        if (!member) throw badRequest('code', MESSAGES.invalidCode);
        await members.markPhoneVerified(app.db, member.id);
        return issueTokens(app, reply, member.id, 'otp');
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
