import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, SPEC_MESSAGES } from '@parkit/contract';
import { HttpError } from '../../../lib/http-error.ts';
import { tokenSigner, type AccessClaims, type TokenSigner } from './tokens.ts';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenSigner;
    /** Per-address sign-in limits are multiplied by this (ADDRESS_RATE_LIMIT_SCALE). */
    addressLimitScale: number;
    /** preHandler for member-only routes: a valid bearer token, and xapikey matching it. */
    authenticate: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    member: AccessClaims;
  }
}

export default fp<{ secret: string; addressLimitScale: number }>(
  async (app, { secret, addressLimitScale }) => {
    const tokens = tokenSigner(secret);
    app.decorate('tokens', tokens);
    app.decorate('addressLimitScale', addressLimitScale);
    app.decorateRequest('member', null as unknown as AccessClaims);
    app.decorate('authenticate', async (req: FastifyRequest) => {
      const header = req.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
      const claims = token ? await tokens.verify(token) : null;
      if (!claims) throw new HttpError(401, SPEC_MESSAGES.unauthorized);
      // DESIGN.md section 4: the spec's xapikey carries the member id; a mismatch is refused.
      const apiKey = req.headers.xapikey;
      if (apiKey !== undefined && apiKey !== '' && apiKey !== String(claims.memberId)) {
        throw new HttpError(403, MESSAGES.forbidden);
      }
      req.member = claims;
    });
  },
  { name: 'auth' },
);
