import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';

type InstanceConfig = Parameters<typeof serverOptions>[0] & Pick<Config, 'LOG_LEVEL'>;

/**
 * The Fastify instance with its settings and its logger: server.ts and the tests make theirs here,
 * so the tests run the server production runs.
 *
 * Logging. At info and below (info is the default), Fastify's logger: a line as each
 * request comes in and one as it completes, which Fastify times by hooking every response (a
 * `finish` and an `error` listener). Above info (warn, error, silent) no request line is ever
 * written, yet Fastify hooks every response whenever it has a logger: about 5 of the 65 µs of user
 * CPU a health request costs. There the instance is made without Fastify's logger, and the same
 * pino logger is given to every request (bound to its reqId, as Fastify binds it) and set as the
 * instance's. The lines written at each level are the same either way (test/logging.test.ts).
 */
export function createServer(config: InstanceConfig, stream?: DestinationStream): FastifyInstance {
  const logger = serverLogger(config.LOG_LEVEL, stream);
  const options = serverOptions(config);
  if (logger.isLevelEnabled('info')) return Fastify({ ...options, loggerInstance: logger as FastifyBaseLogger });
  const instance = Fastify({
    ...options,
    logger: false,
    childLoggerFactory: (_none, bindings, childOptions) => logger.child(bindings, childOptions),
  });
  instance.log = logger;
  return instance;
}

/** Nothing secret is logged; if a header slips in, it is redacted (belt and braces). */
const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'req.headers.xapikey', 'res.headers["set-cookie"]'];

/**
 * pino with the serializers Fastify gives its own logger: a request is its method, URL, host and
 * peer (never its headers), an answer its status.
 */
function serverLogger(level: Config['LOG_LEVEL'], stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: REDACT,
      serializers: {
        req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
          method: req.method,
          url: req.url,
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
        res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    stream,
  );
}

/**
 * The instance's own settings (they cannot live in a plugin), its logger aside (createServer).
 */
export function serverOptions(
  config: Pick<Config, 'TRUST_PROXY'> & Partial<Pick<Config, 'REQUEST_TIMEOUT_SECONDS'>>,
): FastifyServerOptions {
  const requestMs = (config.REQUEST_TIMEOUT_SECONDS ?? 20) * 1000;
  const options = {
    // A client that sends its request too slowly gets 408 and its socket closed
    // within REQUEST_TIMEOUT_SECONDS plus Node's connection-checking interval (1 s here; Node's
    // default of 30 s would double the wait). Headers must arrive within 10 s.
    requestTimeout: requestMs,
    keepAliveTimeout: 5000,
    maxRequestsPerSocket: 1000,
    // Handed to http.createServer.
    http: {
      requestTimeout: requestMs,
      headersTimeout: Math.min(10_000, requestMs),
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
      keepAliveTimeout: 5000,
      // A request without Host reaches the app, which answers a JSON 400 (plugins/external/security.ts).
      requireHostHeader: false,
    },
    // A caller's x-request-id is kept when it is a plain token, so logs join across services.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.TRUST_PROXY,
  };
  // `http` (options for http.createServer) is typed only on Fastify's http overload.
  return options as FastifyServerOptions;
}

export const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

/** Once the server listens: more than MAX_CONNECTIONS at once are dropped by Node. */
export function capConnections(server: { maxConnections: number }, config: Pick<Config, 'MAX_CONNECTIONS'>) {
  server.maxConnections = config.MAX_CONNECTIONS;
}
