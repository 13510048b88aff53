import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { defaultOperatorId } from './plugins/app/zones/operator-repository.ts';
import db from './plugins/external/db.ts';
import security from './plugins/external/security.ts';
import swagger from './plugins/external/swagger.ts';
import spa from './plugins/external/spa.ts';
import errors from './plugins/app/errors.ts';
import inputGuard from './plugins/app/input-guard.ts';
import auth from './plugins/app/auth/auth-plugin.ts';
import wallet, { type WalletConfig } from './plugins/app/wallet/wallet-plugin.ts';
import jobs from './plugins/app/jobs/job-runner.ts';
import { registerParkingJobs } from './plugins/app/parking/parking-jobs.ts';
import guestTokens from './plugins/app/parking/guest-plugin.ts';
import routes from './routes/index.ts';
import supportBus from './plugins/app/support/support-bus.ts';
import { attachmentStore } from './plugins/app/support/attachment-store.ts';
import { parseHours } from './plugins/app/support/support-hours.ts';

export interface AppOptions {
  config: Pick<Config, 'NODE_ENV' | 'JWT_SECRET' | 'WEB_DIST' | 'MAP_TILE_URL'> & Partial<Pick<Config, 'ADDRESS_RATE_LIMIT_SCALE' | 'JOBS_INTERVAL_MS' | 'SUPPORT_HOURS' | 'SUPPORT_TIMEZONE' | 'DATA_DIR'>> & WalletConfig;
  database: Database;
  /** The server owns the database and closes it with the app; tests close their own. */
  closeDatabase?: boolean;
}

/**
 * The instance's own settings (they cannot live in a plugin): the server and the tests make their
 * instance with these, so the tests run the server production runs.
 */
export function serverOptions(config: Pick<Config, 'LOG_LEVEL' | 'TRUST_PROXY'>): FastifyServerOptions {
  return {
    logger: {
      level: config.LOG_LEVEL,
      // Belt and braces: nothing secret is logged, and if a header slips in it is redacted.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers.xapikey', 'res.headers["set-cookie"]'],
    },
    // A caller's x-request-id is kept when it is a plain token, so logs join across services.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.TRUST_PROXY,
  };
}

/** The whole app as one plugin: external plugins, then ours, then routes (STYLE.md). */
export default async function app(fastify: FastifyInstance, opts: AppOptions) {
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);
  fastify.addHook('onSend', async (req, reply) => {
    void reply.header('x-request-id', req.id);
  });
  await fastify.register(db, { database: opts.database, closeOnExit: opts.closeDatabase ?? false });
  await fastify.register(security, { tileUrl: opts.config.MAP_TILE_URL, stripe: Boolean(opts.config.STRIPE_SECRET_KEY && opts.config.STRIPE_PUBLISHABLE_KEY) });
  await fastify.register(swagger);
  await fastify.register(errors);
  await fastify.register(inputGuard);
  await fastify.register(auth, { secret: opts.config.JWT_SECRET, addressLimitScale: opts.config.ADDRESS_RATE_LIMIT_SCALE ?? 1 });
  await fastify.register(wallet, { config: opts.config, secret: opts.config.JWT_SECRET, runJobs: opts.config.NODE_ENV !== 'test' });
  // Tests leave the timer off (0) and call fastify.jobs.runOnce(now) themselves.
  await fastify.register(jobs, { intervalMs: opts.config.JOBS_INTERVAL_MS ?? 0 });
  registerParkingJobs(fastify.jobs);
  await fastify.register(guestTokens, { secret: opts.config.JWT_SECRET });
  await fastify.register(supportBus);
  // Support's attachments live in the data folder, outside the web root (issue 13); a test app
  // without one gets a throwaway folder.
  const dataDir = opts.config.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'parkit-support-'));
  await fastify.register(routes, {
    production: opts.config.NODE_ENV === 'production',
    support: {
      hours: parseHours(opts.config.SUPPORT_HOURS ?? '09:00-18:00', opts.config.SUPPORT_TIMEZONE ?? 'America/Chicago'),
      attachments: attachmentStore(join(dataDir, 'support-attachments')),
    },
    defaultClientId: () => defaultOperatorId(fastify.db),
  });
  await fastify.register(spa, { root: opts.config.WEB_DIST, tileUrl: opts.config.MAP_TILE_URL });
}
