import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Executor } from '../db/client.ts';
import { poolOf } from '../lib/library-internals.ts';

/**
 * The process's one LISTEN connection (PostgreSQL): every channel the app listens on rides on it,
 * so each server process holds one extra connection, not one per feature. A sender calls
 * `pg_notify` (notifyStatement) inside its own transaction; PostgreSQL delivers at commit, to every
 * process listening, this one included.
 *
 * `generation` changes on every (re)connect and every loss, and `live` is true only while LISTEN is
 * up: a cache filled from notifications trusts an entry only while the generation it was read in is
 * still current (notifications sent while the connection was down are lost).
 *
 * On the embedded PGlite there is no connection: it is one process per data folder (PGlite holds
 * the folder alone), so every change is made by this process and told in-process; `live` stays true.
 */
export interface Notifications {
  readonly generation: number;
  readonly live: boolean;
  /** Calls onMessage with each payload sent on the channel by any process. */
  listen(channel: string, onMessage: (payload: string | undefined) => void): void;
  /** Called after the connection came back (not after the first connect): catch up on what was missed. */
  onReconnect(fn: () => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    notifications: Notifications;
  }
}

/** `pg_notify(channel, payload)`, to be sent in the transaction whose commit it announces. */
export async function notify(db: Executor, channel: string, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

const RETRY_MS = 1000;

export default fp(
  async (app) => {
    const handlers = new Map<string, (payload: string | undefined) => void>();
    const reconnected: (() => void)[] = [];
    const state = { generation: 0, live: app.dbDriver !== 'postgres' };
    app.decorate('notifications', {
      get generation() {
        return state.generation;
      },
      get live() {
        return state.live;
      },
      listen(channel: string, onMessage: (payload: string | undefined) => void) {
        if (!/^[a-z_]+$/.test(channel) || handlers.has(channel)) throw new Error(`bad or taken channel ${channel}`);
        handlers.set(channel, onMessage);
      },
      onReconnect(fn: () => void) {
        reconnected.push(fn);
      },
    });
    if (app.dbDriver !== 'postgres') return;

    const pool = poolOf(app.db);
    let client: pg.PoolClient | null = null;
    let closed = false;
    let retry: NodeJS.Timeout | undefined;
    const lost = (c: pg.PoolClient | null, err: unknown, why: string) => {
      // Entries read under the old generation are no longer trusted, from this moment on.
      state.live = false;
      state.generation += 1;
      app.log.warn({ err }, why);
      client = null;
      c?.release(err instanceof Error ? err : true);
      if (!closed) retry = setTimeout(() => void connect(true), RETRY_MS);
    };
    const connect = async (again: boolean): Promise<void> => {
      let c: pg.PoolClient | null = null;
      try {
        c = await pool.connect();
        const mine = c;
        c.on('notification', (msg) => handlers.get(msg.channel)?.(msg.payload));
        c.on('error', (err) => {
          // Only the live listener reconnects: once closing handed it back, an error (the database
          // going away) must not release it a second time.
          if (client === mine) lost(mine, err, 'notification channel lost; reconnecting');
        });
        client = c;
        await c.query([...handlers.keys()].map((ch) => `LISTEN ${ch}`).join('; '));
        if (client !== c) return;
        // Up from here: whatever commits from now on is told to this connection.
        state.generation += 1;
        state.live = true;
        if (again) for (const fn of reconnected) fn();
      } catch (err) {
        if (client === c || c === null) lost(c, err, 'notification channel unavailable; retrying');
      }
    };
    // Every plugin has named its channels by then.
    app.addHook('onReady', () => connect(false));
    app.addHook('preClose', async () => {
      closed = true;
      clearTimeout(retry);
      state.live = false;
      state.generation += 1;
      const c = client;
      client = null;
      if (c) {
        await c.query('UNLISTEN *').catch(() => undefined);
        // Destroyed, not pooled: its notification listener must not ride along into other queries.
        c.release(true);
      }
    });
  },
  { name: 'notifications', dependencies: ['db'] },
);
