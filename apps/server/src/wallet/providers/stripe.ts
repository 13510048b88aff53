import Stripe from 'stripe';
import { WALLET_MESSAGES } from '@parkit/contract';
import {
  CardError,
  type ChargeRequest,
  type ChargeResult,
  type PaymentProvider,
  type RefundRequest,
  type RefundResult,
  type SavedCard,
} from './types.ts';

export interface StripeOptions {
  secretKey: string;
  /** Tests only: a local server speaking Stripe's API (Stripe is not reachable from here). */
  apiUrl?: string | undefined;
}

export function stripeClient(opts: StripeOptions): Stripe {
  const url = opts.apiUrl ? new URL(opts.apiUrl) : null;
  return new Stripe(opts.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          protocol: url.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** Stripe out of reach for now (the network, its own side, its rate limit): asked again later. */
const unreachable = (err: unknown) =>
  err instanceof Stripe.errors.StripeConnectionError ||
  err instanceof Stripe.errors.StripeAPIError ||
  err instanceof Stripe.errors.StripeRateLimitError;

const TITLE: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
};

/**
 * The `stripe` provider: cards are saved with a SetupIntent confirmed by Stripe Elements in the
 * browser (the server only sees the pm_… id), and charged with off-session PaymentIntents.
 */
export function stripeProvider(
  opts: StripeOptions,
): PaymentProvider & { client: Stripe; createSetupIntent(customerRef: string): Promise<string> } {
  const client = stripeClient(opts);
  /** The reason the customer's latest SetupIntent tried with this card was declined, if it was. */
  async function setupDecline(customerRef: string, pmId: string): Promise<string | null> {
    const intents = await client.setupIntents.list({ customer: customerRef, limit: 10 });
    for (const si of intents.data) {
      const err = si.last_setup_error;
      const tried = typeof err?.payment_method === 'string' ? err.payment_method : err?.payment_method?.id;
      if (err && tried === pmId) return err.message || WALLET_MESSAGES.declined;
    }
    return null;
  }
  return {
    name: 'stripe',
    client,
    async createSetupIntent(customerRef) {
      const si = await client.setupIntents.create({ customer: customerRef, usage: 'off_session' });
      if (!si.client_secret) throw new Error('Stripe returned a SetupIntent without client_secret');
      return si.client_secret;
    },
    async ensureCustomer(memberId, existing) {
      if (existing) return existing;
      const c = await client.customers.create(
        { metadata: { member_id: String(memberId) } },
        { idempotencyKey: `customer:${memberId}` },
      );
      return c.id;
    },
    async attach(token, customerRef): Promise<SavedCard> {
      if (!/^pm_[A-Za-z0-9_]{1,200}$/.test(token)) throw new CardError(WALLET_MESSAGES.tokenInvalid);
      let pm: Stripe.PaymentMethod;
      try {
        pm = await client.paymentMethods.retrieve(token);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError) throw new CardError(WALLET_MESSAGES.tokenInvalid);
        throw err;
      }
      // A card confirmed by our SetupIntent is attached to the member's customer; anything else is refused.
      const owner = typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null);
      if (!pm.card || !customerRef || owner !== customerRef) {
        // Declined when its SetupIntent was confirmed: Stripe left the card unattached and said why.
        const declined = pm.card && customerRef ? await setupDecline(customerRef, pm.id) : null;
        if (declined) throw new CardError(declined, 'Token', 402);
        throw new CardError(WALLET_MESSAGES.tokenInvalid);
      }
      return {
        providerRef: pm.id,
        brand: TITLE[pm.card.brand] ?? pm.card.brand,
        last4: pm.card.last4,
        expMonth: pm.card.exp_month,
        expYear: pm.card.exp_year,
      };
    },
    async readExpress(token): Promise<SavedCard> {
      if (!/^pm_[A-Za-z0-9_]{1,200}$/.test(token)) throw new CardError(WALLET_MESSAGES.tokenInvalid, 'ExpressToken');
      let pm: Stripe.PaymentMethod;
      try {
        pm = await client.paymentMethods.retrieve(token);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError)
          throw new CardError(WALLET_MESSAGES.tokenInvalid, 'ExpressToken');
        throw err;
      }
      // The Express Checkout Element's PaymentMethod belongs to no customer; a saved card of
      // anyone's is not an express payment.
      if (!pm.card || pm.customer) throw new CardError(WALLET_MESSAGES.tokenInvalid, 'ExpressToken');
      return {
        providerRef: pm.id,
        brand: TITLE[pm.card.brand] ?? pm.card.brand,
        last4: pm.card.last4,
        expMonth: pm.card.exp_month,
        expYear: pm.card.exp_year,
      };
    },
    async charge(req: ChargeRequest): Promise<ChargeResult> {
      try {
        // A typed card that later charges reuse (a Quick Park guest's, charged again by Extend) is
        // saved on its first charge as Stripe documents it (https://docs.stripe.com/payments/save-during-payment):
        // a Customer of its own, then the PaymentIntent confirmed with `customer` and
        // `setup_future_usage`, which attaches the card to it. Both keys derive from the charge's,
        // so a retry (the wallet job's) finds the same customer and the same PaymentIntent.
        const saveUnder = req.saveCard
          ? (
              await client.customers.create(
                { description: req.description, metadata: { saved_by: 'quick-park' } },
                { idempotencyKey: `${req.idempotencyKey}:customer` },
              )
            ).id
          : null;
        const pi = await client.paymentIntents.create(
          {
            amount: req.amountCents,
            currency: req.currency,
            // A saved card is charged off-session under its customer; an express payment's card
            // (no customer) was confirmed by the driver a moment ago: on-session, as is a typed
            // card's first charge, which saves it.
            ...(saveUnder
              ? { customer: saveUnder, setup_future_usage: 'off_session' as const }
              : req.customerRef
                ? { customer: req.customerRef, off_session: true }
                : {}),
            payment_method: req.providerRef,
            confirm: true,
            description: req.description,
          },
          { idempotencyKey: req.idempotencyKey },
        );
        if (pi.status === 'succeeded' || pi.status === 'processing')
          return { ok: true, chargeRef: pi.id, customerRef: saveUnder };
        return { ok: false, reason: 'declined', message: WALLET_MESSAGES.declined };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeCardError)
          return { ok: false, reason: 'declined', message: err.message || WALLET_MESSAGES.declined };
        // A PaymentMethod Stripe does not know (a forged or another account's token, which a guest's
        // Start sends unread), or one it will not charge again (an express wallet's one-time card,
        // used once already): Stripe charged nothing, so refused as a card is, and the claim released.
        if (err instanceof Stripe.errors.StripeInvalidRequestError)
          return { ok: false, reason: 'declined', message: WALLET_MESSAGES.tokenInvalid };
        if (unreachable(err)) return { ok: false, reason: 'unavailable', message: WALLET_MESSAGES.providerUnavailable };
        throw err;
      }
    },
    async refund(req: RefundRequest): Promise<RefundResult> {
      try {
        const r = await client.refunds.create(
          { payment_intent: req.chargeRef, amount: req.amountCents },
          { idempotencyKey: req.idempotencyKey },
        );
        if (r.status === 'failed' || r.status === 'canceled')
          return { ok: false, reason: 'refused', message: WALLET_MESSAGES.refundRefused };
        return { ok: true, refundRef: r.id };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError)
          return { ok: false, reason: 'refused', message: WALLET_MESSAGES.refundRefused };
        if (unreachable(err)) return { ok: false, reason: 'unavailable', message: WALLET_MESSAGES.providerUnavailable };
        throw err;
      }
    },
    async deleteCustomer(customerRef) {
      try {
        // DELETE /v1/customers/{id} (https://docs.stripe.com/api/customers/delete): permanent, and
        // it removes the customer's card details with it, so the saved card cannot be charged again.
        await client.customers.del(customerRef);
        return { ok: true };
      } catch (err) {
        // Deleted already (a retry after a lost answer, or another process): what was asked is done.
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing')
          return { ok: true };
        if (
          err instanceof Stripe.errors.StripeInvalidRequestError ||
          err instanceof Stripe.errors.StripePermissionError
        )
          return { ok: false, reason: 'refused', message: err.message };
        if (unreachable(err)) return { ok: false, reason: 'unavailable', message: WALLET_MESSAGES.providerUnavailable };
        throw err;
      }
    },
    async detach(providerRef) {
      try {
        await client.paymentMethods.detach(providerRef);
      } catch {
        // Best effort: the card is already gone from our side.
      }
    },
  };
}
