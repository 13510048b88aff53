import type { FastifyPluginAsync } from 'fastify';
import detailsRoutes from './details.ts';
import profileRoutes from './profile.ts';
import parkingOptionsRoutes from './parking-options.ts';

/** /api/Account, members only: details, profile, parking options (sign-up and sign-in: sign-up.ts). */
const accountRoutes: FastifyPluginAsync = async (app) => {
  await app.register(detailsRoutes);
  await app.register(profileRoutes);
  await app.register(parkingOptionsRoutes);
};

export default accountRoutes;
