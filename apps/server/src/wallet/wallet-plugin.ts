import fp from 'fastify-plugin';
import { DEFAULT_CURRENCY_SYMBOL, type Config } from '../config.ts';
import { runAllDueReloads, runDueReload, type ReloadContext, type ReloadOutcome } from './auto-reload.ts';
import { recoverCharges } from './charges.ts';
import { sendRefunds } from './refunds.ts';
import { purgeExpiredKeys } from './idempotency.ts';
import { sandboxProvider } from './providers/sandbox.ts';
import { stripeProvider } from './providers/stripe.ts';
import type { PaymentProvider } from './providers/types.ts';
import { runSubscriptionJobs } from './subscriptions.ts';

export type WalletConfig = Partial<
  Pick<
    Config,
    | 'CURRENCY'
    | 'CURRENCY_SYMBOL'
    | 'STRIPE_SECRET_KEY'
    | 'STRIPE_PUBLISHABLE_KEY'
    | 'STRIPE_WEBHOOK_SECRET'
    | 'STRIPE_API_URL'
    | 'WALLET_JOB_INTERVAL_MS'
  >
>;

export interface WalletService extends ReloadContext {
  /** The sandbox's tokenizer, when the sandbox is the provider. */
  sandbox: ReturnType<typeof sandboxProvider> | null;
  stripe: { publishableKey: string; webhookSecret: string | null } | null;
  /**
   * Called after COMMIT of a transaction whose debit marked the reload due (idempotency.ts): charges it now
   * (errors are logged, never thrown; the job retries what is left due).
   */
  reloadIfDue(memberId: number): Promise<ReloadOutcome | 'failed'>;
  /** One run of every wallet job (tests, and the job runner's job `wallet`: app.ts). */
  runJobs(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    wallet: WalletService;
  }
}

/** The payment provider, the wallet's settings and its jobs (run by the job runner: app.ts), for every route. */
export default fp<{ config: WalletConfig; secret: string }>(
  async (app, { config, secret }) => {
    const useStripe = Boolean(config.STRIPE_SECRET_KEY && config.STRIPE_PUBLISHABLE_KEY);
    const sandbox = useStripe ? null : sandboxProvider(secret);
    const provider: PaymentProvider = useStripe
      ? stripeProvider({ secretKey: config.STRIPE_SECRET_KEY ?? '', apiUrl: config.STRIPE_API_URL })
      : (sandbox as PaymentProvider);
    const ctx: ReloadContext = {
      db: app.db,
      provider,
      currency: (config.CURRENCY ?? 'USD').toLowerCase(),
      currencySymbol: config.CURRENCY_SYMBOL ?? DEFAULT_CURRENCY_SYMBOL,
      // Filled at start-up by the domains that own other kinds of card movement (Quick Park), and
      // what a refused refund of theirs does (citations): the job's ctx and app.wallet share both.
      handlers: {},
      refundRefused: {},
    };
    const service: WalletService = {
      ...ctx,
      sandbox,
      stripe: useStripe
        ? { publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? '', webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? null }
        : null,
      async reloadIfDue(memberId) {
        try {
          return await runDueReload(ctx, memberId);
        } catch (err) {
          app.log.error({ err, memberId }, 'auto-reload failed; the job will retry');
          return 'failed';
        }
      },
      async runJobs() {
        await recoverCharges(ctx);
        await sendRefunds(ctx, { graceMs: 60_000 });
        await runAllDueReloads(ctx);
        await runSubscriptionJobs(ctx);
        await purgeExpiredKeys(app.db);
      },
    };
    app.decorate('wallet', service);
  },
  { name: 'wallet', dependencies: ['db'] },
);
