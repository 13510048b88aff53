import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountDetails } from '@parkit/contract';
import { checkSession } from '../../../plugins/app/auth/auth-plugin.ts';
import * as members from '../../../plugins/app/members/member-repository.ts';
import { walletDetails } from '../../../plugins/app/wallet/wallet-view.ts';

const detailsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Details',
    {
      // The member's row carries the session version: one round trip (with the wallet's, at once).
      config: { sessionInQuery: true },
      schema: {
        tags: ['Account'],
        summary: 'The member’s balance, MinBalance and saved user data (spec section 7)',
        response: { 200: AccountDetails },
      },
    },
    async (req) => {
      const id = req.member.memberId;
      const [found, wallet] = await Promise.all([members.findWithVehicleCount(app.db, id), walletDetails(app.db, app.wallet, id)]);
      checkSession(req, found?.member.sessionVersion);
      const { member, vehicleCount } = found!;
      return members.toAccountDetails(member, vehicleCount, wallet);
    },
  );
};

export default detailsRoutes;
