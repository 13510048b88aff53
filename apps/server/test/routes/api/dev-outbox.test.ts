import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { OutboxMessage } from '@parkit/contract';
import app from '../../../src/app.ts';
import { buildTestApp, newMember, TEST_APP_CONFIG } from '../../helpers.ts';

const { app: server, database } = await buildTestApp();

const outbox = (query = '') => server.inject({ method: 'GET', url: `/api/Dev/Outbox${query}` });

async function register() {
  const m = newMember();
  expect((await server.inject({ method: 'POST', url: '/api/Account/Register', payload: m })).statusCode).toBe(201);
  return m;
}

describe('GET /api/Dev/Outbox (development only)', () => {
  it('lists the codes sent, newest first, filtered by recipient and limited', async () => {
    const a = await register();
    const b = await register();
    const all = await outbox();
    expect(all.statusCode).toBe(200);
    const messages = OutboxMessage.array().parse(all.json());
    expect(messages.map((m) => m.To).slice(0, 2)).toEqual([b.PhoneNumber, a.PhoneNumber]);
    expect(messages[0]).toMatchObject({ Channel: 'sms' });
    expect(messages[0]!.Body).toMatch(/\b\d{6}\b/);
    expect(Number.isNaN(Date.parse(messages[0]!.CreatedAt))).toBe(false);
    // A message carries the code, never the password.
    expect(messages[0]!.Body).not.toContain(b.Password);

    const onlyA = OutboxMessage.array().parse((await outbox(`?to=${a.PhoneNumber}`)).json());
    expect(onlyA).toHaveLength(1);
    expect(onlyA[0]!.To).toBe(a.PhoneNumber);
    expect((await outbox('?limit=1')).json()).toHaveLength(1);
    expect((await outbox('?to=5550000000')).json()).toEqual([]);
  });

  it.each([['?to=abc'], ["?to=1' OR '1'='1"], ['?limit=0'], ['?limit=201'], ['?limit=ten']])(
    'refuses %s with a JSON 400',
    async (query) => {
      const res = await outbox(query.replace(/ /g, '%20'));
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBeTruthy();
    },
  );

  it('answers only a client on this machine that came straight in, not through a proxy', async () => {
    await register();
    for (const headers of [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }]) {
      const res = await server.inject({ method: 'GET', url: '/api/Dev/Outbox', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found' });
    }
    const remote = await server.inject({ method: 'GET', url: '/api/Dev/Outbox', remoteAddress: '10.1.2.3' });
    expect(remote.statusCode).toBe(404);
    expect(remote.body).not.toMatch(/\d{6}/);
    expect((await server.inject({ method: 'GET', url: '/api/Dev/Outbox', remoteAddress: '::1' })).statusCode).toBe(200);
  });

  // Before, it existed in every mode but production, the default.
  it.each([
    ['development', 'development'],
    ['test', 'test'],
    ['production', 'production'],
  ] as const)('does not exist in %s unless DEV_OUTBOX asks for it', async (_what, NODE_ENV) => {
    const other = Fastify({ logger: false });
    await other.register(app, {
      config: {
        ...TEST_APP_CONFIG,
        NODE_ENV,
      },
      database,
    });
    try {
      const res = await other.inject({ method: 'GET', url: '/api/Dev/Outbox' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found' });
    } finally {
      await other.close();
    }
  });
});
