import { EventEmitter } from 'node:events';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type pg from 'pg';

/**
 * Support's live events (issue 13). Small: ids only, each listener loads what it may show.
 * On PostgreSQL they travel by NOTIFY, so a client connected to any server process hears an
 * event published on another; on the embedded PGlite (one process) they stay in-process.
 */
export type BusEvent =
  | { k: 'message'; memberId: number; messageId: number }
  | { k: 'callback'; memberId: number; callBackId: number }
  | { k: 'read'; memberId: number }
  /** The channel dropped and came back: listeners should tell their clients to catch up. */
  | { k: 'resync' };

export interface SupportBus {
  publish(event: BusEvent): Promise<void>;
  subscribe(listener: (event: BusEvent) => void): () => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    supportBus: SupportBus;
  }
}

const CHANNEL = 'parkit_support';

function parse(payload: string | undefined): BusEvent | null {
  try {
    const e = JSON.parse(payload ?? '') as BusEvent;
    return typeof e === 'object' && e !== null && typeof e.k === 'string' ? e : null;
  } catch {
    return null;
  }
}

export default fp(
  async (app) => {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    const emit = (e: BusEvent) => emitter.emit('event', e);
    let publish: (e: BusEvent) => Promise<void> = async (e) => {
      emit(e);
    };

    if (app.dbDriver === 'postgres') {
      const pool = (app.db as unknown as { $client: pg.Pool }).$client;
      let client: pg.PoolClient | null = null;
      let closed = false;
      let retry: NodeJS.Timeout | undefined;
      const connect = async (): Promise<void> => {
        try {
          const c = await pool.connect();
          c.on('notification', (msg) => {
            const e = msg.channel === CHANNEL ? parse(msg.payload) : null;
            if (e) emit(e);
          });
          c.on('error', (err) => {
            // Only the live listener reconnects: once closing handed it back, an error (the database
            // going away) must not release it a second time.
            if (client !== c) return;
            app.log.warn({ err }, 'support event channel lost; reconnecting');
            c.release(err);
            client = null;
            if (!closed) retry = setTimeout(() => void connect().then(() => emit({ k: 'resync' })), 1000);
          });
          client = c;
          await c.query(`LISTEN ${CHANNEL}`);
        } catch (err) {
          app.log.warn({ err }, 'support event channel unavailable; retrying');
          const c = client;
          client = null;
          c?.release(true);
          if (!closed) retry = setTimeout(() => void connect().then(() => emit({ k: 'resync' })), 1000);
        }
      };
      await connect();
      publish = async (e) => {
        await app.db.execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(e)})`);
      };
      app.addHook('preClose', async () => {
        closed = true;
        clearTimeout(retry);
        const c = client;
        client = null;
        if (c) {
          await c.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
          // Destroyed, not pooled: its notification listener must not ride along into other queries.
          c.release(true);
        }
      });
    }

    app.decorate('supportBus', {
      publish: (e: BusEvent) => publish(e),
      subscribe(listener: (e: BusEvent) => void) {
        emitter.on('event', listener);
        return () => emitter.off('event', listener);
      },
    });
  },
  { name: 'support-bus', dependencies: ['db'] },
);
