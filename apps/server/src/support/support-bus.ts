import { EventEmitter } from 'node:events';
import fp from 'fastify-plugin';
import { notify } from '../infra/notifications.ts';

/**
 * Support's live events. Small: ids only, each listener loads what it may show.
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
      // The process's one LISTEN connection (notifications.ts) carries the channel.
      app.notifications.listen(CHANNEL, (payload) => {
        const e = parse(payload);
        if (e) emit(e);
      });
      app.notifications.onReconnect(() => emit({ k: 'resync' }));
      publish = (e) => notify(app.db, CHANNEL, JSON.stringify(e));
    }

    app.decorate('supportBus', {
      publish: (e: BusEvent) => publish(e),
      subscribe(listener: (e: BusEvent) => void) {
        emitter.on('event', listener);
        return () => emitter.off('event', listener);
      },
    });
  },
  { name: 'support-bus', dependencies: ['db', 'notifications'] },
);
