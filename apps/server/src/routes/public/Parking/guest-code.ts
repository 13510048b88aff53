import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CodeSent, GuestSendCodeRequest, GuestToken, GuestVerifyRequest, MESSAGES } from '@parkit/contract';
import { pickLanguage } from '../../../lib/language.ts';
import { maskPhone, sendCode, enforceAddress, LIMITS, checkCode } from '../../../auth/index.ts';

const base = { tags: ['Quick Park'] };

/**
 * /api/Parking/Guest: Quick Park, public. A code verifies the phone and gives a guest
 * token (header `x-guest-token`); the token pays with a card and opens that phone's sessions only
 * (guest/Parking/guest.ts).
 */
const guestCodeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/SendCode',
    {
      schema: {
        ...base,
        summary: 'Sends a code to the driver’s phone for Quick Park',
        body: GuestSendCodeRequest,
        response: { 202: CodeSent },
      },
    },
    async (req, reply) => {
      await enforceAddress(app, LIMITS.codeAddress, req.ip);
      await sendCode(
        app.db,
        req.body.PhoneNumber,
        'quickpark',
        true,
        'sign-in',
        pickLanguage(undefined, req.headers['accept-language']),
      );
      return reply.code(202).send({ message: MESSAGES.codeSent, PhoneNumber: maskPhone(req.body.PhoneNumber) });
    },
  );

  app.post(
    '/Verify',
    {
      schema: {
        ...base,
        summary: 'Checks the code and answers a guest token for this phone (24 hours)',
        body: GuestVerifyRequest,
        response: { 200: GuestToken },
      },
    },
    async (req) => {
      await enforceAddress(app, LIMITS.loginAddress, req.ip);
      // Per code (five tries) and per phone across its codes, with back-off, as sign-in's codes.
      await checkCode(app, req.ip, req.body.PhoneNumber, 'quickpark', req.body.Code, 'Code');
      const { token, expiresAt } = await app.guestTokens.sign(req.body.PhoneNumber);
      return { GuestToken: token, PhoneNumber: req.body.PhoneNumber, ExpiresAt: expiresAt.toISOString() };
    },
  );
};

export default guestCodeRoutes;
