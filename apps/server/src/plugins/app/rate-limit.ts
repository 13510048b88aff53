import fp from 'fastify-plugin';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { MESSAGES } from '@parkit/contract';
import { queryRows } from '../../db/client.ts';
import { tooManyRequests } from '../../lib/http-error.ts';
import { bearerClaims } from './auth/auth-plugin.ts';
import type { SessionRegistry } from './auth/session-registry.ts';

/**
 * Every route is rate-limited per member (a valid bearer token) and per address (issue 8, item 9),
 * with @fastify/rate-limit and a store in PostgreSQL that every process shares. RateLimit-* headers
 * (IETF draft) on every answer, 429 with Retry-After past the limit.
 *
 * A route asks for its own, stricter limit with the plugin's own knob (counted apart from the
 * rest, per route):
 *     app.post('/AddMoney', { config: { rateLimit: MONEY_RATE_LIMIT }, schema: … }, handler)
 * or any `{ max, timeWindow }` of @fastify/rate-limit. `max` is per member; an address may make
 * ADDRESS_FACTOR times as many (several members behind one address), times
 * ADDRESS_RATE_LIMIT_SCALE.
 */
/** The default: API_RATE_LIMIT (300) a minute per member. */
export const DEFAULT_RATE_LIMIT = { max: 300, timeWindow: 60_000 } as const satisfies RateLimitOptions;
/** Money routes (wallet, payments, parking purchases): 20 a minute per member. */
export const MONEY_RATE_LIMIT = { max: 20, timeWindow: 60_000 } as const satisfies RateLimitOptions;
export const ADDRESS_FACTOR = 4;

interface StoreParams {
  routeInfo?: { method?: string | string[]; url?: string };
}

type IncrCallback = (err: Error | null, res?: { current: number; ttl: number }) => void;

export default fp<{ max: number; addressScale: number; sessions: SessionRegistry }>(
  async (app, { max, addressScale, sessions }) => {
    const factor = ADDRESS_FACTOR * addressScale;
    let lastPrune = Date.now();

    /** One statement: count the address and the member, and read the member's session version. */
    async function count(bucket: string, key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
      const [ip, member] = key.split('|');
      const memberId = member ? Number(member) : null;
      const now = Date.now();
      const start = Math.floor(now / windowMs) * windowMs;
      const windowStart = new Date(start).toISOString();
      const values = memberId
        ? sql`(${bucket}, ${`a:${ip}`}, ${windowStart}, 1), (${bucket}, ${`m:${memberId}`}, ${windowStart}, 1)`
        : sql`(${bucket}, ${`a:${ip}`}, ${windowStart}, 1)`;
      const [row] = await queryRows<{ a: number | null; m: number | null; sv: number | null }>(app.db, sql`
        WITH hits AS (
          INSERT INTO rate_limits (bucket, key, window_start, count) VALUES ${values}
          ON CONFLICT (bucket, key, window_start) DO UPDATE SET count = rate_limits.count + 1
          RETURNING key, count)
        SELECT (SELECT count FROM hits WHERE key LIKE 'a:%') AS a,
               (SELECT count FROM hits WHERE key LIKE 'm:%') AS m,
               (SELECT session_version FROM members WHERE id = ${memberId ?? 0}) AS sv`);
      if (memberId) sessions.record(memberId, row?.sv ?? null, now);
      if (now - lastPrune > 5 * 60_000) {
        lastPrune = now;
        app.db.execute(sql`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`).catch((err: unknown) => app.log.warn({ err }, 'rate-limit prune failed'));
      }
      const current = Math.max(Number(row?.m ?? 0), Math.ceil(Number(row?.a ?? 0) / factor));
      return { current, ttl: start + windowMs - now };
    }

    class PgStore {
      private readonly bucket: string;
      // The plugin constructs the root store with its options; children get a bucket per route.
      constructor(bucket: unknown) {
        this.bucket = typeof bucket === 'string' ? bucket : 'api';
      }
      incr(key: string, cb: IncrCallback, timeWindow: number) {
        count(this.bucket, key, timeWindow).then((r) => cb(null, r), (err: Error) => cb(err));
      }
      child(params: StoreParams) {
        const method = [params.routeInfo?.method ?? ''].flat().join(',');
        return new PgStore(`api:${method} ${params.routeInfo?.url ?? ''}`);
      }
    }

    await app.register(rateLimit, {
      global: true,
      ...DEFAULT_RATE_LIMIT,
      max,
      hook: 'onRequest',
      enableDraftSpec: true,
      store: PgStore as never,
      keyGenerator: async (req: FastifyRequest) => {
        const claims = await bearerClaims(app, req);
        return claims ? `${req.ip}|${claims.memberId}` : req.ip;
      },
      // Static files of the web app are not worth a database write each, nor are the load
      // balancer's health probes (GET /api/health reads nothing personal).
      allowList: (req: FastifyRequest) => !(req.url.startsWith('/api/') || req.url.startsWith('/token')) || req.url === '/api/health',
      errorResponseBuilder: (_req, ctx) => tooManyRequests(MESSAGES.tooManyAttempts, ctx.ttl / 1000),
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
