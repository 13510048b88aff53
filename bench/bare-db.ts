import Fastify from 'fastify';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The anchor of the http suite's database rows: a bare Fastify route making one round trip
 * (`select 1`) and answering JSON, no plugins, no logging. DATABASE_URL set: node-postgres with a
 * pool of 10; unset: an in-memory PGlite (the embedded database's anchor).
 */
const url = process.env.DATABASE_URL;
let query: () => Promise<unknown>;
let close: () => Promise<void>;
if (url) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  query = () => pool.query('select 1 as ok');
  close = () => pool.end();
} else {
  const db = await PGlite.create();
  query = () => db.query('select 1 as ok');
  close = () => db.close();
}

const app = Fastify({ logger: false });
app.get('/', async () => {
  await query();
  return { status: 'ok' };
});

const port = Number(process.env.PORT ?? 3322);
await app.listen({ port, host: '127.0.0.1' });
console.log(`bare database route (${url ? 'node-postgres, pool 10' : 'PGlite'}) listening on ${port}`);
const stop = () =>
  void app
    .close()
    .then(close)
    .then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
