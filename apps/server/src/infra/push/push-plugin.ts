import fp from 'fastify-plugin';
import { isPushServiceUrl } from './endpoint.ts';
import { pushSender } from './push-sender.ts';
import { loadVapidKeys } from './vapid.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Web Push: the VAPID public key browsers subscribe with (infra/push/README.md). */
    push: { publicKey: string; acceptsEndpoint(endpoint: string): boolean };
  }
}

export interface PushPluginOptions {
  publicKey?: string | undefined;
  privateKey?: string | undefined;
  subject: string;
  dataDir?: string | undefined;
  ca?: string | undefined;
  production: boolean;
}

/** The VAPID keys (config, else kept in the data folder), and the push job on the runner. */
export default fp<PushPluginOptions>(
  async (app, opts) => {
    const vapid = loadVapidKeys(opts);
    app.decorate('push', {
      publicKey: vapid.publicKey,
      acceptsEndpoint: (endpoint: string) => isPushServiceUrl(endpoint, opts.production),
    });
    app.jobs.register('push.send', pushSender({ vapid, subject: opts.subject, ca: opts.ca, log: app.log }));
  },
  { name: 'web-push', dependencies: ['jobs'] },
);
