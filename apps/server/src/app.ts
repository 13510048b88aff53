import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { defaultOperatorId } from './db/seed.ts';
import db from './plugins/external/db.ts';
import security from './plugins/external/security.ts';
import swagger from './plugins/external/swagger.ts';
import spa from './plugins/external/spa.ts';
import errors from './plugins/app/errors.ts';
import inputGuard from './plugins/app/input-guard.ts';
import auth from './plugins/app/auth/auth-plugin.ts';
import rateLimit from './plugins/app/rate-limit.ts';
import routes from './routes/index.ts';

export interface AppOptions {
  config: Pick<Config, 'NODE_ENV' | 'JWT_SECRET' | 'WEB_DIST' | 'MAP_TILE_URL'> &
    Partial<Pick<Config, 'ADDRESS_RATE_LIMIT_SCALE' | 'DEV_OUTBOX' | 'API_DOCS'>>;
  database: Database;
  /** The server owns the database and closes it with the app; tests close their own. */
  closeDatabase?: boolean;
}

/** /api/docs is on outside production, and in production only with API_DOCS=true. */
export const apiDocsEnabled = (c: Pick<Config, 'NODE_ENV'> & Partial<Pick<Config, 'API_DOCS'>>) =>
  c.API_DOCS === undefined ? c.NODE_ENV !== 'production' : c.API_DOCS === 'true';

/** The whole app as one plugin: external plugins, then ours, then routes (STYLE.md). */
export default async function app(fastify: FastifyInstance, opts: AppOptions) {
  const { config } = opts;
  const production = config.NODE_ENV === 'production';
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);
  await fastify.register(db, { database: opts.database, closeOnExit: opts.closeDatabase ?? false });
  await fastify.register(security, { tileUrl: config.MAP_TILE_URL });
  await fastify.register(swagger, { ui: apiDocsEnabled(config) });
  await fastify.register(errors);
  await fastify.register(inputGuard);
  await fastify.register(auth, {
    secret: config.JWT_SECRET,
    addressLimitScale: config.ADDRESS_RATE_LIMIT_SCALE ?? 1,
    secureCookies: production,
  });
  await fastify.register(rateLimit, { addressScale: config.ADDRESS_RATE_LIMIT_SCALE ?? 1, sessions: fastify.sessions });
  await fastify.register(routes, {
    devOutbox: config.DEV_OUTBOX ?? false,
    defaultClientId: () => defaultOperatorId(fastify.db),
  });
  await fastify.register(spa, { root: config.WEB_DIST, tileUrl: config.MAP_TILE_URL, production });
}
