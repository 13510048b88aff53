import type { FastifyPluginAsync } from 'fastify';
import type Stripe from 'stripe';
import { ErrorResponse, WebhookAck } from '@parkit/contract';
import { HttpError } from '../../../lib/http-error.ts';
import { handleStripeEvent, type stripeProvider } from '../../../wallet/index.ts';

/**
 * POST /api/Stripe/Webhook: verifies the Stripe-Signature with STRIPE_WEBHOOK_SECRET over the raw
 * body, and handles each event id once (handleStripeEvent, wallet/stripe-events.ts).
 * 404 unless Stripe is configured.
 */
const stripeRoutes: FastifyPluginAsync = async (app) => {
  // The signature covers the exact bytes: keep them (this plugin only).
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) =>
    done(null, body),
  );

  app.post(
    '/Webhook',
    {
      schema: {
        tags: ['Stripe'],
        security: [],
        summary: 'Stripe events (signed); idempotent on the event id',
        response: { 200: WebhookAck, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const cfg = app.wallet.stripe;
      if (!cfg?.webhookSecret) throw new HttpError(404, 'Not found');
      const provider = app.wallet.provider as ReturnType<typeof stripeProvider>;
      const signature = req.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(req.body))
        throw new HttpError(400, 'Missing Stripe-Signature');
      let event: Stripe.Event;
      try {
        event = provider.client.webhooks.constructEvent(req.body, signature, cfg.webhookSecret);
      } catch {
        throw new HttpError(400, 'Invalid signature');
      }
      const { duplicate } = await handleStripeEvent(app.db, provider, event);
      if (duplicate) return { received: true, duplicate: true };
      req.log.info({ eventId: event.id, type: event.type }, 'stripe event handled');
      return { received: true, duplicate: false };
    },
  );
};

export default stripeRoutes;
