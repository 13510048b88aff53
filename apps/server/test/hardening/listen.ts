import type { FastifyInstance } from 'fastify';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll } from 'vitest';
import app from '../../src/app.ts';
import { capConnections, createServer } from '../../src/server-instance.ts';
import type { Database } from '../../src/db/client.ts';
import { TEST_APP_CONFIG } from '../helpers.ts';

/**
 * The app listening on a real socket (for what app.inject cannot show: sockets, timeouts, a request
 * without Host), on a port the system picks: test runs side by side never collide.
 */
export async function listening(
  database: Database,
  opts: {
    REQUEST_TIMEOUT_SECONDS?: number;
    MAX_CONNECTIONS?: number;
    NODE_ENV?: 'test' | 'production';
    WEB_DIST?: string;
  } = {},
) {
  const instance: FastifyInstance = createServer({
    LOG_LEVEL: 'silent',
    TRUST_PROXY: false,
    REQUEST_TIMEOUT_SECONDS: opts.REQUEST_TIMEOUT_SECONDS,
  });
  await instance.register(app, {
    config: {
      ...TEST_APP_CONFIG,
      NODE_ENV: opts.NODE_ENV ?? 'test',
      WEB_DIST: opts.WEB_DIST ?? '/nonexistent',
    },
    database,
  });
  await instance.listen({ port: 0, host: '127.0.0.1' });
  capConnections(instance.server, { MAX_CONNECTIONS: opts.MAX_CONNECTIONS ?? 2000 });
  afterAll(() => instance.close());
  return { instance, port: (instance.server.address() as AddressInfo).port };
}

/** A raw TCP client: what it receives and when the server closed it. */
export function rawClient(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => (received += d.toString()));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  const connected = new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  return { socket, connected, closed, received: () => received };
}

/** When the server closed the client's socket, or null when it was still open after `ms` (a failure to report, not a test timeout). */
export function closedWithin(client: ReturnType<typeof rawClient>, ms: number): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([client.closed, late]).finally(() => clearTimeout(timer));
}
