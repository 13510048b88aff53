import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AutoReloadRequest, AutoReloadResponse, centsToAmount, ErrorResponse, WALLET_TEXTS } from '@parkit/contract';
import { saveAutoReload } from '../../../wallet/index.ts';

/** POST /api/Account/AutoReload: Default Add Amount, Minimum Trigger Amount (MinBalance) and the switch. */
const autoReloadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/AutoReload',
    {
      schema: {
        tags: ['Account'],
        summary: 'Save the auto-reload settings (switching it on needs a default card)',
        body: AutoReloadRequest,
        response: { 200: AutoReloadResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const memberId = req.member.memberId;
      const { AutoReload, DefaultAddAmount, MinBalance } = req.body;
      await saveAutoReload(app.db, memberId, {
        autoReload: AutoReload,
        defaultAddAmountCents: DefaultAddAmount,
        minBalanceCents: MinBalance,
      });
      return {
        AutoReload,
        DefaultAddAmount: centsToAmount(DefaultAddAmount),
        MinBalance: String(centsToAmount(MinBalance)),
        message: WALLET_TEXTS.autoReloadSaved,
      };
    },
  );
};

export default autoReloadRoutes;
