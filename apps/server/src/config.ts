import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

import { REPO_ROOT } from './paths.ts';

/** The currency symbol when CURRENCY_SYMBOL is not set (and a partial test config's). */
export const DEFAULT_CURRENCY_SYMBOL = '$';

export { REPO_ROOT };

const EnvSchema = z
  .object({
    /**
     * Production unless development is asked for: the production checks (a
     * JWT_SECRET, Secure cookies, no demo seed, no API docs) apply to a deployment that forgets it.
     */
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** postgres://… runs on PostgreSQL; unset runs the embedded PGlite in DATA_DIR. */
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    /**
     * postgres://… of the replicas (HAProxy's read port): the reads that tolerate a few seconds of
     * lag go there (docs/data-access.md#reads-on-replicas). Unset: every read goes to DATABASE_URL.
     */
    DATABASE_READ_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    /**
     * Connections each pool (DATABASE_URL's, and DATABASE_READ_URL's when set) may open, beside the
     * one that listens (docs/operations.md#the-connection-pool). PostgreSQL only.
     */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(defaultPoolSize()),
    DATA_DIR: z.string().min(1).default(join(REPO_ROOT, '.data')),
    /** HS256 secret for access tokens, at least 32 characters. Required in production. */
    JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
    /**
     * The Ed25519 private key (PKCS#8 PEM) that signs the parking proof of payment
     * (docs/proof-of-payment.md). Unset: one is made on first start in DATA_DIR.
     */
    PROOF_SIGNING_KEY: z.string().min(1).optional(),
    /**
     * Web Push's VAPID key pair (RFC 8292), base64url as `web-push generate-vapid-keys` prints them
     * (docs/operations.md#web-push). Unset: a pair is made on first start in DATA_DIR.
     */
    VAPID_PUBLIC_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, 'VAPID_PUBLIC_KEY must be a 65-byte P-256 public key in base64url')
      .optional(),
    VAPID_PRIVATE_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'VAPID_PRIVATE_KEY must be a 32-byte P-256 private key in base64url')
      .optional(),
    /** Who push services may contact about our pushes: a mailto: or https: URL. */
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, 'VAPID_SUBJECT must be a mailto: or https: URL')
      .default('mailto:push@parkit.invalid'),
    /**
     * Text messages (docs/operations.md#the-outbox): Twilio's account SID, auth token and sender (a
     * number in E.164, or a Messaging Service SID), all three or none. Set, the job outbox.sms sends
     * the outbox's texts; unset, they stay there (the local demo reads them at /api/Dev/Outbox).
     */
    TWILIO_ACCOUNT_SID: z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'TWILIO_ACCOUNT_SID is AC and 32 hex digits')
      .optional(),
    TWILIO_AUTH_TOKEN: z.string().min(16, 'TWILIO_AUTH_TOKEN is the account’s auth token').optional(),
    TWILIO_FROM: z
      .string()
      .regex(
        /^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/,
        'TWILIO_FROM is a number in E.164 (+15125550100) or a Messaging Service SID',
      )
      .optional(),
    /** Twilio's API, or a stand-in that speaks it (tests). */
    TWILIO_API_URL: z.url().default('https://api.twilio.com'),
    /** Tests only: a PEM certificate authority trusted for push services besides the system's. */
    WEB_PUSH_CA: z.string().min(1).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** The built SPA; served when it exists. */
    WEB_DIST: z.string().min(1).default(join(REPO_ROOT, 'apps/web/dist')),
    /** Map tiles the CSP admits and the web app loads. */
    MAP_TILE_URL: z.string().min(1).default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
    SEED_DEMO: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** Number of demo zones seeded on first start. */
    DEMO_ZONES: z.coerce.number().int().min(0).max(100_000).default(1200),
    /** Behind a load balancer: take the client's address from X-Forwarded-For. */
    TRUST_PROXY: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /**
     * Multiplies the per-address limits. For test runs whose every request comes from one
     * address (the e2e suite); leave at 1 in production.
     */
    ADDRESS_RATE_LIMIT_SCALE: z.coerce.number().int().min(1).max(1000).default(1),
    /** Support hours: call backs can be booked within them, 'HH:MM-HH:MM' daily. */
    SUPPORT_HOURS: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/, 'SUPPORT_HOURS must look like 09:00-18:00')
      .refine((h) => h.slice(0, 5) < h.slice(6), 'SUPPORT_HOURS must open before it closes')
      .default('09:00-18:00'),
    /** The time zone of the support hours and of the dates drivers pick. */
    SUPPORT_TIMEZONE: z
      .string()
      .refine(isTimeZone, 'SUPPORT_TIMEZONE must be an IANA time zone such as America/Chicago')
      .default('America/Chicago'),
    /**
     * GET /api/Dev/Outbox lists every code sent: only when asked for, and only on a server that
     * listens on loopback (the local demo of `npm start`). Refused with any other HOST.
     */
    DEV_OUTBOX: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /** /api/docs (OpenAPI and its browser): on outside production; in production only when asked for. */
    API_DOCS: z.enum(['true', 'false']).optional(),
    /** Requests per member per minute on every API route (per address: 4x that, times ADDRESS_RATE_LIMIT_SCALE). */
    API_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(300),
    /** Requests per member per minute on each money route (AddMoney, Subscribe, card add, parking purchases). */
    MONEY_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(20),
    /** A request must arrive whole within this (slow clients get 408 and are closed). */
    REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(20),
    /** Most connections at once; more are refused at once. */
    MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(2000),
    /** Wallet currency (ISO 4217, sent to the payment provider) and the symbol every screen shows. */
    CURRENCY: z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'CURRENCY must be a 3-letter code')
      .default('USD'),
    CURRENCY_SYMBOL: z.string().min(1).max(4).default(DEFAULT_CURRENCY_SYMBOL),
    /** Stripe: with both keys set the `stripe` provider replaces the offline sandbox. */
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** Only for tests against a local server speaking Stripe's API, e.g. http://127.0.0.1:3311. */
    STRIPE_API_URL: z.url().optional(),
    /**
     * APDS webhooks (docs/apds.md#webhooks): `true` lets a subscription's endpoint be http, on
     * localhost or on a private address (tests, a local receiver); production leaves it false, so
     * the server cannot be made to call into its own network.
     */
    APDS_WEBHOOK_PRIVATE_URLS: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /** How often the wallet jobs run (auto-reload, plan renewal, old idempotency keys), on the job runner's tick; 0 = never. */
    WALLET_JOB_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
    /** The job runner's tick (parking expiry, reminders, Auto Extend…; the prune and the wallet's jobs at their own pace); 0 turns every job off in this process. */
    JOBS_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['VAPID_PRIVATE_KEY'],
        message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together, or neither',
      });
    }
    const twilio = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_FROM].filter(Boolean).length;
    if (twilio !== 0 && twilio !== 3) {
      ctx.addIssue({
        code: 'custom',
        path: ['TWILIO_ACCOUNT_SID'],
        message: 'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are set together, or none',
      });
    }
    if (env.NODE_ENV === 'production' && !env.JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message: 'JWT_SECRET is required when NODE_ENV=production',
      });
    }
    if (env.DATABASE_READ_URL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_READ_URL'],
        message: 'DATABASE_READ_URL needs DATABASE_URL: the embedded database has no replicas',
      });
    }
    if (env.DEV_OUTBOX && !isLoopback(env.HOST)) {
      ctx.addIssue({
        code: 'custom',
        path: ['DEV_OUTBOX'],
        message: `DEV_OUTBOX=true needs a loopback HOST (127.0.0.1, ::1 or localhost), not ${env.HOST}`,
      });
    }
    if (env.DEV_OUTBOX && env.TRUST_PROXY) {
      ctx.addIssue({
        code: 'custom',
        path: ['DEV_OUTBOX'],
        message: 'DEV_OUTBOX=true is for a server on this machine, not one behind a proxy (TRUST_PROXY=true)',
      });
    }
    if (env.DEV_OUTBOX && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['DEV_OUTBOX'],
        message: 'DEV_OUTBOX=true is for development (NODE_ENV=development)',
      });
    }
  });

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** 127.0.0.0/8, ::1 and localhost: addresses no other machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

export type Config = z.infer<typeof EnvSchema> & { JWT_SECRET: string };

/** Reads the environment once; on a bad value it throws listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  return { ...cfg, JWT_SECRET: cfg.JWT_SECRET ?? localSecret(cfg.DATA_DIR) };
}

/** Outside production a signing secret is made once and kept in the data folder. */
function localSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * The pool's default: twice this machine's cores and one (PostgreSQL's own rule of thumb for the
 * connections that keep a server busy), at least 4. More connections than that only move the queue
 * from the pool, where requests wait in turn, into the operating system's scheduler, where a
 * descheduled backend holds its request up: on 2 cores a pool of 10 ran the plate check at the same
 * rate as one of 5 but with a longer tail (docs/operations.md#the-connection-pool).
 */
export function defaultPoolSize(cores = availableParallelism()): number {
  return Math.max(4, 2 * cores + 1);
}
