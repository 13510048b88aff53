import fp from 'fastify-plugin';
import { guestTokenSigner, type GuestTokenSigner } from './guest-token.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Quick Park's phone-verified guest tokens (issue 11). */
    guestTokens: GuestTokenSigner;
  }
  interface FastifyRequest {
    /** Quick Park: the verified phone of the request's guest token, in the guest scope (routes/scopes.ts guestOnly). */
    guestPhone: string;
  }
}

export default fp<{ secret: string }>(
  async (app, { secret }) => {
    app.decorate('guestTokens', guestTokenSigner(secret));
    app.decorateRequest('guestPhone', '');
  },
  { name: 'guest-tokens' },
);
