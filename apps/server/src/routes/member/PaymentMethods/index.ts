import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddCardRequest,
  CardSummary,
  DeleteCardResponse,
  ErrorResponse,
  PaymentMethodIdRequest,
  SetupIntentResponse,
  WALLET_MESSAGES,
  WALLET_TEXTS,
} from '@parkit/contract';
import { z } from 'zod';
import { HttpError, notFound } from '../../../lib/http-error.ts';
import { lockMember } from '../../../members/index.ts';
import * as cards from '../../../wallet/index.ts';
import { CardError, saveProviderCustomer, type stripeProvider } from '../../../wallet/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';

const member = { tags: ['PaymentMethods'] };
const refused = { 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

/** /api/PaymentMethods: the member's saved cards. Only brand, last 4 and expiry are kept. */
const paymentMethodRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/List',
    {
      schema: {
        ...member,
        summary: 'The member’s saved cards, default first',
        response: { 200: z.array(CardSummary) },
      },
    },
    async (req) => (await cards.listCards(app.db, req.member.memberId)).map(cards.toCardSummary),
  );

  app.post(
    '/SetupIntent',
    {
      schema: {
        ...member,
        summary: 'Stripe only: a SetupIntent client secret for Stripe Elements (404 while the sandbox is the provider)',
        response: { 200: SetupIntentResponse, ...refused },
      },
    },
    async (req) => {
      if (!app.wallet.stripe) throw new HttpError(404, 'Not found');
      const memberId = req.member.memberId;
      const provider = app.wallet.provider as ReturnType<typeof stripeProvider>;
      const settings = await cards.ensureSettings(app.db, memberId);
      const customer = await provider.ensureCustomer(memberId, settings.providerCustomerId);
      if (customer && customer !== settings.providerCustomerId) {
        await saveProviderCustomer(app.db, memberId, customer);
      }
      return {
        ClientSecret: await provider.createSetupIntent(customer ?? ''),
        PublishableKey: app.wallet.stripe.publishableKey,
      };
    },
  );

  app.post(
    '/Add',
    {
      config: { rateLimit: MONEY_RATE_LIMIT },
      schema: {
        ...member,
        summary:
          'Save a card from a provider token (sandbox token or Stripe pm_… id) once it is verified (402: declined, with the reason); the first card becomes the default',
        body: AddCardRequest,
        response: { 201: CardSummary, 402: ErrorResponse, ...refused },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      const settings = await cards.ensureSettings(app.db, memberId);
      let saved;
      try {
        saved = await app.wallet.provider.attach(req.body.Token, settings.providerCustomerId);
      } catch (err) {
        if (err instanceof CardError)
          throw new HttpError(err.status, err.message, [{ field: 'Token', message: err.message }]);
        throw err;
      }
      const row = await app.db.transaction(async (tx) => {
        if (!(await lockMember(tx, memberId))) throw notFound();
        return cards.insertCard(tx, memberId, app.wallet.provider.name, saved, req.body.MakeDefault ?? false);
      });
      return reply.code(201).send(cards.toCardSummary(row));
    },
  );

  app.post(
    '/SetDefault',
    {
      schema: {
        ...member,
        summary: 'Make one of the member’s cards the default',
        body: PaymentMethodIdRequest,
        response: { 200: CardSummary, ...refused },
      },
    },
    async (req) => {
      const memberId = req.member.memberId;
      const row = await app.db.transaction(async (tx) => {
        if (!(await lockMember(tx, memberId))) throw notFound();
        return cards.setDefault(tx, memberId, req.body.PaymentMethodId);
      });
      return cards.toCardSummary(row);
    },
  );

  app.post(
    '/Delete',
    {
      schema: {
        ...member,
        summary: 'Delete one of the member’s cards; deleting the default card switches auto-reload off',
        body: PaymentMethodIdRequest,
        response: { 200: DeleteCardResponse, ...refused },
      },
    },
    async (req) => {
      const memberId = req.member.memberId;
      const { card, autoReloadTurnedOff } = await app.db.transaction(async (tx) => {
        if (!(await lockMember(tx, memberId))) throw notFound();
        return cards.deleteCard(tx, memberId, req.body.PaymentMethodId);
      });
      await app.wallet.provider.detach(card.providerRef);
      return {
        message: autoReloadTurnedOff ? WALLET_MESSAGES.defaultCardDeleted : WALLET_TEXTS.cardDeleted,
        AutoReloadTurnedOff: autoReloadTurnedOff,
      };
    },
  );
};

export default paymentMethodRoutes;
