import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PushPublicKey } from '@parkit/contract';

/** The VAPID public key a browser subscribes with (infra/push/README.md). */
const pushKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/PublicKey',
    {
      schema: {
        tags: ['Push'],
        summary: 'The Web Push VAPID public key (base64url): the applicationServerKey of pushManager.subscribe',
        response: { 200: PushPublicKey },
      },
    },
    async () => ({ PublicKey: app.push.publicKey }),
  );
};

export default pushKeyRoutes;
