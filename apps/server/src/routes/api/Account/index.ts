import type { FastifyPluginAsync } from 'fastify';
import registerRoutes from './register.ts';
import signInCodeRoutes from './sign-in-code.ts';
import logoutRoutes from './logout.ts';
import passwordRoutes from './password.ts';
import detailsRoutes from './details.ts';
import profileRoutes from './profile.ts';
import parkingOptionsRoutes from './parking-options.ts';

/** /api/Account: one file per concern (register, sign-in code, logout, password, details, profile). */
const accountRoutes: FastifyPluginAsync<{ clientId: () => Promise<number> }> = async (app, opts) => {
  await app.register(registerRoutes, { clientId: opts.clientId });
  await app.register(signInCodeRoutes);
  await app.register(logoutRoutes);
  await app.register(passwordRoutes);
  await app.register(detailsRoutes);
  await app.register(profileRoutes);
  await app.register(parkingOptionsRoutes);
};

export default accountRoutes;
