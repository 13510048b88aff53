import type { FastifyPluginAsync } from 'fastify';
import tokenRoute from './token.ts';
import healthRoutes from './api/Health/index.ts';
import registerRoutes from './api/Account/register.ts';
import signInCodeRoutes from './api/Account/sign-in-code.ts';
import logoutRoutes from './api/Account/logout.ts';
import accountRoutes from './api/Account/index.ts';
import devRoutes from './api/Dev/index.ts';
import referenceRoutes from './api/Vehicle/reference.ts';
import vehicleRoutes from './api/Vehicle/vehicles.ts';
import coreRoutes from './api/Core/index.ts';
import parkingBrowseRoutes from './api/Parking/index.ts';
import parkingSessionRoutes from './api/Parking/sessions.ts';
import parkingHistoryRoutes from './api/Parking/history.ts';
import quickParkRoutes from './api/Parking/guest.ts';
import walletRoutes from './api/Wallet/index.ts';
import paymentMethodRoutes from './api/PaymentMethods/index.ts';
import subscriptionRoutes from './api/Subscription/index.ts';
import planRoutes from './api/Subscription/plans.ts';
import sandboxRoutes from './api/Sandbox/index.ts';
import stripeRoutes from './api/Stripe/index.ts';
import devWalletRoutes from './api/Dev/wallet.ts';
import { supportConsoleRoutes, supportMemberRoutes, supportPublicRoutes, type SupportOptions } from './api/Support/index.ts';
import enforcementRoutes from './api/Enforcement/index.ts';
import { agentOnly, apiShape, memberOnly } from './scopes.ts';

export interface RoutesOptions {
  /** GET /api/Dev/Outbox: only with DEV_OUTBOX=true, which config allows on loopback only. */
  devOutbox: boolean;
  /** The operator a new member parks with (the spec's client_id). */
  defaultClientId: () => Promise<number>;
  support: SupportOptions;
}

/**
 * Every API area (spec section 7 paths: /api/{Area}/{Action}), in two scopes: public routes, and
 * the member-only scope that adds authentication once (routes/README.md). An area may have routes
 * in both, under the same prefix.
 */
const routes: FastifyPluginAsync<RoutesOptions> = async (app, opts) => {
  apiShape(app);

  // Public: sign-in and sign-up, health, the reference lists the forms pick from.
  await app.register(tokenRoute);
  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(registerRoutes, { prefix: '/api/Account', clientId: opts.defaultClientId });
  await app.register(signInCodeRoutes, { prefix: '/api/Account' });
  await app.register(logoutRoutes, { prefix: '/api/Account' });
  await app.register(referenceRoutes, { prefix: '/api/Vehicle' });
  await app.register(coreRoutes, { prefix: '/api/Core' });
  // Wallet (issue 10): the plans, the sandbox's tokenizer, Stripe's webhook.
  await app.register(planRoutes, { prefix: '/api/Subscription' });
  await app.register(sandboxRoutes, { prefix: '/api/Sandbox' });
  await app.register(stripeRoutes, { prefix: '/api/Stripe' });
  // Find Parking's zone reads, for members and guests alike (issue 11).
  await app.register(parkingBrowseRoutes, { prefix: '/api/Parking' });
  // Quick Park: a driver without an account (a phone-verified guest token, not a member token).
  await app.register(quickParkRoutes, { prefix: '/api/Parking/Guest' });
  await app.register(supportPublicRoutes, { prefix: '/api/Support', ...opts.support });
  // Officers' plate check: an operator's API key, not a member's token (issue 12).
  await app.register(enforcementRoutes, { prefix: '/api/Enforcement' });
  if (opts.devOutbox) await app.register(devRoutes, { prefix: '/api/Dev' });

  // Members only.
  await app.register(async (member) => {
    memberOnly(member);
    await member.register(accountRoutes, { prefix: '/api/Account' });
    await member.register(vehicleRoutes, { prefix: '/api/Vehicle' });
    await member.register(parkingSessionRoutes, { prefix: '/api/Parking' });
    // Past parking (issue 12): the history, its CSV and PDF receipts.
    await member.register(parkingHistoryRoutes, { prefix: '/api/Parking' });
    // Wallet, cards and plans (issue 10).
    await member.register(walletRoutes, { prefix: '/api/Wallet' });
    await member.register(paymentMethodRoutes, { prefix: '/api/PaymentMethods' });
    await member.register(subscriptionRoutes, { prefix: '/api/Subscription' });
    if (opts.devOutbox) await member.register(devWalletRoutes, { prefix: '/api/Dev' });
    await member.register(supportMemberRoutes, { prefix: '/api/Support', ...opts.support });
  });

  // Support agents only (issue 13): members get 403 here.
  await app.register(async (agents) => {
    agentOnly(agents);
    await agents.register(supportConsoleRoutes, { prefix: '/api/Support/Console', ...opts.support });
  });
};

export default routes;
