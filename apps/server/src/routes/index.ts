import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
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
/** One area's routes under its prefix, with the options its plugin takes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each area's plugin takes its own options
type Area = [plugin: FastifyPluginAsync<any>, prefix: string, options?: object];

async function registerAreas(scope: FastifyInstance, areas: Area[]) {
  for (const [plugin, prefix, options] of areas) await scope.register(plugin, { prefix, ...options });
}

const routes: FastifyPluginAsync<RoutesOptions> = async (app, opts) => {
  apiShape(app);

  await registerAreas(app, [
    // Public: sign-in and sign-up, health, the reference lists the forms pick from.
    [tokenRoute, ''],
    [healthRoutes, '/api'],
    [registerRoutes, '/api/Account', { clientId: opts.defaultClientId }],
    [signInCodeRoutes, '/api/Account'],
    [logoutRoutes, '/api/Account'],
    [referenceRoutes, '/api/Vehicle'],
    [coreRoutes, '/api/Core'],
    // Wallet (issue 10): the plans, the sandbox's tokenizer, Stripe's webhook.
    [planRoutes, '/api/Subscription'],
    [sandboxRoutes, '/api/Sandbox'],
    [stripeRoutes, '/api/Stripe'],
    // Find Parking's zone reads, for members and guests alike (issue 11).
    [parkingBrowseRoutes, '/api/Parking'],
    // Quick Park: a driver without an account (a phone-verified guest token, not a member token).
    [quickParkRoutes, '/api/Parking/Guest'],
    [supportPublicRoutes, '/api/Support', opts.support],
    // Officers' plate check: an operator's API key, not a member's token (issue 12).
    [enforcementRoutes, '/api/Enforcement'],
    ...(opts.devOutbox ? [[devRoutes, '/api/Dev'] satisfies Area] : []),
  ]);

  // Members only.
  await app.register(async (member) => {
    memberOnly(member);
    await registerAreas(member, [
      [accountRoutes, '/api/Account'],
      [vehicleRoutes, '/api/Vehicle'],
      [parkingSessionRoutes, '/api/Parking'],
      // Past parking (issue 12): the history, its CSV and PDF receipts.
      [parkingHistoryRoutes, '/api/Parking'],
      // Wallet, cards and plans (issue 10).
      [walletRoutes, '/api/Wallet'],
      [paymentMethodRoutes, '/api/PaymentMethods'],
      [subscriptionRoutes, '/api/Subscription'],
      ...(opts.devOutbox ? [[devWalletRoutes, '/api/Dev'] satisfies Area] : []),
      [supportMemberRoutes, '/api/Support', opts.support],
    ]);
  });

  // Support agents only (issue 13): members get 403 here.
  await app.register(async (agents) => {
    agentOnly(agents);
    await registerAreas(agents, [[supportConsoleRoutes, '/api/Support/Console', opts.support]]);
  });
};

export default routes;
