import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { centsToAmount, formatMoney, WALLET_MESSAGES } from '@parkit/contract';
import type { Db } from '../db/client.ts';
import { members, paymentMethods, walletSettings } from '../db/schema/index.ts';
import { enqueue } from '../infra/outbox-repository.ts';
import { postEntry } from './ledger.ts';
import type { PaymentProvider } from './providers/types.ts';

export interface ReloadContext {
  db: Db;
  provider: PaymentProvider;
  currency: string;
  currencySymbol: string;
}

export type ReloadOutcome = 'reloaded' | 'declined' | 'skipped' | 'unavailable' | 'busy';

/**
 * Runs the member's due auto-reload (marked by postEntry), once: the wallet_settings row is claimed
 * with FOR UPDATE SKIP LOCKED, so a concurrent caller or another replica gets 'busy' and moves on;
 * the mark is cleared in the same transaction as the credit. The provider is charged with the
 * idempotency key `reload:<member>:<due time>`, so a retry after a crash cannot charge twice.
 * A decline switches auto-reload off and tells the member (outbox); 'unavailable' leaves the mark
 * for the next job run.
 */
export async function runDueReload(ctx: ReloadContext, memberId: number): Promise<ReloadOutcome> {
  return ctx.db.transaction(async (tx) => {
    const [due] = await tx
      .select({
        dueAt: walletSettings.reloadDueAt,
        autoReload: walletSettings.autoReload,
        amountCents: walletSettings.defaultAddAmountCents,
        customerRef: walletSettings.providerCustomerId,
      })
      .from(walletSettings)
      .where(and(eq(walletSettings.memberId, memberId), isNotNull(walletSettings.reloadDueAt)))
      .for('update', { skipLocked: true });
    if (!due?.dueAt) return 'busy';
    const clear = () => tx.update(walletSettings).set({ reloadDueAt: null, updatedAt: sql`now()` }).where(eq(walletSettings.memberId, memberId));
    const [m] = await tx.select({ balance: members.balanceCents, trigger: members.minBalanceCents, phone: members.phone }).from(members).where(eq(members.id, memberId));
    const [card] = await tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.memberId, memberId), eq(paymentMethods.isDefault, true)));
    if (!m || !card || !due.autoReload || m.balance >= m.trigger) {
      await clear();
      return 'skipped';
    }
    const result = await ctx.provider.charge({
      customerRef: due.customerRef,
      providerRef: card.providerRef,
      amountCents: due.amountCents,
      currency: ctx.currency,
      description: 'ParkIt wallet auto-reload',
      idempotencyKey: `reload:${memberId}:${due.dueAt.getTime()}`,
    });
    if (!result.ok && result.reason === 'unavailable') return 'unavailable';
    if (!result.ok) {
      await tx.update(walletSettings).set({ autoReload: false, reloadDueAt: null, updatedAt: sql`now()` }).where(eq(walletSettings.memberId, memberId));
      await enqueue(tx, 'sms', m.phone, `ParkIt: ${WALLET_MESSAGES.reloadDeclined}. ${result.message}`);
      return 'declined';
    }
    const posted = await postEntry(tx, { memberId, amountCents: due.amountCents, kind: 'auto-reload', reference: `charge:${result.chargeRef}`, idempotencyKey: null });
    await clear();
    await enqueue(
      tx,
      'sms',
      m.phone,
      `ParkIt: auto-reload added ${ctx.currencySymbol}${formatMoney(centsToAmount(due.amountCents))} to your wallet (${card.brand} •••• ${card.last4}). Balance: ${ctx.currencySymbol}${formatMoney(centsToAmount(posted.balanceCents))}.`,
    );
    return 'reloaded';
  });
}

/** The job: every member whose reload is due, a few at a time. */
export async function runAllDueReloads(ctx: ReloadContext, limit = 50): Promise<number> {
  const due = await ctx.db
    .select({ memberId: walletSettings.memberId })
    .from(walletSettings)
    .where(isNotNull(walletSettings.reloadDueAt))
    .limit(limit);
  let done = 0;
  for (const d of due) if ((await runDueReload(ctx, d.memberId)) === 'reloaded') done++;
  return done;
}
