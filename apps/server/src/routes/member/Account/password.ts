import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CodeSent, ErrorResponse, MESSAGES, ResetPasswordRequest, TokenResponse } from '@parkit/contract';
import { pickLanguage } from '../../../lib/language.ts';
import { badRequest, notFound } from '../../../lib/http-error.ts';
import * as members from '../../../members/index.ts';
import {
  checkCode,
  hashPassword,
  isCommonPassword,
  maskPhone,
  sendCode,
  clearRefreshCookie,
  issueTokens,
} from '../../../auth/index.ts';
import * as refresh from '../../../auth/index.ts';
import { withCookies } from '../../common/cookies.ts';

/** A code-less password reset is allowed this long after signing in with a code. */
const OTP_RESET_WINDOW_SECONDS = 10 * 60;

/** /forgot and /resetpassword: a reset code, then a new password (docs/product.md#sign-in). */
const passwordRoutes: FastifyPluginAsyncZod = async (app) => {
  await withCookies(app);
  app.post(
    '/ForgotPassword',
    {
      schema: {
        tags: ['Account'],
        summary: 'Send a password-reset code to the signed-in member’s phone',
        response: { 202: CodeSent, 429: ErrorResponse },
      },
    },
    async (req, reply) => {
      const member = await members.findById(app.db, req.member.memberId);
      if (!member) throw notFound();
      await sendCode(
        app.db,
        member.phone,
        'reset',
        true,
        'sign-in',
        pickLanguage(undefined, req.headers['accept-language']),
      );
      return reply.code(202).send({ message: MESSAGES.codeSent, PhoneNumber: maskPhone(member.phone) });
    },
  );

  app.post(
    '/ResetPassword',
    {
      schema: {
        tags: ['Account'],
        summary: 'Set a new password with a code from /forgot, or right after signing in with a code',
        body: ResetPasswordRequest,
        response: { 200: TokenResponse, 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const member = await members.findById(app.db, req.member.memberId);
      if (!member) throw notFound();
      const { Code, NewPassword } = req.body;
      if (isCommonPassword(NewPassword)) throw badRequest('NewPassword', MESSAGES.passwordCommon);
      if (Code) {
        await checkCode(app, req.ip, member.phone, 'reset', Code, 'Code');
      } else {
        const fresh = req.member.amr === 'otp' && Date.now() / 1000 - req.member.authTime < OTP_RESET_WINDOW_SECONDS;
        if (!fresh) throw badRequest('Code', MESSAGES.codeRequired);
      }
      // Every session ends (session_version goes up, refresh tokens die); this device gets a fresh pair.
      await members.setPassword(app.db, member.id, await hashPassword(NewPassword));
      app.sessionCache.forget(member.id);
      await refresh.revokeAllOf(app.db, member.id);
      clearRefreshCookie(reply);
      return issueTokens(app, reply, member.id, req.member.amr);
    },
  );
};

export default passwordRoutes;
