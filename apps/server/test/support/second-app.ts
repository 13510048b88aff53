import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll } from 'vitest';
import app from '../../src/app.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { createServer } from '../../src/server-instance.ts';
import { TEST_APP_CONFIG } from '../helpers.ts';

/**
 * A second app instance on the same PostgreSQL database as `database`: another server process, as
 * far as the caches told by LISTEN/NOTIFY know (its own pool and LISTEN connection). Its
 * decorations (notifications, caches) are visible to the test; closed after the file.
 */
export async function secondApp(database: Database): Promise<{ app: FastifyInstance; database: Database }> {
  const url = (database.db as unknown as { $client: { options: { connectionString: string } } }).$client.options
    .connectionString;
  const second = await openDatabase({ url, poolSize: 4 });
  const b = createServer({ LOG_LEVEL: 'silent', TRUST_PROXY: false });
  await b.register(fp(app), {
    config: {
      ...TEST_APP_CONFIG,
    },
    database: second,
    closeDatabase: true,
  });
  await b.ready();
  afterAll(() => b.close());
  return { app: b, database: second };
}
