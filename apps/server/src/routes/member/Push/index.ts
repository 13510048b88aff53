import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  MessageResponse,
  PUSH_MESSAGES as M,
  PushSubscriptionRequest,
  PushUnsubscribeRequest,
} from '@parkit/contract';
import { badRequest, notFound } from '../../../lib/http-error.ts';
import { subscribe, unsubscribe } from '../../../infra/push/push-repository.ts';

const member = { tags: ['Push'] };

/**
 * The signed-in member's Web Push subscriptions, one per browser (docs/product.md#reminders). A
 * subscription is reached only by its endpoint and the member's id: another member's is a 404.
 */
const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/Subscription',
    {
      schema: {
        ...member,
        summary: 'Save this browser’s push subscription (PushSubscription.toJSON()) for the member’s reminders',
        body: PushSubscriptionRequest,
        response: { 200: MessageResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const { endpoint, keys, Language } = req.body;
      if (!app.push.acceptsEndpoint(endpoint)) throw badRequest('endpoint', M.endpointNotPushService);
      await subscribe(app.db, req.member.memberId, {
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        language: Language,
      });
      return { message: M.subscribed };
    },
  );

  app.post(
    '/Subscription/Delete',
    {
      schema: {
        ...member,
        summary: 'Forget this browser’s push subscription',
        body: PushUnsubscribeRequest,
        response: { 200: MessageResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      if (!(await unsubscribe(app.db, req.member.memberId, req.body.endpoint))) throw notFound(M.notSubscribed);
      return { message: M.unsubscribed };
    },
  );
};

export default pushRoutes;
