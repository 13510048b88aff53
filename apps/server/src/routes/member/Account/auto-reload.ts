import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, sql } from 'drizzle-orm';
import { AutoReloadRequest, AutoReloadResponse, centsToAmount, ErrorResponse, WALLET_MESSAGES, WALLET_TEXTS } from '@parkit/contract';
import { members, paymentMethods, walletSettings } from '../../../db/schema/index.ts';
import { HttpError, notFound } from '../../../lib/http-error.ts';
import { lockMember } from '../../../members/index.ts';
import { ensureSettings } from '../../../wallet/index.ts';

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
      await app.db.transaction(async (tx) => {
        if (!(await lockMember(tx, memberId))) throw notFound();
        if (AutoReload) {
          const [card] = await tx.select({ id: paymentMethods.id }).from(paymentMethods).where(and(eq(paymentMethods.memberId, memberId), eq(paymentMethods.isDefault, true)));
          if (!card) throw new HttpError(400, WALLET_MESSAGES.noCard, [{ field: 'AutoReload', message: WALLET_MESSAGES.noCard }]);
        }
        await ensureSettings(tx, memberId);
        await tx
          .update(walletSettings)
          .set({ autoReload: AutoReload, defaultAddAmountCents: DefaultAddAmount, updatedAt: sql`now()`, ...(AutoReload ? {} : { reloadDueAt: null }) })
          .where(eq(walletSettings.memberId, memberId));
        await tx.update(members).set({ minBalanceCents: MinBalance, updatedAt: sql`now()` }).where(eq(members.id, memberId));
      });
      return { AutoReload, DefaultAddAmount: centsToAmount(DefaultAddAmount), MinBalance: String(centsToAmount(MinBalance)), message: WALLET_TEXTS.autoReloadSaved };
    },
  );
};

export default autoReloadRoutes;
