import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CurrentSubscription, IdempotencyHeaders, SubscribeRequest } from '@parkit/contract';
import type { Executor } from '../../../db/client.ts';
import {
  idempotent,
  planForMember,
  toPlan,
  activeSubscription,
  cancelAtPeriodEnd,
  chargeSubscription,
  planById,
  subscribe,
} from '../../../wallet/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';
import { moneyRefusals as refused } from '../../common/money-refusals.ts';

const member = { tags: ['Subscription'] };

async function current(db: Executor, memberId: number): Promise<CurrentSubscription> {
  const [sub, plan] = await Promise.all([activeSubscription(db, memberId), planForMember(db, memberId)]);
  return {
    Plan: toPlan(plan),
    SubscriptionId: sub?.id ?? null,
    CurrentPeriodEnd: sub ? sub.currentPeriodEnd.toISOString() : null,
    CancelAtPeriodEnd: sub?.cancelAtPeriodEnd ?? false,
  };
}

/** /api/Subscription, members only: the member's plan, subscribe and cancel. See docs/product.md#wallet-and-plans for what a plan gives. GET /Plans is public: plans.ts. */
const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Current',
    {
      schema: {
        ...member,
        summary: 'The member’s plan (Basic when none is bought) and its period',
        response: { 200: CurrentSubscription },
      },
    },
    async (req) => current(app.db, req.member.memberId),
  );

  app.post(
    '/Subscribe',
    {
      config: { rateLimit: MONEY_RATE_LIMIT },
      schema: {
        ...member,
        summary:
          'Buy a plan: charges its monthly price once per Idempotency-Key to the default card, or to an express payment’s one-time card (ExpressToken), then renews monthly from the default card',
        headers: IdempotencyHeaders,
        body: SubscribeRequest,
        response: { 200: CurrentSubscription, ...refused },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      const plan = await planById(app.db, req.body.PlanId);
      // The card is charged before the transaction and outside it; the transaction records it.
      return idempotent(
        req,
        reply,
        'Subscription/Subscribe',
        async (tx, key, charged) => {
          await subscribe(tx, memberId, plan, key, charged);
          return { statusCode: 200, body: await current(tx, memberId) };
        },
        (key: string, keyExpired: boolean) =>
          chargeSubscription(app.wallet, memberId, plan, key, keyExpired, req.body.ExpressToken),
      );
    },
  );

  app.post(
    '/Cancel',
    {
      schema: {
        ...member,
        summary: 'Cancel the paid plan at the end of its period',
        response: { 200: CurrentSubscription, ...refused },
      },
    },
    async (req) => {
      await cancelAtPeriodEnd(app.db, req.member.memberId);
      return current(app.db, req.member.memberId);
    },
  );
};

export default subscriptionRoutes;
