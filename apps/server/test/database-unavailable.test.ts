import { createServer as createTcpServer, connect, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@parkit/contract';
import appPlugin from '../src/app.ts';
import { openDatabase, queryRows } from '../src/db/client.ts';
import { isDatabaseUnavailable } from '../src/db/unavailable.ts';
import { poolOf } from '../src/lib/library-internals.ts';
import { createServer } from '../src/server-instance.ts';
import { as, buildTestApp, newMember, registerAndSignIn, TEST_APP_CONFIG } from './helpers.ts';
import { asAdmin } from './support/scratch-database.ts';
import { TEST_ADMIN_URL, testPostgres } from './support/test-database.ts';

// A request the database's failover catches (connection lost, server shutting down or
// starting, a primary turned read-only) is answered 503 with Retry-After, never 500; the pool and
// the LISTEN connection come back by themselves, without a restart.

/** A TCP relay to the database on a port of its own; cut() resets every connection and refuses new ones until restore(). */
async function tcpRelay(target: URL) {
  const sockets = new Set<Socket>();
  const server: Server = createTcpServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  await listen(0);
  const port = (server.address() as { port: number }).port;
  return {
    port,
    async cut() {
      const closed = stop();
      for (const s of sockets) s.resetAndDestroy();
      await closed;
    },
    restore: () => listen(port),
    close: async () => {
      for (const s of sockets) s.destroy();
      if (server.listening) await stop();
    },
  };
}

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** As drizzle wraps the driver's error. */
const wrapped = (cause: Error) => new Error('Failed query: select 1', { cause });

describe('which errors mean the database is away for now', () => {
  it.each([
    ['admin shutdown', pgError('57P01')],
    ['crash shutdown', pgError('57P02')],
    ['cannot connect now (starting up)', pgError('57P03')],
    ['connection failure', pgError('08006')],
    ['connection does not exist', pgError('08003')],
    ['read-only transaction (a primary turned replica)', pgError('25006')],
    ['refused', pgError('ECONNREFUSED')],
    ['reset', pgError('ECONNRESET')],
    ['node-postgres: terminated', new Error('Connection terminated unexpectedly')],
    ['node-postgres: connect timeout', new Error('timeout exceeded when trying to connect')],
    ['wrapped by drizzle', wrapped(pgError('57P01'))],
    ['wrapped twice', wrapped(wrapped(new Error('Connection terminated due to connection timeout')))],
  ])('%s: yes', (_, err) => expect(isDatabaseUnavailable(err)).toBe(true));

  it.each([
    ['a unique violation', pgError('23505')],
    ['a serialization failure', pgError('40001')],
    ['a syntax error', wrapped(pgError('42601'))],
    ['a plain error', new Error('boom')],
    ['not an error', 'Connection terminated'],
    ['nothing', undefined],
  ])('%s: no', (_, err) => expect(isDatabaseUnavailable(err)).toBe(false));
});

describe.runIf(process.env.TEST_DB === 'postgres')('the app when its database goes away (PostgreSQL)', () => {
  it('answers 503 with Retry-After while it is away, and serves again once it is back, without a restart', async () => {
    // The app reaches PostgreSQL through a relay, as it reaches the primary through HAProxy: the
    // relay cutting every connection and refusing new ones is the failover as the app sees it.
    const scratch = await testPostgres('parkit_t');
    const relay = await tcpRelay(new URL(scratch.url));
    const url = new URL(scratch.url);
    url.port = String(relay.port);
    const database = await openDatabase({ url: url.toString(), poolSize: 4, onConnectionError: () => undefined });
    const app = createServer({ LOG_LEVEL: 'silent', TRUST_PROXY: false });
    await app.register(fp(appPlugin), {
      config: {
        ...TEST_APP_CONFIG,
        DEV_OUTBOX: true,
      },
      database,
    });
    try {
      await app.ready();
      const member = await registerAndSignIn(app);
      const read = () => as(app, member, { method: 'GET', url: '/api/Wallet/Transactions' });
      expect((await read()).statusCode).toBe(200);
      await expect.poll(() => app.notifications.live, { timeout: 10_000 }).toBe(true);
      const generation = app.notifications.generation;

      await relay.cut();
      for (const res of [await read(), await read()]) {
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual({ message: MESSAGES.serviceUnavailable });
      }
      await expect.poll(() => app.notifications.live, { timeout: 5000 }).toBe(false);

      // Back: the pool connects anew, the LISTEN connection too (a new generation: the caches read again).
      await relay.restore();
      await expect.poll(async () => (await read()).statusCode, { timeout: 10_000, interval: 200 }).toBe(200);
      await expect.poll(() => app.notifications.live, { timeout: 10_000, interval: 100 }).toBe(true);
      expect(app.notifications.generation).toBeGreaterThan(generation);
    } finally {
      await app.close();
      await database.close();
      await relay.close();
      await scratch.drop();
    }
  }, 60_000);

  it('with the primary away, the reads that may lag answer from the replicas; money and writes answer 503', async () => {
    // The primary through a relay (cut below); the "replica" is the same database reached directly.
    const scratch = await testPostgres('parkit_t');
    const relay = await tcpRelay(new URL(scratch.url));
    const url = new URL(scratch.url);
    url.port = String(relay.port);
    const database = await openDatabase({
      url: url.toString(),
      readUrl: scratch.url,
      poolSize: 4,
      onConnectionError: () => undefined,
    });
    const { app } = await buildTestApp({}, { database });
    try {
      const member = await registerAndSignIn(app);
      const history = () => as(app, member, { method: 'GET', url: '/api/Parking/Sessions' });
      expect((await history()).statusCode).toBe(200);
      await expect.poll(() => app.notifications.live, { timeout: 10_000 }).toBe(true);

      await relay.cut();
      // LISTEN lost: the session cache no longer trusts what it read, so the session check reads again.
      await expect.poll(() => app.notifications.live, { timeout: 5000 }).toBe(false);
      const during = await history();
      expect(during.statusCode, during.body).toBe(200);
      const search = await as(app, member, { method: 'GET', url: '/api/Parking/Zones/Search?q=Congress' });
      expect(search.statusCode, search.body).toBe(200);
      const money = await as(app, member, { method: 'GET', url: '/api/Wallet/Transactions' });
      expect(money.statusCode).toBe(503);
      const write = await as(app, member, {
        method: 'POST',
        url: '/api/Vehicle/Add',
        payload: { PlateNumber: 'AWAY1', PlateState: 'TX', VehicleMake: 'TOYOTA', VehicleModel: 'CAMRY' },
      });
      expect(write.statusCode).toBe(503);
      expect(write.headers['retry-after']).toBe('5');
    } finally {
      await app.close();
      await relay.close();
      await scratch.drop();
    }
  }, 60_000);

  it('survives a connection the server ends while the app holds it (between two statements of a transaction)', async () => {
    const scratch = await testPostgres('parkit_t');
    const lost: Error[] = [];
    const database = await openDatabase({ url: scratch.url, poolSize: 2, onConnectionError: (err) => lost.push(err) });
    try {
      const client = await poolOf(database.db).connect();
      const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      await asAdmin(TEST_ADMIN_URL, `SELECT pg_terminate_backend(${pid})`);
      // Without a listener on the checked-out client, its 'error' event would crash the process.
      await expect.poll(() => lost.map((e) => (e as { code?: string }).code), { timeout: 5000 }).toContain('57P01');
      client.release(true);
      expect((await database.ping()) as unknown).toBeTruthy();
    } finally {
      await database.close();
      await scratch.drop();
    }
  });

  it('answers a write 503 when the server it reaches is read-only (a primary turned replica), and writes again after', async () => {
    const { app, database } = await buildTestApp();
    const [row] = await queryRows<{ name: string }>(database.db, sql`select current_database() as name`);
    const name = row!.name;
    const register = () => app.inject({ method: 'POST', url: '/api/Account/Register', payload: newMember() });
    expect((await register()).statusCode).toBe(201);
    const cutAll = `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`;
    try {
      await asAdmin(TEST_ADMIN_URL, `ALTER DATABASE ${name} SET default_transaction_read_only = on; ${cutAll}`);
      // The first request may meet a connection just cut (503 as well); every answer is 503.
      for (let i = 0; i < 3; i++) {
        const res = await register();
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
      }
    } finally {
      await asAdmin(TEST_ADMIN_URL, `ALTER DATABASE ${name} RESET default_transaction_read_only; ${cutAll}`);
    }
    await expect.poll(async () => (await register()).statusCode, { timeout: 10_000, interval: 200 }).toBe(201);
  }, 60_000);
});
