import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { centsToAmount, IdempotencyHeaders, TopUpAmount } from '@parkit/contract';
import { idempotent, postEntry } from '../../../wallet/index.ts';
import { localOnly } from '../../public/Dev/index.ts';

/**
 * Development only, members only: debits the caller's own wallet through the same postEntry and
 * auto-reload code parking uses, so the browser tests can cross the reload trigger before parking
 * exists on this branch. Never registered in production.
 */
const devWalletRoutes: FastifyPluginAsyncZod = async (app) => {
  localOnly(app);
  app.post(
    '/WalletDebit',
    {
      schema: {
        tags: ['Dev'],
        summary: 'Debit the member’s own wallet like a parking payment would (development only)',
        headers: IdempotencyHeaders,
        body: z.object({ Amount: TopUpAmount }),
        response: { 200: z.object({ Balance: z.number(), ReloadDue: z.boolean(), Reload: z.string() }) },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      const posted = await idempotent(req, reply, 'Dev/WalletDebit', async (tx, key) => {
        const p = await postEntry(tx, {
          memberId,
          amountCents: -req.body.Amount,
          kind: 'adjustment',
          reference: 'dev:debit',
          idempotencyKey: key,
        });
        return {
          statusCode: 200,
          body: { Balance: centsToAmount(p.balanceCents), ReloadDue: p.reloadDue, Reload: 'none' },
        };
      });
      if (!posted.ReloadDue) return posted;
      const outcome = await app.wallet.reloadIfDue(memberId);
      return { ...posted, Reload: outcome };
    },
  );
};

export default devWalletRoutes;
