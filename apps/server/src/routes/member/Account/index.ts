import type { FastifyPluginAsync } from 'fastify';
import detailsRoutes from './details.ts';
import passwordRoutes from './password.ts';
import profileRoutes from './profile.ts';
import parkingOptionsRoutes from './parking-options.ts';
import reminderRoutes from './reminders.ts';
import autoReloadRoutes from './auto-reload.ts';
import operatorInviteRoutes from './operator-invite.ts';
import languageRoutes from './language.ts';

/**
 * /api/Account, members only: details, password, profile, parking options, reminders, an operator's invitation, the language. The public ones
 * (register, sign-in code, logout) are registered beside them in routes/index.ts.
 */
const accountRoutes: FastifyPluginAsync = async (app) => {
  await app.register(detailsRoutes);
  await app.register(passwordRoutes);
  await app.register(profileRoutes);
  await app.register(parkingOptionsRoutes);
  await app.register(reminderRoutes);
  await app.register(autoReloadRoutes);
  await app.register(operatorInviteRoutes);
  await app.register(languageRoutes);
};

export default accountRoutes;
