import fp from 'fastify-plugin';
import { primaryElseReplica } from '../db/unavailable.ts';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
  preValidationHookHandler,
} from 'fastify';
import { MESSAGES, SPEC_MESSAGES } from '@parkit/contract';
import { HttpError } from '../lib/http-error.ts';
import * as members from '../members/index.ts';
import { SESSION_CHANNEL, SessionCache, type Ticket } from '../members/index.ts';
import { tokenSigner, type AccessClaims, type ClaimsOrPromise, type TokenSigner } from './tokens.ts';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenSigner;
    /** Per-address sign-in limits are multiplied by this (ADDRESS_RATE_LIMIT_SCALE). */
    addressLimitScale: number;
    /** Cookies carry Secure unless development or test was asked for (NODE_ENV). */
    secureCookies: boolean;
    /** onRequest hook of member-only routes: a valid bearer token, and xapikey matching it. */
    authenticate: onRequestHookHandler;
    /** preValidation hook of member-only routes: the token's session is still current. */
    verifySession: preValidationHookHandler;
    /** Member id -> session version of this process (session-cache.ts); forget() after a change commits. */
    sessionCache: SessionCache;
  }
  interface FastifyRequest {
    member: AccessClaims;
  }
  interface FastifyContextConfig {
    /**
     * A GET route whose own statement reads the member's session version and hands it to
     * checkSession() (it also fills the cache); every other member-only route has it checked
     * before its handler runs, from the cache or, on a miss, by one statement.
     * 'gates-writes': a write whose one statement writes nothing unless the version is the
     * token's, and hands the version it read to checkSession() before anything else runs
     * (POST /api/Parking/Start, wallet/idempotency.ts's OneStatement).
     */
    sessionInQuery?: boolean | 'gates-writes';
  }
}

const TICKET = Symbol('session ticket');
type WithTicket = FastifyRequest & { [TICKET]?: Ticket };

/**
 * A token of a member who no longer exists (version null), or made before
 * a logout or a password change, is refused. A sessionInQuery route's fresh version fills the cache.
 */
export function checkSession(req: FastifyRequest, version: number | null | undefined): void {
  const err = sessionError(req, version);
  if (err) throw err;
}

/**
 * Whether verifySession left this request's session check to the route's statement (a
 * sessionInQuery route, and the version not in this process's cache): then the route must call
 * checkSession() with the version its statement read, before it answers or writes anything else.
 */
export function sessionLeftToRoute(req: FastifyRequest): boolean {
  return (req as WithTicket)[TICKET] !== undefined;
}

/**
 * Whether verifySession leaves the check to the route's statement: a sessionInQuery route, and for
 * a write ('gates-writes') only when its body will pass validation, so that a token of another
 * session is refused with 401 before a bad body is with 400, as on every other route.
 */
function leftToStatement(req: FastifyRequest): boolean {
  const mode = req.routeOptions.config.sessionInQuery;
  if (mode !== 'gates-writes') return mode === true;
  const body = req.routeOptions.schema?.body as { safeParse?: (v: unknown) => { success: boolean } } | undefined;
  return body?.safeParse?.(req.body).success === true;
}

/** checkSession's refusal, returned instead of thrown (for a hook's done()). */
function sessionError(req: FastifyRequest, version: number | null | undefined): HttpError | undefined {
  const ticket = (req as WithTicket)[TICKET];
  if (ticket) req.server.sessionCache.remember(req.member.memberId, version, ticket);
  if (version === null || version === undefined || version !== req.member.sessionVersion)
    return new HttpError(401, SPEC_MESSAGES.unauthorized);
  return undefined;
}

const CLAIMS = Symbol('bearer claims');
type WithClaims = FastifyRequest & { [CLAIMS]?: ClaimsOrPromise };

/**
 * The verified claims of the request's bearer token (checked once per request), or null: at once
 * for a token verified before (the common case), else a promise (tokens.ts).
 */
export function bearerClaims(app: FastifyInstance, req: FastifyRequest): ClaimsOrPromise {
  const r = req as WithClaims;
  if (r[CLAIMS] === undefined) {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const claims = token ? app.tokens.verify(token) : null;
    r[CLAIMS] = claims;
    if (claims instanceof Promise) void claims.then((c) => (r[CLAIMS] = c));
  }
  return r[CLAIMS];
}

export default fp<{ secret: string; addressLimitScale: number; secureCookies: boolean }>(
  async (app, { secret, addressLimitScale, secureCookies }) => {
    app.decorate('tokens', tokenSigner(secret));
    app.decorate('addressLimitScale', addressLimitScale);
    app.decorate('secureCookies', secureCookies);
    app.decorateRequest('member', null as unknown as AccessClaims);
    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      const write = methods.some((m) => m !== 'GET' && m !== 'HEAD');
      if (route.config?.sessionInQuery && write !== (route.config.sessionInQuery === 'gates-writes')) {
        throw new Error(
          `${route.url}: sessionInQuery is for reads (GET); a write says 'gates-writes' (its statement writes nothing for another session version), and only a write does`,
        );
      }
    });
    // Callback style: a token verified before answers without a promise.
    app.decorate('authenticate', (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const claims = bearerClaims(app, req);
      if (claims instanceof Promise) return void claims.then((c) => admit(req, c, done), done);
      admit(req, claims, done);
    });
    function admit(req: FastifyRequest, claims: AccessClaims | null, done: HookHandlerDoneFunction) {
      if (!claims) return done(new HttpError(401, SPEC_MESSAGES.unauthorized));
      // docs/architecture.md#api-conventions: the spec's xapikey carries the member id; a mismatch is refused.
      const apiKey = req.headers.xapikey;
      if (apiKey !== undefined && apiKey !== '' && apiKey !== String(claims.memberId)) {
        return done(new HttpError(403, MESSAGES.forbidden));
      }
      req.member = claims;
      done();
    }
    const cache = new SessionCache(app.notifications);
    app.decorate('sessionCache', cache);
    app.notifications.listen(SESSION_CHANNEL, (payload) => {
      const id = Number(payload);
      if (Number.isSafeInteger(id)) cache.forget(id);
    });
    // After every onRequest hook (authentication, then the rate limit): the member's session
    // version from this process's cache; on a miss (the member's first request here, or LISTEN
    // having been down) one statement reads it, unless the route's own statement does. Added to
    // the member-only routes by their scope (routes/scopes.ts), after authenticate: a public route
    // has no member to check and runs no hook for it.
    // Callback style: a cache hit answers without a promise.
    app.decorate('verifySession', (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const claims = req.member;
      if (!claims) return done(new HttpError(401, SPEC_MESSAGES.unauthorized));
      const known = cache.get(claims.memberId);
      if (known !== undefined) return done(sessionError(req, known));
      const ticket = cache.ticket();
      (req as WithTicket)[TICKET] = ticket;
      if (leftToStatement(req)) return done();
      // The primary away (a failover): a read is let through on a replica's copy of the version,
      // so history, receipts and zones keep answering; a write waits for the primary.
      (req.method === 'GET'
        ? primaryElseReplica(app.db, app.reads, (db) => members.sessionVersion(db, claims.memberId))
        : members.sessionVersion(app.db, claims.memberId)
      ).then((version) => done(sessionError(req, version)), done);
    });
  },
  { name: 'auth', dependencies: ['notifications'] },
);
