import fp from 'fastify-plugin';
import { guestTokenSigner, type GuestTokenSigner } from './guest-token.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Quick Park's phone-verified guest tokens (issue 11). */
    guestTokens: GuestTokenSigner;
  }
}

export default fp<{ secret: string }>(
  async (app, { secret }) => {
    app.decorate('guestTokens', guestTokenSigner(secret));
  },
  { name: 'guest-tokens' },
);
