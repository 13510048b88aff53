import type { FastifyPluginAsync } from 'fastify';
import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { ErrorResponse, WebhookAck } from '@parkit/contract';
import { paymentMethods, providerEvents, walletSettings } from '../../../db/schema/index.ts';
import { HttpError, notFound } from '../../../lib/http-error.ts';
import { lockMember } from '../../../members/index.ts';
import { deleteCard, insertCard, type stripeProvider } from '../../../wallet/index.ts';

/**
 * POST /api/Stripe/Webhook: verifies the Stripe-Signature with STRIPE_WEBHOOK_SECRET over the raw
 * body, and handles each event id once (provider_events). setup_intent.succeeded saves the card if
 * the browser never came back; payment_method.detached forgets it. 404 unless Stripe is configured.
 */
const stripeRoutes: FastifyPluginAsync = async (app) => {
  // The signature covers the exact bytes: keep them (this plugin only).
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));

  app.post(
    '/Webhook',
    { schema: { tags: ['Stripe'], security: [], summary: 'Stripe events (signed); idempotent on the event id', response: { 200: WebhookAck, 400: ErrorResponse, 404: ErrorResponse } } },
    async (req) => {
      const cfg = app.wallet.stripe;
      if (!cfg?.webhookSecret) throw new HttpError(404, 'Not found');
      const provider = app.wallet.provider as ReturnType<typeof stripeProvider>;
      const signature = req.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(req.body)) throw new HttpError(400, 'Missing Stripe-Signature');
      let event: Stripe.Event;
      try {
        event = provider.client.webhooks.constructEvent(req.body, signature, cfg.webhookSecret);
      } catch {
        throw new HttpError(400, 'Invalid signature');
      }
      const fresh = await app.db.insert(providerEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().returning({ id: providerEvents.id });
      if (fresh.length === 0) return { received: true, duplicate: true };
      if (event.type === 'setup_intent.succeeded') {
        const si = event.data.object;
        const customer = typeof si.customer === 'string' ? si.customer : (si.customer?.id ?? null);
        const pm = typeof si.payment_method === 'string' ? si.payment_method : (si.payment_method?.id ?? null);
        if (customer && pm) {
          const [owner] = await app.db.select({ memberId: walletSettings.memberId }).from(walletSettings).where(eq(walletSettings.providerCustomerId, customer));
          if (owner) {
            const card = await provider.attach(pm, customer);
            await app.db.transaction(async (tx) => {
              if (!(await lockMember(tx, owner.memberId))) throw notFound();
              const [exists] = await tx.select({ id: paymentMethods.id }).from(paymentMethods).where(and(eq(paymentMethods.memberId, owner.memberId), eq(paymentMethods.providerRef, pm)));
              if (!exists) await insertCard(tx, owner.memberId, 'stripe', card, false);
            });
          }
        }
      } else if (event.type === 'payment_method.detached') {
        const pm = event.data.object;
        const [row] = await app.db.select().from(paymentMethods).where(eq(paymentMethods.providerRef, pm.id));
        if (row) {
          await app.db.transaction(async (tx) => {
            if (!(await lockMember(tx, row.memberId))) throw notFound();
            await deleteCard(tx, row.memberId, row.id).catch(() => undefined);
          });
        }
      }
      req.log.info({ eventId: event.id, type: event.type }, 'stripe event handled');
      return { received: true, duplicate: false };
    },
  );
};

export default stripeRoutes;
