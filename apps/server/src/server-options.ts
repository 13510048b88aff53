import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';

/**
 * Timeouts and a connection cap for the HTTP server (issue 8, item 4). A client that sends its
 * request too slowly gets 408 and its socket closed within REQUEST_TIMEOUT_SECONDS plus Node's
 * connection-checking interval (set to 1 s here; Node's default of 30 s would double the wait).
 */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

export function serverOptions(config: Pick<Config, 'REQUEST_TIMEOUT_SECONDS' | 'MAX_CONNECTIONS'>): FastifyServerOptions {
  const requestMs = config.REQUEST_TIMEOUT_SECONDS * 1000;
  return {
    requestTimeout: requestMs,
    connectionTimeout: 0,
    keepAliveTimeout: 5000,
    maxRequestsPerSocket: 1000,
    // Handed to http.createServer: the headers must arrive within 10 s (or the request's time).
    http: {
      requestTimeout: requestMs,
      headersTimeout: Math.min(10_000, requestMs),
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
      keepAliveTimeout: 5000,
      // A request without Host reaches the app, which answers a JSON 400 (plugins/external/security.ts).
      requireHostHeader: false,
    },
  } as FastifyServerOptions;
}

/** Applied once the server exists: more than MAX_CONNECTIONS at once are dropped by Node. */
export function capConnections(server: { maxConnections: number }, config: Pick<Config, 'MAX_CONNECTIONS'>) {
  server.maxConnections = config.MAX_CONNECTIONS;
}
