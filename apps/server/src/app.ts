import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { compiledSerializer } from './lib/response-serializer.ts';
import { DEFAULT_CURRENCY_SYMBOL, type Config } from './config.ts';
import type { Database } from './db/client.ts';
import { defaultOperatorId, OperatorCache, ZONE_SET_CHANNEL, ZoneCache } from './zones/index.ts';
import { ReferenceCache } from './vehicles/index.ts';
import db from './plugins/external/db.ts';
import security from './plugins/external/security.ts';
import swagger from './plugins/external/swagger.ts';
import spa from './plugins/external/spa.ts';
import errors from './plugins/errors.ts';
import inputGuard from './plugins/input-guard.ts';
import { authPlugin as auth } from './auth/index.ts';
import rateLimit, { DEFAULT_MONEY_RATE_LIMIT, DEFAULT_RATE_LIMIT } from './plugins/rate-limit.ts';
import { walletPlugin as wallet, type WalletConfig } from './wallet/index.ts';
import jobs, { atMostEvery } from './infra/jobs/job-runner.ts';
import {
  registerParkingJobs,
  registerSavedCardJob,
  guestTokensPlugin as guestTokens,
  parkingProofPlugin,
  QuoteInputs,
  SessionTerms,
} from './parking/index.ts';
import { pruneJob } from './infra/jobs/prune.ts';
import routes from './routes/index.ts';
import { citationFileStore, registerCitationJobs, registerCitationRefundRefusals } from './citations/index.ts';
import { foldRollupDeltas } from './reports/index.ts';
import { KEY_CHANNEL, KeyCache, registerEnforcementJobs } from './enforcement/index.ts';
import { supportBusPlugin as supportBus, attachmentStore, parseHours } from './support/index.ts';
import notifications from './infra/notifications.ts';
import webPush from './infra/push/push-plugin.ts';
import { smsSender } from './infra/sms/sms-sender.ts';
import { webhookSender } from './apds/index.ts';

export interface AppOptions {
  config: Pick<Config, 'NODE_ENV' | 'JWT_SECRET' | 'WEB_DIST' | 'MAP_TILE_URL'> &
    Partial<
      Pick<
        Config,
        | 'ADDRESS_RATE_LIMIT_SCALE'
        | 'JOBS_INTERVAL_MS'
        | 'SUPPORT_HOURS'
        | 'SUPPORT_TIMEZONE'
        | 'DATA_DIR'
        | 'DEV_OUTBOX'
        | 'API_DOCS'
        | 'API_RATE_LIMIT'
        | 'MONEY_RATE_LIMIT'
        | 'PROOF_SIGNING_KEY'
        | 'VAPID_PUBLIC_KEY'
        | 'VAPID_PRIVATE_KEY'
        | 'VAPID_SUBJECT'
        | 'WEB_PUSH_CA'
        | 'APDS_WEBHOOK_PRIVATE_URLS'
        | 'TWILIO_ACCOUNT_SID'
        | 'TWILIO_AUTH_TOKEN'
        | 'TWILIO_FROM'
        | 'TWILIO_API_URL'
      >
    > &
    WalletConfig;
  database: Database;
  /** The server owns the database and closes it with the app; tests close their own. */
  closeDatabase?: boolean;
}

/** /api/docs is on outside production, and in production only with API_DOCS=true. */
export const apiDocsEnabled = (c: Pick<Config, 'NODE_ENV'> & Partial<Pick<Config, 'API_DOCS'>>) =>
  c.API_DOCS === undefined ? c.NODE_ENV !== 'production' : c.API_DOCS === 'true';

/** The whole app as one plugin: external plugins, then ours, then routes (docs/architecture.md#the-servers-layers-and-domains). */
export default async function app(fastify: FastifyInstance, opts: AppOptions) {
  const { config } = opts;
  const production = config.NODE_ENV === 'production';
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(compiledSerializer);
  await fastify.register(db, { database: opts.database, closeOnExit: opts.closeDatabase ?? false });
  await fastify.register(notifications);
  await fastify.register(security, {
    tileUrl: config.MAP_TILE_URL,
    stripe: Boolean(config.STRIPE_SECRET_KEY && config.STRIPE_PUBLISHABLE_KEY),
  });
  await fastify.register(swagger, { ui: apiDocsEnabled(config) });
  await fastify.register(errors);
  await fastify.register(inputGuard);
  await fastify.register(auth, {
    secret: config.JWT_SECRET,
    addressLimitScale: config.ADDRESS_RATE_LIMIT_SCALE ?? 1,
    secureCookies: production,
  });
  await fastify.register(rateLimit, {
    max: config.API_RATE_LIMIT ?? DEFAULT_RATE_LIMIT.max,
    moneyMax: config.MONEY_RATE_LIMIT ?? DEFAULT_MONEY_RATE_LIMIT.max,
    addressScale: config.ADDRESS_RATE_LIMIT_SCALE ?? 1,
  });
  await fastify.register(wallet, { config: opts.config, secret: opts.config.JWT_SECRET });
  // Tests leave the timer off (0) and call fastify.jobs.runOnce(now) themselves.
  await fastify.register(jobs, { intervalMs: opts.config.JOBS_INTERVAL_MS ?? 0 });
  registerParkingJobs(fastify.jobs);
  // A Quick Park typed card forgotten once its session is over (after the expiry, in the same tick).
  registerSavedCardJob(fastify.jobs, fastify.wallet, fastify.log);
  registerCitationJobs(fastify.jobs, fastify.wallet);
  registerCitationRefundRefusals(fastify.wallet);
  // The rollups' appended shares folded in (docs/reports.md#rollups).
  fastify.jobs.register('reports.fold-rollups', (db) => foldRollupDeltas(db));
  registerEnforcementJobs(fastify.jobs);
  fastify.jobs.register('prune.expired', pruneJob());
  // Web Push (after the parking jobs, so a tick's reminders go out in that tick): the VAPID keys
  // from config, else kept in the data folder (a test app: in memory), like the proof's key.
  await fastify.register(webPush, {
    publicKey: config.VAPID_PUBLIC_KEY,
    privateKey: config.VAPID_PRIVATE_KEY,
    subject: config.VAPID_SUBJECT ?? 'mailto:push@parkit.invalid',
    dataDir: config.DATA_DIR,
    ca: config.WEB_PUSH_CA,
    production,
  });
  // APDS webhooks: the outbox the parking_sessions trigger writes, sent signed, in order per
  // subscription (after the parking jobs, so a tick's expiries go out in that tick).
  const apdsPrivateOk = config.APDS_WEBHOOK_PRIVATE_URLS ?? false;
  fastify.jobs.register(
    'apds.webhooks',
    webhookSender({ currency: fastify.wallet.currency.toUpperCase(), privateOk: apdsPrivateOk, log: fastify.log }),
  );
  // Text messages: the outbox's texts through Twilio's Messages API, when it is configured.
  if (config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN && config.TWILIO_FROM)
    fastify.jobs.register(
      'outbox.sms',
      smsSender({
        apiUrl: config.TWILIO_API_URL ?? 'https://api.twilio.com',
        accountSid: config.TWILIO_ACCOUNT_SID,
        authToken: config.TWILIO_AUTH_TOKEN,
        from: config.TWILIO_FROM,
        log: fastify.log,
      }),
    );
  // The wallet's jobs (due auto-reloads, plan renewals and cancellations, old idempotency keys):
  // on the runner's tick, at most every WALLET_JOB_INTERVAL_MS; never in tests (they call
  // app.wallet.runJobs() or the job itself).
  const walletEvery = config.WALLET_JOB_INTERVAL_MS ?? 60_000;
  if (config.NODE_ENV !== 'test' && walletEvery > 0) {
    // Its runs report no row count (0).
    fastify.jobs.register(
      'wallet',
      atMostEvery(walletEvery, () => fastify.wallet.runJobs().then(() => 0)),
    );
  }
  fastify.decorate('operators', new OperatorCache());
  fastify.decorate('referenceLists', new ReferenceCache());
  // PGlite has no LISTEN connection: there every search reads its operator's zone set version.
  const zoneRows = new ZoneCache({ link: fastify.dbDriver === 'postgres' ? fastify.notifications : null });
  fastify.notifications.listen(ZONE_SET_CHANNEL, () => zoneRows.told());
  fastify.decorate('zoneRows', zoneRows);
  fastify.decorate('quoteInputs', new QuoteInputs(zoneRows, fastify.operators));
  fastify.decorate('sessionTerms', new SessionTerms(zoneRows, fastify.operators));
  const operatorKeys = new KeyCache(fastify.notifications);
  fastify.notifications.listen(KEY_CHANNEL, (prefix) => {
    if (prefix) operatorKeys.forget(prefix);
  });
  fastify.decorate('operatorKeys', operatorKeys);
  await fastify.register(guestTokens, { secret: opts.config.JWT_SECRET });
  await fastify.register(supportBus);
  // Support's attachments live in the data folder, outside the web root; a test app
  // without one gets a throwaway folder.
  const dataDir = opts.config.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'parkit-support-'));
  // The proof of payment's key: from config, else kept in the data folder (a test app: in memory).
  await fastify.register(parkingProofPlugin, { pem: config.PROOF_SIGNING_KEY, dataDir: config.DATA_DIR });
  await fastify.register(routes, {
    devOutbox: config.DEV_OUTBOX ?? false,
    support: {
      hours: parseHours(opts.config.SUPPORT_HOURS ?? '09:00-18:00', opts.config.SUPPORT_TIMEZONE ?? 'America/Chicago'),
      attachments: attachmentStore(join(dataDir, 'support-attachments')),
    },
    citations: { files: citationFileStore(join(dataDir, 'citation-files')) },
    apdsWebhooks: { privateOk: apdsPrivateOk },
    defaultClientId: () => defaultOperatorId(fastify.db),
  });
  await fastify.register(spa, {
    root: config.WEB_DIST,
    tileUrl: config.MAP_TILE_URL,
    currencySymbol: config.CURRENCY_SYMBOL ?? DEFAULT_CURRENCY_SYMBOL,
    production,
  });
}
