import fp from 'fastify-plugin';
import type { Database, Db } from '../../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** Reads that tolerate a few seconds of lag (docs/data-access.md#reads-on-replicas); `db` without replicas. */
    reads: Db;
    dbDriver: Database['driver'];
    /** One `select 1` on the driver (GET /api/health). */
    dbPing: Database['ping'];
  }
}

/** Hands the opened database to every route; the server (or a test) owns opening and closing it. */
export default fp<{ database: Database; closeOnExit: boolean }>(
  async (app, { database, closeOnExit }) => {
    app.decorate('db', database.db);
    app.decorate('reads', database.reads);
    app.decorate('dbDriver', database.driver);
    app.decorate('dbPing', () => database.ping());
    if (closeOnExit) app.addHook('onClose', () => database.close());
  },
  { name: 'db' },
);
