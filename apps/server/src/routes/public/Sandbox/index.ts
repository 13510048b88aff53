import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, SandboxCardRequest, SandboxTokenResponse } from '@parkit/contract';
import { HttpError } from '../../../lib/http-error.ts';
import { enforce } from '../../../auth/index.ts';
import { CardError } from '../../../wallet/index.ts';

/** Card testing is the classic abuse of a tokenizer: a few cards per address and 10 minutes. */
const TOKENS_PER_ADDRESS = 30;

/**
 * The sandbox provider's own tokenizer: the /stripepage form posts the card here and
 * gets back a token; our API only ever receives the token. The number and CVC are checked and
 * dropped: never stored, never logged (errors name the field, not the value). 404 when Stripe is on.
 */
const sandboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/Tokens',
    {
      schema: {
        tags: ['Sandbox'],
        security: [],
        summary: 'Test mode: turn a card (Stripe test numbers) into a token holding only brand, last 4 and expiry',
        body: SandboxCardRequest,
        response: { 201: SandboxTokenResponse, 400: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (req, reply) => {
      const sandbox = app.wallet.sandbox;
      if (!sandbox) throw new HttpError(404, 'Not found');
      await enforce(
        app.db,
        { bucket: 'sandbox-tokens', limit: TOKENS_PER_ADDRESS * app.addressLimitScale, windowSeconds: 600 },
        req.ip,
      );
      try {
        const t = sandbox.tokenize({
          number: req.body.Number,
          expMonth: req.body.ExpMonth,
          expYear: req.body.ExpYear,
          cvc: req.body.Cvc,
        });
        return reply.code(201).send({ Token: t.token, Brand: t.brand, Last4: t.last4 });
      } catch (err) {
        if (err instanceof CardError)
          throw new HttpError(400, err.message, [{ field: err.field, message: err.message }]);
        throw err;
      }
    },
  );
};

export default sandboxRoutes;
