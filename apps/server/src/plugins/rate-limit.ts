import fp from 'fastify-plugin';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { MESSAGES } from '@parkit/contract';
import { tooManyRequests } from '../lib/http-error.ts';
import { bearerClaims, type AccessClaims } from '../auth/index.ts';
import { FLUSH_MS, SharedCounts } from '../infra/rate-limits/rate-limit-counts.ts';

/**
 * Every route is rate-limited per member (a valid bearer token) and per address,
 * with @fastify/rate-limit and a store that every process shares: counted in memory, added to the
 * table rate_limits every FLUSH_MS in one statement (rate-limit-counts.ts). RateLimit-* headers
 * (IETF draft) on every answer, 429 with Retry-After past the limit.
 *
 * A route asks for its own, stricter limit with the plugin's own knob (counted apart from the
 * rest, per route):
 *     app.post('/AddMoney', { config: { rateLimit: MONEY_RATE_LIMIT }, schema: … }, handler)
 * or any `{ max, timeWindow }` of @fastify/rate-limit. `max` is per member; an address may make
 * ADDRESS_FACTOR times as many (several members behind one address), times
 * ADDRESS_RATE_LIMIT_SCALE.
 *
 * Money routes (every route that charges, credits or stores a card: AddMoney, Subscribe,
 * PaymentMethods/Add, Parking Start, Extend, Amend, Quick Park Start and Extend) take MONEY_RATE_LIMIT.
 *
 * One of the server's two rate-limit mechanisms (docs/decisions/011-two-rate-limits.md): this one
 * limits the volume of requests, with no round trip, and may be slightly generous across
 * processes. A limit on an act that costs money or can be guessed (codes sent, sign-ins, card
 * tokens) is exact, in the database: infra/rate-limits/rate-limit-repository.ts and auth/login-limits.ts.
 */
/** The default: API_RATE_LIMIT (300) a minute per member. */
export const DEFAULT_RATE_LIMIT = { max: 300, timeWindow: 60_000 } as const satisfies RateLimitOptions;
/** Money routes: the setting MONEY_RATE_LIMIT (20) a minute per member, on each route. */
export const DEFAULT_MONEY_RATE_LIMIT = { max: 20, timeWindow: 60_000 } as const satisfies RateLimitOptions;
/**
 * A money route's `config.rateLimit`: the instance's MONEY_RATE_LIMIT a minute (tests that fire
 * hundreds of concurrent payments from one member raise it in buildTestApp, as API_RATE_LIMIT).
 */
export const MONEY_RATE_LIMIT = {
  max: (req: FastifyRequest) => req.server.moneyRateLimit,
  timeWindow: DEFAULT_MONEY_RATE_LIMIT.timeWindow,
} as const satisfies RateLimitOptions;
export const ADDRESS_FACTOR = 4;

declare module 'fastify' {
  interface FastifyInstance {
    /** Requests per member a minute on each money route (MONEY_RATE_LIMIT). */
    moneyRateLimit: number;
    /** The rate limit's counts: tests call flush() to share them at once instead of waiting FLUSH_MS. */
    rateLimitCounts: SharedCounts;
  }
}

interface StoreParams {
  routeInfo?: { method?: string | string[]; url?: string };
}

type IncrCallback = (err: Error | null, res?: { current: number; ttl: number }) => void;

export default fp<{ max: number; moneyMax: number; addressScale: number; flushMs?: number }>(
  async (app, { max, moneyMax, addressScale, flushMs = FLUSH_MS }) => {
    app.decorate('moneyRateLimit', moneyMax);
    const factor = ADDRESS_FACTOR * addressScale;
    const counts = new SharedCounts(app.db);
    app.decorate('rateLimitCounts', counts);

    const flush = () =>
      counts.flush().catch((err: unknown) => app.log.warn({ err }, 'rate-limit flush failed; counted again next time'));
    let timer: NodeJS.Timeout | null = null;
    // Old windows are deleted by the prune job (jobs/prune.ts).
    app.addHook('onReady', async () => {
      timer = setInterval(() => void flush(), flushMs);
      timer.unref();
    });
    // The last counts go to the database before it closes (plugins close after the server).
    app.addHook('preClose', async () => {
      if (timer) clearInterval(timer);
      await flush();
    });

    /** Counts the address and the member (no round trip: rate-limit-counts.ts). */
    function count(bucket: string, key: string, windowMs: number): { current: number; ttl: number } {
      const [ip, member] = key.split('|');
      const now = Date.now();
      const address = counts.hit(bucket, `a:${ip}`, windowMs, now);
      const byMember = member ? counts.hit(bucket, `m:${member}`, windowMs, now).count : 0;
      const current = Math.max(byMember, Math.ceil(address.count / factor));
      return { current, ttl: address.end - now };
    }

    class SharedStore {
      private readonly bucket: string;
      // The plugin constructs the root store with its options; children get a bucket per route.
      constructor(bucket: unknown) {
        this.bucket = typeof bucket === 'string' ? bucket : 'api';
      }
      incr(key: string, cb: IncrCallback, timeWindow: number) {
        cb(null, count(this.bucket, key, timeWindow));
      }
      child(params: StoreParams) {
        const method = [params.routeInfo?.method ?? ''].flat().join(',');
        return new SharedStore(`api:${method} ${params.routeInfo?.url ?? ''}`);
      }
    }

    await app.register(rateLimit, {
      global: true,
      ...DEFAULT_RATE_LIMIT,
      max,
      hook: 'onRequest',
      enableDraftSpec: true,
      store: SharedStore as never,
      keyGenerator: (req: FastifyRequest) => {
        const claims = bearerClaims(app, req);
        const key = (c: AccessClaims | null) => (c ? `${req.ip}|${c.memberId}` : req.ip);
        return claims instanceof Promise ? claims.then(key) : key(claims);
      },
      // Static files of the web app are not counted. (Nor is GET /api/health, the load balancer's
      // probe: its route sets `rateLimit: false`.)
      allowList: (req: FastifyRequest) => !(req.url.startsWith('/api/') || req.url.startsWith('/token')),
      errorResponseBuilder: (_req, ctx) => tooManyRequests(MESSAGES.tooManyAttempts, ctx.ttl / 1000),
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
