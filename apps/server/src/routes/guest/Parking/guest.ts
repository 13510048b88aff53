import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CodeSent,
  ErrorResponse,
  GuestExtendQuoteRequest,
  GuestExtendRequest,
  GuestQuoteRequest,
  GuestSendCodeRequest,
  GuestStartRequest,
  GuestToken,
  GuestVerifyRequest,
  MESSAGES,
  ParkingSession,
  Quote,
  SessionParams,
  StopRequest,
  StopResponse,
} from '@parkit/contract';
import { notFound } from '../../../lib/http-error.ts';
import { maskPhone, sendCode, enforceAddress, LIMITS, checkCode } from '../../../auth/index.ts';
import { quoteGuest, startGuest, stopOwned, extendGuest, quoteGuestExtend } from '../../../parking/index.ts';
import * as sessions from '../../../parking/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';
import { guestOnly } from '../../scopes.ts';

const base = { tags: ['Quick Park'] };

/**
 * /api/Parking/Guest: Quick Park (issue 11), public. A code verifies the phone and gives a guest
 * token (header `x-guest-token`); the token pays with a card and opens that phone's sessions only.
 */
const guestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onSend', async (_req, reply) => {
    void reply.header('cache-control', 'no-store');
  });

  app.post(
    '/SendCode',
    { schema: { ...base, summary: 'Sends a code to the driver’s phone for Quick Park', body: GuestSendCodeRequest, response: { 202: CodeSent } } },
    async (req, reply) => {
      await enforceAddress(app, LIMITS.codeAddress, req.ip);
      await sendCode(app.db, req.body.PhoneNumber, 'quickpark', true);
      return reply.code(202).send({ message: MESSAGES.codeSent, PhoneNumber: maskPhone(req.body.PhoneNumber) });
    },
  );

  app.post(
    '/Verify',
    { schema: { ...base, summary: 'Checks the code and answers a guest token for this phone (24 hours)', body: GuestVerifyRequest, response: { 200: GuestToken } } },
    async (req) => {
      await enforceAddress(app, LIMITS.loginAddress, req.ip);
      // Per code (five tries) and per phone across its codes, with back-off, as sign-in's codes (issue 8, item 1).
      await checkCode(app, req.ip, req.body.PhoneNumber, 'quickpark', req.body.Code, 'Code');
      const { token, expiresAt } = await app.guestTokens.sign(req.body.PhoneNumber);
      return { GuestToken: token, PhoneNumber: req.body.PhoneNumber, ExpiresAt: expiresAt.toISOString() };
    },
  );

  // The rest need the phone's guest token: their own scope (below).
  await app.register(guestTokenRoutes);
};

/** Quick Park with a guest token: the phone's quotes, payments and sessions (routes/scopes.ts guestOnly: 401 without one). */
const guestTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  guestOnly(app);

  app.post(
    '/Quote',
    { schema: { ...base, summary: 'A Quick Park price for a zone number, plate and duration (held 5 minutes)', body: GuestQuoteRequest, response: { 200: Quote, 409: ErrorResponse } } },
    async (req) => quoteGuest(app.db, req.guestPhone, req.body, new Date()),
  );

  app.post(
    '/Start',
    {
      config: { rateLimit: MONEY_RATE_LIMIT },
      schema: {
        ...base,
        summary: 'Pays a Quick Park quote with a card and starts the session; the receipt goes to the phone with a link to it',
        body: GuestStartRequest,
        response: { 201: ParkingSession, 402: ErrorResponse, 409: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (req, reply) => {
      const token = String(req.headers['x-guest-token']);
      const session = await startGuest(app.db, app.wallet.provider, req.guestPhone, req.body, (id) => `/QuickParkRegister?session=${id}&token=${encodeURIComponent(token)}`, new Date());
      return reply.code(201).send(session);
    },
  );

  app.get(
    '/Session/:id',
    { schema: { ...base, summary: 'One of this phone’s Quick Park sessions', params: SessionParams, response: { 200: ParkingSession, 404: ErrorResponse } } },
    async (req) => {
      const found = await sessions.findOwned(app.db, { guestPhone: req.guestPhone }, req.params.id);
      if (!found) throw notFound();
      return sessions.toSessionView(found, new Date());
    },
  );

  app.post(
    '/Stop',
    {
      schema: {
        ...base,
        summary: 'Ends one of this phone’s Quick Park sessions now; the unused whole minutes are refunded to the card',
        body: StopRequest,
        response: { 200: StopResponse, 404: ErrorResponse, 409: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (req) => stopOwned(app.db, app.wallet.provider, { guestPhone: req.guestPhone }, req.body.SessionId, new Date()),
  );

  app.post(
    '/ExtendQuote',
    {
      schema: {
        ...base,
        summary: 'A price for more minutes of one of this phone’s running sessions (held 5 minutes), paid by the same card',
        body: GuestExtendQuoteRequest,
        response: { 200: Quote, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => quoteGuestExtend(app.db, req.guestPhone, req.body, new Date()),
  );

  app.post(
    '/Extend',
    {
      config: { rateLimit: MONEY_RATE_LIMIT },
      schema: {
        ...base,
        summary: 'Pays an extension quote with the card the session was paid with (the quote is spent once)',
        body: GuestExtendRequest,
        response: { 200: ParkingSession, 402: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (req) => extendGuest(app.db, app.wallet.provider, req.guestPhone, req.body, new Date()),
  );
};

export default guestRoutes;
