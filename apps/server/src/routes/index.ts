import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import tokenRoute from './public/token.ts';
import healthRoutes from './public/Health/index.ts';
import registerRoutes from './public/Account/register.ts';
import signInCodeRoutes from './public/Account/sign-in-code.ts';
import logoutRoutes from './public/Account/logout.ts';
import accountRoutes from './member/Account/index.ts';
import devRoutes from './public/Dev/index.ts';
import referenceRoutes from './public/Vehicle/reference.ts';
import vehicleRoutes from './member/Vehicle/vehicles.ts';
import coreRoutes from './public/Core/index.ts';
import parkingBrowseRoutes from './public/Parking/index.ts';
import parkingSessionRoutes from './member/Parking/sessions.ts';
import parkingHistoryRoutes from './member/Parking/history.ts';
import quickParkRoutes from './guest/Parking/guest.ts';
import walletRoutes from './member/Wallet/index.ts';
import paymentMethodRoutes from './member/PaymentMethods/index.ts';
import subscriptionRoutes from './member/Subscription/index.ts';
import planRoutes from './public/Subscription/plans.ts';
import sandboxRoutes from './public/Sandbox/index.ts';
import stripeRoutes from './public/Stripe/index.ts';
import devWalletRoutes from './member/Dev/wallet.ts';
import { supportConsoleRoutes, supportMemberRoutes, supportPublicRoutes, type SupportOptions } from './member/Support/index.ts';
import enforcementRoutes from './operator/Enforcement/index.ts';
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
