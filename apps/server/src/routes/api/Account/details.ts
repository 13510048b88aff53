import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountDetails, ErrorResponse } from '@parkit/contract';
import { notFound } from '../../../lib/http-error.ts';
import * as members from '../../../plugins/app/members/member-repository.ts';
import { walletDetails } from '../../../plugins/app/wallet/wallet-view.ts';

const detailsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Details',
    {
      schema: {
        tags: ['Account'],
        summary: 'The member’s balance, MinBalance and saved user data (spec section 7)',
        response: { 200: AccountDetails, 404: ErrorResponse },
      },
    },
    async (req) => {
      const id = req.member.memberId;
      const [found, wallet] = await Promise.all([members.findWithVehicleCount(app.db, id), walletDetails(app.db, app.wallet, id)]);
      if (!found) throw notFound();
      return members.toAccountDetails(found.member, found.vehicleCount, wallet);
    },
  );
};

export default detailsRoutes;
