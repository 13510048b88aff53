import { describe, expect, it } from 'vitest';
import appPlugin from '../../../src/app.ts';
import { createServer } from '../../../src/server-instance.ts';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client.ts';
import { buildTestApp, freshDatabase, TEST_APP_CONFIG } from '../../helpers.ts';
import { asAdmin } from '../../support/scratch-database.ts';
import { TEST_ADMIN_URL } from '../../support/test-database.ts';

const { app, database } = await buildTestApp();

describe('GET /api/health', () => {
  it('answers ok with the driver in use', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: database.driver });
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/Nothing/Here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });

  it('sends security headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 503 when the database does not answer (the driver’s own round trip)', async () => {
    const database = await freshDatabase();
    const down = createServer({ LOG_LEVEL: 'silent', TRUST_PROXY: false });
    await down.register(appPlugin, {
      config: {
        ...TEST_APP_CONFIG,
      },
      database,
    });
    await down.ready();
    const [row] = await queryRows<{ name: string }>(database.db, sql`select current_database() as name`);
    const name = row!.name;
    try {
      expect((await down.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      // PGlite: the database closed. PostgreSQL: the server refuses every connection to it and
      // ends those open (a superuser too: ALLOW_CONNECTIONS, unlike CONNECTION LIMIT, binds everyone).
      if (database.driver === 'pglite') await database.close();
      else
        await asAdmin(
          TEST_ADMIN_URL,
          `ALTER DATABASE ${name} ALLOW_CONNECTIONS false; SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`,
        );
      const res = await down.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', database: database.driver });
    } finally {
      await down.close();
      if (database.driver === 'postgres') {
        await asAdmin(TEST_ADMIN_URL, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
        await database.close();
      }
    }
    // A second database of its own: PGlite's migrations take a while on a loaded machine.
  }, 90_000);
});
