import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import tokenRoute from './public/token.ts';
import healthRoutes from './public/Health/index.ts';
import registerRoutes from './public/Account/register.ts';
import signInCodeRoutes from './public/Account/sign-in-code.ts';
import logoutRoutes from './public/Account/logout.ts';
import referenceRoutes from './public/Vehicle/reference.ts';
import coreRoutes from './public/Core/index.ts';
import planRoutes from './public/Subscription/plans.ts';
import sandboxRoutes from './public/Sandbox/index.ts';
import stripeRoutes from './public/Stripe/index.ts';
import parkingBrowseRoutes from './public/Parking/index.ts';
import guestCodeRoutes from './public/Parking/guest-code.ts';
import supportHoursRoutes from './public/Support/hours.ts';
import devRoutes from './public/Dev/index.ts';
import pushKeyRoutes from './public/Push/index.ts';
import cdsCurbRoutes from './public/Cds/curbs.ts';
import cdsEventRoutes from './cds-key/Cds/events.ts';
import cdsMetricRoutes from './cds-key/Cds/metrics.ts';
import quickParkRoutes from './guest/Parking/guest.ts';
import enforcementRoutes from './operator-key/Enforcement/index.ts';
import apdsPublicRoutes from './public/Apds/index.ts';
import apdsSessionRoutes from './operator-key/Apds/sessions.ts';
import apdsWebhookRoutes, { type ApdsWebhookRouteOptions } from './operator-key/Apds/webhooks.ts';
import apdsAssignedRightRoutes from './operator-key/Apds/assigned-rights.ts';
import operatorConsoleRoutes from './operator/Operator/index.ts';
import operatorZoneRoutes from './operator/Operator/zones.ts';
import operatorPriceRoutes from './operator/Operator/prices.ts';
import operatorReportRoutes from './operator/Operator/reports.ts';
import operatorSessionRoutes from './operator/Operator/sessions.ts';
import operatorSettlementRoutes from './operator/Operator/settlement.ts';
import operatorPermitRoutes from './operator/Operator/permits.ts';
import permitRoutes from './member/Permits/index.ts';
import accountRoutes from './member/Account/index.ts';
import leavingRoutes from './member/Account/leaving.ts';
import vehicleRoutes from './member/Vehicle/vehicles.ts';
import parkingSessionRoutes from './member/Parking/sessions.ts';
import parkingHistoryRoutes from './member/Parking/history.ts';
import walletRoutes from './member/Wallet/index.ts';
import paymentMethodRoutes from './member/PaymentMethods/index.ts';
import subscriptionRoutes from './member/Subscription/index.ts';
import devWalletRoutes from './member/Dev/wallet.ts';
import supportMemberRoutes from './member/Support/index.ts';
import pushRoutes from './member/Push/index.ts';
import supportConsoleRoutes from './agent/Support/index.ts';
import type { SupportOptions } from './common/Support/common.ts';
import type { CitationOptions } from './common/Citations/common.ts';
import citationRoutes from './member/Citations/index.ts';
import citationProofPackRoutes from './member/Citations/proof-pack.ts';
import operatorCitationRoutes from './operator/Operator/citations.ts';
import operatorEnforcementRoutes from './operator/Operator/enforcement.ts';
import operatorKeyRoutes from './operator/Operator/keys.ts';
import { agentOnly, apiShape, cdsKeyOnly, guestOnly, memberOnly, operatorKeyOnly, operatorOnly } from './scopes.ts';

export interface RoutesOptions {
  /** GET /api/Dev/Outbox: only with DEV_OUTBOX=true, which config allows on loopback only. */
  devOutbox: boolean;
  /** The operator a new member parks with (the spec's client_id). */
  defaultClientId: () => Promise<number>;
  support: SupportOptions;
  /** Citations' photos and contest attachments. */
  citations: CitationOptions;
  /** APDS webhooks: whether endpoints on private addresses are taken. */
  apdsWebhooks: ApdsWebhookRouteOptions;
}

/**
 * A scope: who may call the routes in it. Each is a folder of routes/ (routes/README.md), and adds
 * its authentication, `security` and error answers once (scopes.ts); route files never add them.
 */
const scopes = {
  /** Anyone: sign-in and sign-up, health, reference lists, Find Parking's reads, webhooks. */
  public: (_app: FastifyInstance) => {},
  /** A member's bearer token. */
  member: memberOnly,
  /** Quick Park: a phone-verified guest token (not a member's token). */
  guest: guestOnly,
  /** A support agent: a member's token and the agent role. */
  agent: agentOnly,
  /** An operator's API key (officers' plate checks). */
  operatorKey: operatorKeyOnly,
  /** An operator's CDS feed key, as a bearer token (a city reading CDS Events and Metrics). */
  cdsKey: cdsKeyOnly,
  /** An operator's staff: a member's token and a role at the operator of the path. */
  operator: operatorOnly,
};

/** One area's routes: the scope (the folder its file lives in), the plugin, its prefix and options. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each area's plugin takes its own options
type Area = [scope: keyof typeof scopes, plugin: FastifyPluginAsync<any>, prefix: string, options?: object];

/**
 * Every API area (paths /api/{Area}/{Action}). An area may have routes in more than one scope,
 * under the same prefix. The order is the OpenAPI document's: rows of one scope in a row share
 * one Fastify scope.
 */
const routes: FastifyPluginAsync<RoutesOptions> = async (app, opts) => {
  apiShape(app);

  const areas: Area[] = [
    ['public', tokenRoute, ''],
    ['public', healthRoutes, '/api'],
    ['public', registerRoutes, '/api/Account', { clientId: opts.defaultClientId }],
    ['public', signInCodeRoutes, '/api/Account'],
    ['public', logoutRoutes, '/api/Account'],
    ['public', referenceRoutes, '/api/Vehicle'],
    ['public', coreRoutes, '/api/Core'],
    // Wallet: the plans, the sandbox's tokenizer, Stripe's webhook.
    ['public', planRoutes, '/api/Subscription'],
    ['public', sandboxRoutes, '/api/Sandbox'],
    ['public', stripeRoutes, '/api/Stripe'],
    // Find Parking's zone reads, for members and guests alike.
    ['public', parkingBrowseRoutes, '/api/Parking'],
    // Quick Park: a code gives a phone its guest token, which pays and opens its sessions.
    ['public', guestCodeRoutes, '/api/Parking/Guest'],
    ['guest', quickParkRoutes, '/api/Parking/Guest'],
    ['public', supportHoursRoutes, '/api/Support', { hours: opts.support.hours }],
    // Web Push: the VAPID public key browsers subscribe with.
    ['public', pushKeyRoutes, '/api/Push'],
    // Open data: the Curb Data Specification's Curbs API, public and cacheable.
    ['public', cdsCurbRoutes, '/cds/curbs'],
    // Open data: CDS Events and Metrics, for the city, behind the operator's CDS key (docs/open-data.md).
    ['cdsKey', cdsEventRoutes, '/cds/events'],
    ['cdsKey', cdsMetricRoutes, '/cds/metrics'],
    // Officers' plate check.
    ['operatorKey', enforcementRoutes, '/api/Enforcement'],
    // Open data, APDS: public places, rates, right specifications and quotes; the
    // operator's sessions and assigned rights behind its API key (docs/apds.md).
    ['public', apdsPublicRoutes, '/apds'],
    ['operatorKey', apdsSessionRoutes, '/apds'],
    // APDS event subscriptions (signed webhooks from the outbox), their dead letters.
    ['operatorKey', apdsWebhookRoutes, '/apds', opts.apdsWebhooks],
    ['operatorKey', apdsAssignedRightRoutes, '/apds'],
    ...(opts.devOutbox ? [['public', devRoutes, '/api/Dev'] satisfies Area] : []),
    ['member', accountRoutes, '/api/Account'],
    // Leaving cleanly: a member's data as one file, and the deletion of the account.
    ['member', leavingRoutes, '/api/Account', opts.support],
    ['member', vehicleRoutes, '/api/Vehicle'],
    ['member', parkingSessionRoutes, '/api/Parking'],
    // Past parking: the history, its CSV and PDF receipts.
    ['member', parkingHistoryRoutes, '/api/Parking'],
    // Wallet, cards and plans.
    ['member', walletRoutes, '/api/Wallet'],
    ['member', paymentMethodRoutes, '/api/PaymentMethods'],
    ['member', subscriptionRoutes, '/api/Subscription'],
    ...(opts.devOutbox ? [['member', devWalletRoutes, '/api/Dev'] satisfies Area] : []),
    ['member', supportMemberRoutes, '/api/Support', opts.support],
    // Web Push subscriptions for reminders that reach a closed app.
    ['member', pushRoutes, '/api/Push'],
    // A driver's citations: see, pay, contest.
    ['member', citationRoutes, '/api/Citations', opts.citations],
    // The proof pack of a citation, for a contest (a PDF of our own records).
    ['member', citationProofPackRoutes, '/api/Citations'],
    // Permits: types, applications with proof, payment, visitor days.
    ['member', permitRoutes, '/api/Permits', opts.support],
    // Support agents only: members get 403 here.
    ['agent', supportConsoleRoutes, '/api/Support/Console', opts.support],
    // The operator's console: staff only, scoped by the operator of the path (drivers get 403).
    ['operator', operatorConsoleRoutes, '/api/Operator'],
    ['operator', operatorZoneRoutes, '/api/Operator'],
    ['operator', operatorPriceRoutes, '/api/Operator'],
    ['operator', operatorReportRoutes, '/api/Operator'],
    ['operator', operatorSessionRoutes, '/api/Operator'],
    ['operator', operatorSettlementRoutes, '/api/Operator'],
    ['operator', operatorCitationRoutes, '/api/Operator', opts.citations],
    ['operator', operatorPermitRoutes, '/api/Operator', opts.support],
    ['operator', operatorEnforcementRoutes, '/api/Operator'],
    ['operator', operatorKeyRoutes, '/api/Operator'],
  ];

  for (let i = 0; i < areas.length;) {
    const scope = areas[i]![0];
    let end = i;
    while (end < areas.length && areas[end]![0] === scope) end++;
    const run = areas.slice(i, end);
    await app.register(async (scoped) => {
      scopes[scope](scoped);
      for (const [, plugin, prefix, options] of run) await scoped.register(plugin, { prefix, ...options });
    });
    i = end;
  }
};

export default routes;
