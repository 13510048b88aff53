import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  GuestExtendQuote,
  GuestExtendQuoteRequest,
  GuestExtendRequest,
  GuestPayment,
  GuestQuote,
  GuestQuoteRequest,
  GuestStartRequest,
  IdempotencyHeaders,
  ParkingSession,
  SessionParams,
  SessionReceipt,
  StopRequest,
  StopResponse,
} from '@parkit/contract';
import { notFound } from '../../../lib/http-error.ts';
import {
  quoteGuest,
  receiptLink,
  startGuest,
  stopOwned,
  extendGuest,
  quoteGuestExtend,
} from '../../../parking/index.ts';
import * as sessions from '../../../parking/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';
import { idempotencyKeyOf } from '../../../wallet/index.ts';

const base = { tags: ['Quick Park'] };

/**
 * /api/Parking/Guest with a guest token (the guest scope, routes/scopes.ts guestOnly: 401 without
 * one): the phone's quotes, payments and sessions. The code and the token are public
 * (public/Parking/guest-code.ts).
 */
const guestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/Quote',
    {
      schema: {
        ...base,
        summary: 'A Quick Park price for a zone number, plate and duration (held 5 minutes), with the zone it names',
        body: GuestQuoteRequest,
        response: { 200: GuestQuote, 409: ErrorResponse },
      },
    },
    async (req) => quoteGuest(app.db, req.guestPhone, req.body, new Date()),
  );

  app.get(
    '/Payment',
    {
      schema: {
        ...base,
        summary: 'How the guest’s card is taken: the payment provider and, with Stripe, its publishable key',
        response: { 200: GuestPayment },
      },
    },
    async () => ({
      PaymentProvider: app.wallet.provider.name,
      PublishableKey: app.wallet.stripe?.publishableKey || null,
      Currency: app.wallet.currency.toUpperCase(),
    }),
  );

  app.post(
    '/Start',
    {
      config: { rateLimit: MONEY_RATE_LIMIT },
      schema: {
        ...base,
        summary:
          'Pays a Quick Park quote with a card (CardToken) or an express wallet’s one-time card (ExpressToken) and starts the session; the receipt goes to the phone with a link to it',
        description:
          'A typed card is saved by this first charge, so the session’s Extend can charge it again (with Stripe: under a customer of its own, created for this charge); an express wallet’s card is kept nowhere. With an Idempotency-Key, the same quote sent again with the same key (a double tap, a retry after a lost answer) answers the session the first request started (waiting for its card charge), not 409 "This price has expired".',
        headers: IdempotencyHeaders,
        body: GuestStartRequest,
        response: { 201: ParkingSession, 402: ErrorResponse, 409: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (req, reply) => {
      const token = String(req.headers['x-guest-token']);
      // Optional here (the quote itself is spent once): with one, a repeat answers the first's session.
      const key = req.headers['idempotency-key'] === undefined ? null : idempotencyKeyOf(req);
      const session = await startGuest(
        app.wallet,
        req.guestPhone,
        req.body,
        (id) => receiptLink(id, token),
        new Date(),
        key,
      );
      return reply.code(201).send(session);
    },
  );

  app.get(
    '/Session/:id',
    {
      schema: {
        ...base,
        summary: 'One of this phone’s Quick Park sessions, with its payments',
        params: SessionParams,
        response: { 200: SessionReceipt, 404: ErrorResponse },
      },
    },
    async (req) => {
      const found = await sessions.findOwned(app.db, { guestPhone: req.guestPhone }, req.params.id);
      if (!found) throw notFound();
      return sessions.sessionReceipt(app.db, found, new Date());
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
    async (req) => stopOwned(app.wallet, { guestPhone: req.guestPhone }, req.body.SessionId, new Date()),
  );

  app.post(
    '/ExtendQuote',
    {
      schema: {
        ...base,
        summary:
          'A price for more minutes of one of this phone’s running sessions (held 5 minutes), paid by the same card, or by a new express payment when the session keeps none (ExpressRequired)',
        body: GuestExtendQuoteRequest,
        response: { 200: GuestExtendQuote, 404: ErrorResponse, 409: ErrorResponse },
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
        summary:
          'Pays an extension quote with the card the session was paid with, or with an express payment (ExpressToken) when an express wallet paid the session (the quote is spent once)',
        description:
          'A session an express wallet paid keeps no card: without an ExpressToken its Extend is refused with 400 and nothing changes. With an Idempotency-Key, the same request sent again answers the session the first one extended (waiting for its card charge), not 409 "This price has expired".',
        headers: IdempotencyHeaders,
        body: GuestExtendRequest,
        response: {
          200: ParkingSession,
          402: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          503: ErrorResponse,
        },
      },
    },
    async (req) =>
      extendGuest(
        app.wallet,
        req.guestPhone,
        req.body,
        new Date(),
        // Optional here, as Start's (the quote itself is spent once).
        req.headers['idempotency-key'] === undefined ? null : idempotencyKeyOf(req),
      ),
  );
};

export default guestRoutes;
