import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import {
  AddMoneyRequest,
  AddMoneyResponse,
  centsToAmount,
  ErrorResponse,
  IdempotencyHeaders,
  Spending,
  TransactionsPage,
  TransactionsQuery,
  WALLET_TEXTS,
} from '@parkit/contract';
import { queryRows } from '../../../db/client.ts';
import { ledgerEntries } from '../../../db/schema/index.ts';
import { HttpError } from '../../../lib/http-error.ts';
import { idempotent, postEntry, defaultCard } from '../../../wallet/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';

const member = { tags: ['Wallet'] };
const refused = { 400: ErrorResponse, 402: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse, 503: ErrorResponse };

/** /api/Wallet: the ledger, spending per month, Add Money (issue 10). */
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
    async (req) => {
      const { cursor, limit } = req.query;
      const memberId = req.member.memberId;
      const rows = await app.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.memberId, memberId), cursor === undefined ? undefined : lt(ledgerEntries.id, cursor)))
        .orderBy(desc(ledgerEntries.id))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      return {
        Items: page.map((r) => ({
          TransactionId: r.id,
          Kind: r.kind,
          Amount: centsToAmount(r.amountCents),
          BalanceAfter: centsToAmount(r.balanceAfterCents),
          Reference: r.reference,
          CreatedAt: r.createdAt.toISOString(),
        })),
        NextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
      };
    },
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
    async (req) => {
      const rows = await queryRows<{ month: string; spent: number; added: number }>(
        app.db,
        sql`select to_char(m.month, 'YYYY-MM') as month,
                   coalesce(sum(case when l.kind in ('parking', 'plan', 'refund') then -l.amount_cents else 0 end), 0)::int as spent,
                   coalesce(sum(case when l.kind in ('top-up', 'auto-reload') then l.amount_cents else 0 end), 0)::int as added
            from generate_series(date_trunc('month', now() at time zone 'UTC') - interval '5 months', date_trunc('month', now() at time zone 'UTC'), interval '1 month') as m(month)
            left join ledger_entries l
              on l.member_id = ${req.member.memberId}
             and l.created_at >= m.month at time zone 'UTC'
             and l.created_at < (m.month + interval '1 month') at time zone 'UTC'
            group by m.month order by m.month`,
      );
      return { Months: rows.map((r) => ({ Month: r.month, Spent: centsToAmount(Math.max(0, Number(r.spent))), Added: centsToAmount(Number(r.added)) })) };
    },
  );

  app.post(
    '/AddMoney',
    {
      config: { rateLimit: MONEY_RATE_LIMIT },
      schema: {
        ...member,
        summary: 'Charge a saved card (the default unless PaymentMethodId) and credit the wallet, once per Idempotency-Key',
        description:
          'Amount 5.00 to 500.00 with at most two decimals. A decline answers 402 with the provider’s reason and credits nothing. The same Idempotency-Key with the same body answers the first result again; with another body, 422.',
        headers: IdempotencyHeaders,
        body: AddMoneyRequest,
        response: { 200: AddMoneyResponse, ...refused },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      const { Amount: amountCents, PaymentMethodId } = req.body;
      return idempotent(req, reply, 'Wallet/AddMoney', async (tx, key) => {
        const { card, customerRef } = await defaultCard(tx, memberId, PaymentMethodId);
        const charged = await app.wallet.provider.charge({
          customerRef,
          providerRef: card.providerRef,
          amountCents,
          currency: app.wallet.currency,
          description: 'ParkIt wallet top-up',
          idempotencyKey: `addmoney:${memberId}:${key}`,
        });
        if (!charged.ok) {
          throw new HttpError(charged.reason === 'declined' ? 402 : 503, charged.message, [{ field: 'PaymentMethodId', message: charged.message }]);
        }
        const posted = await postEntry(tx, { memberId, amountCents, kind: 'top-up', reference: `charge:${charged.chargeRef}`, idempotencyKey: key });
        return {
          statusCode: 200,
          body: { TransactionId: posted.entryId, Amount: centsToAmount(amountCents), Balance: centsToAmount(posted.balanceCents), message: WALLET_TEXTS.moneyAdded },
        };
      });
    },
  );
};

export default walletRoutes;
