import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import {
  ENFORCEMENT_KEY_HEADER,
  ErrorResponse,
  HISTORY_MESSAGES,
  OPERATOR_MESSAGES,
  type OperatorRole,
  QUICK_PARK_MESSAGES,
  SPEC_MESSAGES,
  SUPPORT_MESSAGES,
} from '@parkit/contract';
import { HttpError, tooManyRequests } from '../lib/http-error.ts';
import { hitWindow, type Limit } from '../infra/rate-limits/rate-limit-repository.ts';
import { identifyKey, markKeyUsed, verifyKey } from '../enforcement/index.ts';
import { isAgent } from '../support/index.ts';
import { rolesOf } from '../operators/index.ts';

/**
 * The one shape of a route (routes/README.md). Every route answers these errors in the same JSON
 * (docs/architecture.md#api-conventions); a route declares only the answers of its own (200, 404, 409, ...).
 */
export const commonErrors = { 429: ErrorResponse, 500: ErrorResponse } as const;
/** A route that reads input can refuse it. */
export const inputErrors = { 400: ErrorResponse } as const;
/** What a route behind a bearer token can answer besides its own. */
export const memberErrors = { 401: ErrorResponse, 403: ErrorResponse } as const;
/** What a Quick Park route behind a guest token can answer besides its own. */
export const guestErrors = { 401: ErrorResponse } as const;
/** What a route behind an operator's API key can answer besides its own. */
export const operatorKeyErrors = { 401: ErrorResponse } as const;

type Security = Array<Record<string, string[]>>;
type Schema = {
  hide?: boolean;
  description?: string;
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  security?: Security;
  response?: Record<string, unknown>;
};

/** Adds `responses` a route does not declare itself, and sets its security. */
function shape(route: RouteOptions, responses: Record<number, unknown>, security?: Security) {
  const schema = route.schema as Schema | undefined;
  if (!schema || schema.hide) return; // the docs' and static files' own routes
  schema.response = { ...responses, ...schema.response };
  if (security) schema.security = security;
}

/** Every API route: the common errors, 400 when it reads input, and public unless a scope says otherwise. */
export function apiShape(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Schema | undefined;
    const readsInput = Boolean(schema?.body ?? schema?.querystring ?? schema?.params);
    shape(route, { ...commonErrors, ...(readsInput ? inputErrors : {}) });
    if (schema && !schema.hide) schema.security ??= [];
  });
}

/**
 * Members only: everything registered in this scope needs a valid bearer token (and an xapikey
 * matching it), is documented as such and answers 401/403. Authentication is added here once;
 * route files never add it themselves.
 */
export function memberOnly(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    shape(route, memberErrors, [{ bearer: [] }]);
    // A route hook after the rate limit's (@fastify/rate-limit adds its own to each route's
    // onRequest before this scope's onRoute runs): requests without a valid token count against
    // their address too, instead of a 401 that nothing counts.
    route.onRequest = [...[route.onRequest ?? []].flat(), app.authenticate];
    // Then, before the input is validated, that the token's session is still current.
    route.preValidation = [...[route.preValidation ?? []].flat(), app.verifySession];
  });
}

/**
 * Support agents only: the member scope's authentication, then the agent role, checked
 * against the database on every request (removing an agent takes effect at once). Any other
 * member gets 403.
 */
export function agentOnly(app: FastifyInstance) {
  memberOnly(app);
  // After memberOnly's check that the token's member still exists and its session is current (a
  // stale or orphaned token is a 401, never this 403): its onRoute runs first and adds that one.
  const agentCheck = async (req: FastifyRequest) => {
    if (!(await isAgent(app.db, req.member.memberId))) throw new HttpError(403, SUPPORT_MESSAGES.agentsOnly);
  };
  app.addHook('onRoute', (route) => {
    route.preValidation = [...[route.preValidation ?? []].flat(), agentCheck];
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator scope (operatorOnly): the operator of the path and the signed-in person's role there. */
    staff: { operatorId: number; role: OperatorRole };
    /** The operator scope (operatorOnly): the signed-in person's role at each operator, read once a request. */
    staffRoles: Map<number, OperatorRole>;
  }
  interface FastifyContextConfig {
    /** The roles an operatorOnly route admits; every route in that scope names them. */
    operatorRoles?: readonly OperatorRole[];
  }
}

/**
 * An operator's staff only: the member scope's authentication, then
 * - before the input is read, the member's role at each operator they work for, one read
 *   (`req.staffRoles`): anyone who works for none (a driver) gets 403 on every route here;
 * - after it, for a route whose path carries `{operatorId}`, the member's role at that operator:
 *   someone who does not work for it gets 404 (as if it did not exist), a role the route's
 *   `config.operatorRoles` does not name gets 403. The route reads `req.staff`.
 * A route in this scope that names no roles fails at start. Roles are checked on every request,
 * so a removal or a role change takes effect at once.
 */
export function operatorOnly(app: FastifyInstance) {
  memberOnly(app);
  const staffCheck = async (req: FastifyRequest) => {
    req.staffRoles = await rolesOf(app.db, req.member.memberId);
    if (req.staffRoles.size === 0) throw new HttpError(403, OPERATOR_MESSAGES.staffOnly);
  };
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Schema | undefined;
    const roles = route.config?.operatorRoles;
    if (!roles || roles.length === 0)
      throw new Error(`${route.method} ${route.url}: an operator route names its roles`);
    if (schema && !schema.hide) {
      schema.response = { ...schema.response, 404: ErrorResponse };
      schema.description = `Roles: ${roles.join(', ')}.${schema.description ? ` ${schema.description}` : ''}`;
    }
    route.preValidation = [...[route.preValidation ?? []].flat(), staffCheck];
    route.preHandler = [
      async (req: FastifyRequest) => {
        const operatorId = (req.params as { operatorId?: number } | undefined)?.operatorId;
        if (operatorId === undefined) return;
        // Read before the input, in this request (staffCheck): a removal or a role change counts at once.
        const role = req.staffRoles.get(operatorId);
        if (!role) throw new HttpError(404, OPERATOR_MESSAGES.operatorNotFound);
        if (!roles.includes(role)) throw new HttpError(403, OPERATOR_MESSAGES.roleNotAllowed);
        req.staff = { operatorId, role };
      },
      ...[route.preHandler ?? []].flat(),
    ];
  });
}

/**
 * Quick Park guests only: everything registered in this scope needs the guest token a
 * verified phone got (header `x-guest-token`), finds that phone in `req.guestPhone`, answers 401
 * without one and is documented so. Checked after the input (preHandler), as each route did
 * itself before: a bad body is still a 400 first. The routes stay public in the document
 * (`security: []`): the token is not a member's bearer token.
 */
export function guestOnly(app: FastifyInstance) {
  app.addHook('onRoute', (route) => shape(route, guestErrors));
  app.addHook('preHandler', async (req) => {
    const raw = req.headers['x-guest-token'];
    const phone = typeof raw === 'string' && raw.length < 2000 ? await app.guestTokens.verify(raw) : null;
    if (!phone) throw new HttpError(401, QUICK_PARK_MESSAGES.guestTokenMissing);
    req.guestPhone = phone;
  });
}

/** An officer's phone checks a plate every few seconds at most; a script that scrapes does not. */
export const KEY_LIMIT = { bucket: 'enforcement-key', limit: 60, windowSeconds: 60 };
/** Guessing keys from one address. */
export const BAD_KEY_LIMIT = { bucket: 'enforcement-bad-key', limit: 20, windowSeconds: 600 };

/** The key an operator-key request presented: its row (live or revoked) if it matched one. */
export interface PresentedKey {
  presented: string | undefined;
  row: { id: number; operatorId: number; revoked: boolean } | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator scope (operatorKeyOnly): the key presented; its row is live past the scope's checks. */
    operatorKey: PresentedKey;
  }
  interface FastifyContextConfig {
    /** The operator scope calls this for each refusal it answers, before answering (the route audits it). */
    operatorKeyRefused?: (req: FastifyRequest, outcome: 'unauthorized' | 'rate_limited') => Promise<void>;
  }
}

/**
 * Operators' keys only: everything registered in this scope needs an operator's API key
 * (header ENFORCEMENT_KEY_HEADER), is documented so and answers 401 without a live one. Checked
 * after the input (preHandler): a bad query is a 400 first. Bad keys are limited per address
 * (BAD_KEY_LIMIT), good ones per key (KEY_LIMIT); a flood is told a window at a time: each 401 and
 * the window's first 429 reach the route's `operatorKeyRefused`, the refusals after it are only
 * counted, in rate_limits.
 */
export function operatorKeyOnly(app: FastifyInstance) {
  app.addHook('onRoute', (route) => shape(route, operatorKeyErrors, [{ operatorKey: [] }]));
  app.addHook('preHandler', async (req) => {
    const header = req.headers[ENFORCEMENT_KEY_HEADER];
    const presented = typeof header === 'string' ? header : undefined;
    const row = await identifyKey(app.db, app.operatorKeys, presented);
    req.operatorKey = { presented, row };
    const refused = req.routeOptions.config.operatorKeyRefused ?? (async () => {});
    const refuseOverLimit = async (limit: Limit, bucket: string, inMemory = false) => {
      const limited = inMemory ? countWindow(app, limit, bucket) : await hitWindow(app.db, limit, bucket);
      if (limited.wait > 0) {
        if (limited.firstRefusal) await refused(req, 'rate_limited');
        throw tooManyRequests(HISTORY_MESSAGES.tooManyChecks, limited.wait);
      }
    };
    if (!row || row.revoked) {
      await refuseOverLimit(BAD_KEY_LIMIT, req.ip);
      await refused(req, 'unauthorized');
      throw new HttpError(401, SPEC_MESSAGES.unauthorized);
    }
    // A live key's volume: counted in memory and shared by the rate limit's flush (no round trip).
    await refuseOverLimit(KEY_LIMIT, String(row.id), true);
  });
}

/**
 * hitWindow() counted by the rate limit's shared counts (infra/rate-limits/rate-limit-counts.ts):
 * exact in one process, other processes' hits seen one flush late (docs/decisions/011-two-rate-limits.md,
 * the volume policy). For a live key's checks a minute, not for guesses (bad keys stay exact).
 */
function countWindow(app: FastifyInstance, { bucket, limit, windowSeconds }: Limit, key: string) {
  const now = Date.now();
  const { count, end } = app.rateLimitCounts.hit(bucket, key, windowSeconds * 1000, now);
  return { wait: count > limit ? (end - now) / 1000 : 0, firstRefusal: count === limit + 1 };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The CDS feed scope (cdsKeyOnly): the operator whose live CDS key the request presented. */
    cdsOperatorId: number;
  }
}

/** Guessing CDS feed keys from one address. */
export const BAD_CDS_KEY_LIMIT = { bucket: 'cds-bad-key', limit: 20, windowSeconds: 600 };

/**
 * A city's CDS Events and Metrics feed (docs/open-data.md#authentication): everything registered
 * in this scope needs an operator's live CDS key as a bearer token (general-information.md,
 * Authorization), answers 401 without one and sees only that operator's data (`req.cdsOperatorId`).
 * An enforcement key is not a CDS key. Bad keys are limited per address (BAD_CDS_KEY_LIMIT); a good
 * one is marked as used (markKeyUsed).
 */
export function cdsKeyOnly(app: FastifyInstance) {
  app.addHook('onRoute', (route) => shape(route, operatorKeyErrors, [{ cdsKey: [] }]));
  app.addHook('preHandler', async (req) => {
    const header = req.headers.authorization;
    const presented = typeof header === 'string' && /^bearer /i.test(header) ? header.slice(7).trim() : undefined;
    const row = await verifyKey(app.db, app.operatorKeys, presented, 'cds');
    if (!row) {
      const limited = await hitWindow(app.db, BAD_CDS_KEY_LIMIT, req.ip);
      if (limited.wait > 0) throw tooManyRequests(HISTORY_MESSAGES.tooManyChecks, limited.wait);
      throw new HttpError(401, SPEC_MESSAGES.unauthorized);
    }
    req.cdsOperatorId = row.operatorId;
    await markKeyUsed(app.db, row.id);
  });
}
