import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const Health = z.object({ status: z.enum(['ok', 'unavailable']), database: z.string() });

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      // The load balancer's probe: it reads nothing personal, and is not rate-limited (no hook at all).
      config: { rateLimit: false },
      // Its answer (under 50 bytes) is far below the 1 KB compression threshold: no compression
      // hooks on the request the probe sends most.
      compress: false,
      schema: { tags: ['Health'], summary: 'Up, and the database answers', response: { 200: Health, 503: Health } },
    },
    async (_req, reply) => {
      try {
        await app.dbPing();
        return { status: 'ok' as const, database: app.dbDriver };
      } catch (err) {
        app.log.error({ err }, 'health check: database unreachable');
        return reply.code(503).send({ status: 'unavailable', database: app.dbDriver });
      }
    },
  );
};

export default healthRoutes;
