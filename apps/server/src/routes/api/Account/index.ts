import type { FastifyPluginAsync } from 'fastify';
import signUpRoutes from './sign-up.ts';
import detailsRoutes from './details.ts';
import profileRoutes from './profile.ts';
import parkingOptionsRoutes from './parking-options.ts';
import autoReloadRoutes from './auto-reload.ts';

/** /api/Account: sign-up and sign-in helpers, details, profile. */
const accountRoutes: FastifyPluginAsync<{ clientId: () => Promise<number> }> = async (app, opts) => {
  await app.register(signUpRoutes, { clientId: opts.clientId });
  await app.register(detailsRoutes);
  await app.register(profileRoutes);
  await app.register(parkingOptionsRoutes);
  await app.register(autoReloadRoutes);
};

export default accountRoutes;
