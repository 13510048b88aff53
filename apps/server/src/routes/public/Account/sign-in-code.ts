import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CodeSent, ErrorResponse, MESSAGES, SendCodeRequest } from '@parkit/contract';
import { pickLanguage } from '../../../lib/language.ts';
import * as members from '../../../members/index.ts';
import { maskPhone, sendCode, enforceAddress, LIMITS } from '../../../auth/index.ts';

/** POST /api/Account/SendOtp: a sign-in code to a phone ("Login with OTP"). */
const signInCodeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/SendOtp',
    {
      schema: {
        tags: ['Account'],
        summary: 'Send a sign-in code to a phone (the answer is the same whether or not it has an account)',
        body: SendCodeRequest,
        response: { 202: CodeSent, 400: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (req, reply) => {
      await enforceAddress(app, LIMITS.codeAddress, req.ip);
      const phone = req.body.PhoneNumber;
      const member = await members.findByPhone(app.db, phone);
      await sendCode(
        app.db,
        phone,
        'login',
        member !== null,
        'sign-in',
        pickLanguage(undefined, req.headers['accept-language']),
      );
      return reply.code(202).send({ message: MESSAGES.codeSent, PhoneNumber: maskPhone(phone) });
    },
  );
};

export default signInCodeRoutes;
