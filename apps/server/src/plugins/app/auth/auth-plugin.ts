import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, SPEC_MESSAGES } from '@parkit/contract';
import { HttpError } from '../../../lib/http-error.ts';
import * as members from '../members/member-repository.ts';
import { SessionRegistry } from './session-registry.ts';
import { tokenSigner, type AccessClaims, type TokenSigner } from './tokens.ts';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenSigner;
    /** Per-address sign-in limits are multiplied by this (ADDRESS_RATE_LIMIT_SCALE). */
    addressLimitScale: number;
    /** Cookies carry Secure unless development or test was asked for (NODE_ENV). */
    secureCookies: boolean;
    sessions: SessionRegistry;
    /** onRequest hook of member-only routes: a valid bearer token, and xapikey matching it. */
    authenticate: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    member: AccessClaims;
  }
}

const CLAIMS = Symbol('bearer claims');
const ARRIVED = Symbol('arrived at');
type WithClaims = FastifyRequest & { [CLAIMS]?: Promise<AccessClaims | null>; [ARRIVED]?: number };

/** The verified claims of the request's bearer token (checked once per request), or null. */
export function bearerClaims(app: FastifyInstance, req: FastifyRequest): Promise<AccessClaims | null> {
  const r = req as WithClaims;
  if (!r[CLAIMS]) {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    r[CLAIMS] = token ? app.tokens.verify(token) : Promise.resolve(null);
  }
  return r[CLAIMS];
}

export default fp<{ secret: string; addressLimitScale: number; secureCookies: boolean }>(
  async (app, { secret, addressLimitScale, secureCookies }) => {
    app.decorate('tokens', tokenSigner(secret));
    app.decorate('addressLimitScale', addressLimitScale);
    app.decorate('secureCookies', secureCookies);
    app.decorate('sessions', new SessionRegistry());
    app.decorateRequest('member', null as unknown as AccessClaims);
    app.addHook('onRequest', async (req) => {
      (req as WithClaims)[ARRIVED] = Date.now();
    });
    app.decorate('authenticate', async (req: FastifyRequest) => {
      const claims = await bearerClaims(app, req);
      if (!claims) throw new HttpError(401, SPEC_MESSAGES.unauthorized);
      // DESIGN.md section 4: the spec's xapikey carries the member id; a mismatch is refused.
      const apiKey = req.headers.xapikey;
      if (apiKey !== undefined && apiKey !== '' && apiKey !== String(claims.memberId)) {
        throw new HttpError(403, MESSAGES.forbidden);
      }
      req.member = claims;
    });
    // After every onRequest hook (authentication, then the rate limit, whose statement read the
    // member's session version): a token of a member who no longer exists, or made before a
    // logout or a password change, is refused (issue 8, items 6 and 7). Only when the rate limit
    // did not read the version does this ask the database itself.
    app.addHook('preValidation', async (req) => {
      const claims = req.member;
      if (!claims) return;
      const seen = app.sessions.since(claims.memberId, (req as WithClaims)[ARRIVED] ?? Date.now());
      const version = seen ? seen.version : await members.sessionVersion(app.db, claims.memberId);
      if (version === null || version !== claims.sessionVersion) throw new HttpError(401, SPEC_MESSAGES.unauthorized);
    });
  },
  { name: 'auth' },
);
