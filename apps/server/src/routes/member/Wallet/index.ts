import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddMoneyRequest,
  AddMoneyResponse,
  ErrorResponse,
  IdempotencyHeaders,
  Spending,
  TransactionsPage,
  TransactionsQuery,
} from '@parkit/contract';
import { idempotent, chargeAddMoney, recordAddMoney, spending, transactions } from '../../../wallet/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';
import { moneyRefusals as refused } from '../../common/money-refusals.ts';

const member = { tags: ['Wallet'] };

/** /api/Wallet: the ledger, spending per month, Add Money. */
const walletRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Transactions',
    {
      schema: {
        ...member,
        summary: 'The wallet’s transactions, newest first (keyset paging: pass NextCursor as cursor)',
        querystring: TransactionsQuery,
        response: { 200: TransactionsPage, 400: ErrorResponse },
      },
    },
    async (req) => transactions(app.db, req.member.memberId, req.query.cursor, req.query.limit),
  );

  app.get(
    '/Spending',
    {
      schema: {
        ...member,
        summary: 'Money spent (parking and plans, less refunds) and added, per month over the last 6 months (UTC)',
        response: { 200: Spending },
      },
    },
    async (req) => spending(app.db, req.member.memberId),
  );

  app.post(
    '/AddMoney',
    {
      config: { rateLimit: MONEY_RATE_LIMIT },
      schema: {
        ...member,
        summary:
          'Charge a saved card (the default unless PaymentMethodId) or an express payment (ExpressToken) and credit the wallet, once per Idempotency-Key',
        description:
          'Amount 5.00 to 500.00 with at most two decimals. A decline answers 402 with the provider’s reason and credits nothing. The same Idempotency-Key with the same body answers the first result again; with another body, 422.',
        headers: IdempotencyHeaders,
        body: AddMoneyRequest,
        response: { 200: AddMoneyResponse, ...refused },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      const { Amount: amountCents, PaymentMethodId, ExpressToken } = req.body;
      // The card is charged before the transaction and outside it; the transaction records it.
      return idempotent(
        req,
        reply,
        'Wallet/AddMoney',
        (tx, _key, charged) => recordAddMoney(tx, charged),
        (key: string, keyExpired: boolean) =>
          chargeAddMoney(
            app.wallet,
            memberId,
            key,
            { amountCents, paymentMethodId: PaymentMethodId, expressToken: ExpressToken },
            keyExpired,
          ),
      );
    },
  );
};

export default walletRoutes;
