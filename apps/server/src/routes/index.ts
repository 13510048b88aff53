import type { FastifyPluginAsync } from 'fastify';
import tokenRoute from './token.ts';
import healthRoutes from './api/Health/index.ts';
import accountRoutes from './api/Account/index.ts';
import devRoutes from './api/Dev/index.ts';
import vehicleRoutes from './api/Vehicle/index.ts';
import coreRoutes from './api/Core/index.ts';
import parkingRoutes from './api/Parking/index.ts';
import enforcementRoutes from './api/Enforcement/index.ts';

export interface RoutesOptions {
  production: boolean;
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
  await app.register(enforcementRoutes, { prefix: '/api/Enforcement' });
  if (!opts.production) await app.register(devRoutes, { prefix: '/api/Dev' });
};

export default routes;
