import { and, desc, eq, lt, sql } from 'drizzle-orm';
import {
  centsToAmount,
  WALLET_MESSAGES,
  WALLET_TEXTS,
  type AddMoneyResponse,
  type Spending,
  type TransactionsPage,
} from '@parkit/contract';
import { queryRows, type Db, type Executor, type Tx } from '../db/client.ts';
import { ledgerEntries, members, paymentMethods, walletSettings } from '../db/schema/index.ts';
import { HttpError, notFound } from '../lib/http-error.ts';
import { ensureSettings } from './cards.ts';
import { chargeCard, recordCharge, type ChargeContext } from './charges.ts';
import type { IdempotentResult } from './idempotency.ts';
import { lockWallet } from './ledger.ts';
import { defaultCard, expressCard } from './subscriptions.ts';

/** The wallet's transactions, newest first, `limit` after the keyset `cursor` (an entry id). */
export async function transactions(
  db: Executor,
  memberId: number,
  cursor: number | undefined,
  limit: number,
): Promise<TransactionsPage> {
  const rows = await db
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
}

/** Money spent (parking and plans, less refunds) and added, per month over the last 6 months (UTC). */
export async function spending(db: Executor, memberId: number): Promise<Spending> {
  const rows = await queryRows<{ month: string; spent: number; added: number }>(
    db,
    sql`select to_char(m.month, 'YYYY-MM') as month,
               coalesce(sum(case when l.kind in ('parking', 'plan', 'refund') then -l.amount_cents else 0 end), 0)::int as spent,
               coalesce(sum(case when l.kind in ('top-up', 'auto-reload') then l.amount_cents else 0 end), 0)::int as added
        from generate_series(date_trunc('month', now() at time zone 'UTC') - interval '5 months', date_trunc('month', now() at time zone 'UTC'), interval '1 month') as m(month)
        left join ledger_entries l
          on l.member_id = ${memberId}
         and l.created_at >= m.month at time zone 'UTC'
         and l.created_at < (m.month + interval '1 month') at time zone 'UTC'
        group by m.month order by m.month`,
  );
  return {
    Months: rows.map((r) => ({
      Month: r.month,
      Spent: centsToAmount(Math.max(0, Number(r.spent))),
      Added: centsToAmount(Number(r.added)),
    })),
  };
}

/**
 * Add Money, first half, outside any transaction: charges the saved card (the default unless
 * `paymentMethodId`), or an express payment's one-time card (`expressToken`), through the same
 * charge path, under the provider key `addmoney:<member>:<Idempotency-Key>`. A decline is a
 * 402 with the provider's reason, an unreachable provider a 503; nothing is credited then.
 */
export async function chargeAddMoney(
  ctx: ChargeContext,
  memberId: number,
  key: string,
  r: { amountCents: number; paymentMethodId?: number | undefined; expressToken?: string | undefined },
  keyExpired = false,
) {
  const { card, customerRef } = r.expressToken
    ? await expressCard(ctx, r.expressToken)
    : await defaultCard(ctx.db, memberId, r.paymentMethodId);
  const charged = await chargeCard(
    ctx,
    {
      memberId,
      providerKey: `addmoney:${memberId}:${key}`,
      kind: 'top-up',
      amountCents: r.amountCents,
      description: 'ParkIt wallet top-up',
      providerRef: card.providerRef,
      customerRef,
      idempotencyKey: key,
    },
    { keyExpired },
  );
  if (!charged.ok)
    throw new HttpError(charged.reason === 'declined' ? 402 : 503, charged.message, [
      { field: 'PaymentMethodId', message: charged.message },
    ]);
  return charged;
}

/** Add Money, second half, in the Idempotency-Key's transaction: the charge credited, and the answer. */
export async function recordAddMoney(
  tx: Tx,
  charged: { chargeId: number; chargeRef: string },
): Promise<IdempotentResult<AddMoneyResponse>> {
  const posted = await recordCharge(tx, charged.chargeId, charged.chargeRef);
  return {
    statusCode: 200,
    body: {
      TransactionId: posted.entryId,
      Amount: centsToAmount(posted.amountCents),
      Balance: centsToAmount(posted.balanceCents),
      message: WALLET_TEXTS.moneyAdded,
    },
  };
}

/**
 * Saves the auto-reload settings: Default Add Amount, the trigger (MinBalance) and the switch,
 * which needs a default card to go on (400). Switching it off forgets a pending reload.
 */
export async function saveAutoReload(
  db: Db,
  memberId: number,
  s: { autoReload: boolean; defaultAddAmountCents: number; minBalanceCents: number },
): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await lockWallet(tx, memberId))) throw notFound();
    if (s.autoReload) {
      const [card] = await tx
        .select({ id: paymentMethods.id })
        .from(paymentMethods)
        .where(and(eq(paymentMethods.memberId, memberId), eq(paymentMethods.isDefault, true)));
      if (!card)
        throw new HttpError(400, WALLET_MESSAGES.noCard, [{ field: 'AutoReload', message: WALLET_MESSAGES.noCard }]);
    }
    await ensureSettings(tx, memberId);
    await tx
      .update(walletSettings)
      .set({
        autoReload: s.autoReload,
        defaultAddAmountCents: s.defaultAddAmountCents,
        updatedAt: sql`now()`,
        ...(s.autoReload ? {} : { reloadDueAt: null }),
      })
      .where(eq(walletSettings.memberId, memberId));
    await tx
      .update(members)
      .set({ minBalanceCents: s.minBalanceCents, updatedAt: sql`now()` })
      .where(eq(members.id, memberId));
  });
}
