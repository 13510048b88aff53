import type { FastifyPluginAsync } from 'fastify';
import tokenRoute from './token.ts';
import healthRoutes from './api/Health/index.ts';
import accountRoutes from './api/Account/index.ts';
import devRoutes from './api/Dev/index.ts';
import vehicleRoutes from './api/Vehicle/index.ts';
import coreRoutes from './api/Core/index.ts';
import parkingRoutes from './api/Parking/index.ts';

export interface RoutesOptions {
  /** GET /api/Dev/Outbox: only with DEV_OUTBOX=true, which config allows on loopback only. */
  devOutbox: boolean;
  /** The operator a new member parks with (the spec's client_id). */
  defaultClientId: () => Promise<number>;
}

/** Every API area, one plugin each (spec section 7 paths: /api/{Area}/{Action}). */
const routes: FastifyPluginAsync<RoutesOptions> = async (app, opts) => {
  await app.register(tokenRoute);
  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(accountRoutes, { prefix: '/api/Account', clientId: opts.defaultClientId });
  await app.register(vehicleRoutes, { prefix: '/api/Vehicle' });
  await app.register(coreRoutes, { prefix: '/api/Core' });
  await app.register(parkingRoutes, { prefix: '/api/Parking' });
  if (opts.devOutbox) await app.register(devRoutes, { prefix: '/api/Dev' });
};

export default routes;
