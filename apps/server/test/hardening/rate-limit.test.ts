import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@parkit/contract';
import app, { serverOptions } from '../../src/app.ts';
import { ADDRESS_FACTOR, DEFAULT_RATE_LIMIT, MONEY_RATE_LIMIT } from '../../src/plugins/app/rate-limit.ts';
import { as, buildTestApp, registerAndSignIn, TEST_SECRET } from '../helpers.ts';
import { concurrently, statusCounts } from '../concurrency.ts';

// Issue 8, item 9: every route is limited per member and per address, in a store every process
// shares (the database), with RateLimit headers; a route can ask for a stricter limit.
const { app: server, database } = await buildTestApp();
const { db } = database;

/** Another process on the same database, with two routes that use the knob. */
async function sibling(): Promise<FastifyInstance> {
  const instance = Fastify(serverOptions({ LOG_LEVEL: 'silent', TRUST_PROXY: false }));
  await instance.register(async (scope) => {
    await app(scope, {
      config: { NODE_ENV: 'test', JWT_SECRET: TEST_SECRET, WEB_DIST: '/nonexistent', MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', DEV_OUTBOX: true },
      database,
    });
    scope.post('/api/Test/Money', { config: { rateLimit: MONEY_RATE_LIMIT }, onRequest: scope.authenticate }, async () => ({ ok: true }));
    scope.get('/api/Test/Strict', { config: { rateLimit: { max: 5, timeWindow: 60_000 } } }, async () => ({ ok: true }));
  });
  await instance.ready();
  afterAll(() => instance.close());
  return instance;
}
const other = await sibling();

beforeEach(async () => {
  await db.execute(sql`DELETE FROM rate_limits`);
});

describe('item 9: rate limits on every route', () => {
  it('sends RateLimit headers on API answers, public and personal', async () => {
    const who = await registerAndSignIn(server);
    for (const res of [await server.inject({ method: 'GET', url: '/api/Core/States' }), await as(server, who, { method: 'GET', url: '/api/Account/Details' })]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe(String(DEFAULT_RATE_LIMIT.max));
      expect(Number(res.headers['ratelimit-remaining'])).toBeLessThan(DEFAULT_RATE_LIMIT.max);
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
    }
  });

  it('stops one member at the limit however many requests arrive at once', async () => {
    const who = await registerAndSignIn(server);
    await db.execute(sql`DELETE FROM rate_limits`);
    const results = await concurrently(DEFAULT_RATE_LIMIT.max + 20, () => as(server, who, { method: 'GET', url: '/api/Vehicle/List' }));
    expect(statusCounts(results)).toEqual({ 200: DEFAULT_RATE_LIMIT.max, 429: 20 });
    const refused = results.find((r) => r.statusCode === 429)!;
    expect(refused.json()).toEqual({ message: MESSAGES.tooManyAttempts });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another member at the same address is not held back by it.
    const second = await registerAndSignIn(server);
    expect((await as(server, second, { method: 'GET', url: '/api/Vehicle/List' })).statusCode).toBe(200);
  });

  it('is stricter on a route that asks (money routes), counted apart, shared by every process', async () => {
    const who = await registerAndSignIn(server);
    const results = await concurrently(MONEY_RATE_LIMIT.max + 5, () => as(other, who, { method: 'POST', url: '/api/Test/Money', payload: {} }));
    expect(statusCounts(results)).toEqual({ 200: MONEY_RATE_LIMIT.max, 429: 5 });
    expect(results[0]!.headers['ratelimit-limit']).toBe(String(MONEY_RATE_LIMIT.max));
    // The rest of the API is still open to the member …
    expect((await as(server, who, { method: 'GET', url: '/api/Account/Details' })).statusCode).toBe(200);
    // … and the two processes count together.
    const a = await as(server, who, { method: 'GET', url: '/api/Account/Details' });
    const b = await as(other, who, { method: 'GET', url: '/api/Account/Details' });
    expect(Number(b.headers['ratelimit-remaining'])).toBe(Number(a.headers['ratelimit-remaining']) - 1);
  });

  it('limits an address without a token (anyone behind it together)', async () => {
    const limit = 5 * ADDRESS_FACTOR;
    const results = await concurrently(limit + 3, () => other.inject({ method: 'GET', url: '/api/Test/Strict', remoteAddress: '10.9.9.9' }));
    expect(statusCounts(results)).toEqual({ 200: limit, 429: 3 });
    expect((await other.inject({ method: 'GET', url: '/api/Test/Strict', remoteAddress: '10.9.9.10' })).statusCode).toBe(200);
  });
});
