import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountDetails } from '@parkit/contract';
import { checkSession } from '../../../auth/index.ts';
import * as members from '../../../members/index.ts';
import { toWalletDetails } from '../../../wallet/index.ts';

const detailsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Details',
    {
      // One row by its key: the member (with the session version), the vehicle count and the
      // wallet's part kept on it by triggers; the plan's name from the reference lists.
      config: { sessionInQuery: true },
      schema: {
        tags: ['Account'],
        summary: 'The member’s balance, MinBalance and saved user data (docs/product.md#api-calls)',
        response: { 200: AccountDetails },
      },
    },
    async (req) => {
      const found = await members.findDetails(app.db, req.member.memberId);
      checkSession(req, found?.member.sessionVersion);
      const { member, vehicleCount, wallet } = found!;
      const plan = await app.referenceLists.plan(app.db, wallet.subscribedPlanId);
      return members.toAccountDetails(member, vehicleCount, toWalletDetails(wallet, app.wallet, plan));
    },
  );
};

export default detailsRoutes;
