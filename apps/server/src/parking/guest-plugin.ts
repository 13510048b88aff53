import fp from 'fastify-plugin';
import type { ChargeContext } from '../wallet/index.ts';
import { releaseRefund } from './card-payments.ts';
import { recordGuestExtend } from './guest-extend.ts';
import { receiptLink, recordGuestStart, releaseQuote, type GuestLink } from './guest-service.ts';
import { guestTokenSigner, type GuestTokenSigner } from './guest-token.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Quick Park's phone-verified guest tokens. */
    guestTokens: GuestTokenSigner;
  }
  interface FastifyRequest {
    /** Quick Park: the verified phone of the request's guest token, in the guest scope (routes/scopes.ts guestOnly). */
    guestPhone: string;
  }
}

/**
 * How the wallet job records or releases Quick Park's card movements left pending by a request
 * that died (wallet/charges.ts recoverCharges): a start opens its session (the receipt's link
 * carries a new guest token), an extension moves the end, a refund is only marked; a refusal frees
 * the quote, or uncounts the refund's share.
 */
export function quickParkChargeHandlers(ctx: ChargeContext, link: GuestLink): NonNullable<ChargeContext['handlers']> {
  return {
    'quick-park-start': {
      record: (tx, charge, chargeRef) => recordGuestStart(tx, charge, chargeRef, link, new Date()),
      release: releaseQuote,
    },
    'quick-park-extend': {
      record: (tx, charge, chargeRef) => recordGuestExtend(tx, ctx, charge, chargeRef, new Date()),
      release: releaseQuote,
    },
    'quick-park-refund': { record: async () => {}, release: releaseRefund },
  };
}

export default fp<{ secret: string }>(
  async (app, { secret }) => {
    const signer = guestTokenSigner(secret);
    app.decorate('guestTokens', signer);
    app.decorateRequest('guestPhone', '');
    const handlers = (app.wallet.handlers ??= {});
    Object.assign(
      handlers,
      quickParkChargeHandlers(app.wallet, async (sessionId, phone) =>
        receiptLink(sessionId, (await signer.sign(phone)).token),
      ),
    );
  },
  { name: 'guest-tokens', dependencies: ['wallet'] },
);
