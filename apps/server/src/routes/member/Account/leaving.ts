import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccountExport,
  DeleteAccountRequest,
  DeleteAccountResponse,
  ErrorResponse,
  IdempotencyHeaders,
} from '@parkit/contract';
import { notFound } from '../../../lib/http-error.ts';
import { clearRefreshCookie } from '../../../auth/index.ts';
import { closeAccount, confirmPassword, exportAccount, type Closed } from '../../../privacy/index.ts';
import { idempotencyKeyOf, sendRefunds, withIdempotency } from '../../../wallet/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';
import type { SupportOptions } from '../../common/Support/common.ts';
import { withCookies } from '../../common/cookies.ts';

/** /api/Account/Export and /api/Account/Delete: leaving cleanly (docs/data.md#leaving). */
const leavingRoutes: FastifyPluginAsyncZod<SupportOptions> = async (app, opts) => {
  await withCookies(app);
  app.get(
    '/Export',
    {
      schema: {
        tags: ['Account'],
        summary: 'Everything ParkIt holds about the member, as one JSON file (sent as a download)',
        response: { 200: AccountExport, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const data = await exportAccount(app.db, req.member.memberId);
      if (!data) throw notFound();
      void reply
        .header('content-disposition', `attachment; filename="parkit-data-${data.ExportedAt.slice(0, 10)}.json"`)
        .header('cache-control', 'no-store');
      return data;
    },
  );

  app.post(
    '/Delete',
    {
      config: { rateLimit: MONEY_RATE_LIMIT },
      schema: {
        tags: ['Account'],
        summary: 'Delete the account, once per Idempotency-Key: the wallet goes back to the card, every token ends',
        description:
          'The member’s password confirms it (400 on Password when wrong). 409 while a parking session runs or a card charge to the wallet is pending, saying which. The balance is refunded to the card charges it came from (the provider is called after the transaction); credit no card paid for ends. Personal data is deleted or anonymised; the ledger and the parking receipts stay under the member id without name, phone or e-mail.',
        headers: IdempotencyHeaders,
        body: DeleteAccountRequest,
        response: {
          200: DeleteAccountResponse,
          400: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          422: ErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      const key = idempotencyKeyOf(req);
      await confirmPassword(app.db, memberId, req.body.Password);
      let closed: Closed | null = null;
      // The body hashed for the key is empty: the password is never stored, not even hashed.
      const result = await withIdempotency(app.db, { memberId, key, scope: 'Account/Delete', body: {} }, async (tx) => {
        closed = await closeAccount(tx, memberId, key);
        return closed.result;
      });
      app.sessionCache.forget(memberId);
      clearRefreshCookie(reply);
      const done = closed as Closed | null;
      if (done) {
        // After COMMIT, outside any transaction: the refunds (left pending for the wallet job when
        // the provider is unreachable), the cards at the provider, the chat's files.
        await sendRefunds(app.wallet, { memberId });
        for (const card of done.cardRefs)
          if (card.provider === app.wallet.provider.name) await app.wallet.provider.detach(card.providerRef);
        await opts.attachments.remove(done.attachmentIds);
      }
      if (result.replayed) void reply.header('idempotent-replayed', 'true');
      void reply.code(200);
      return result.body;
    },
  );
};

export default leavingRoutes;
