import { and, eq, sql } from 'drizzle-orm';
import { centsToAmount, formatMoney } from '@parkit/contract';
import { queryRows, type Executor, type Tx } from '../db/client.ts';
import { paymentMethods, walletSettings } from '../db/schema/index.ts';
import { HttpError } from '../lib/http-error.ts';
import { enqueue } from '../infra/outbox-repository.ts';
import type { ReloadContext } from './auto-reload.ts';
import { postEntry } from './ledger.ts';

/** What the member's auto-reload would add now: Default Add Amount, or 0 when it is off or no default card exists. */
export async function autoReloadCents(db: Executor, memberId: number): Promise<number> {
  const [row] = await db
    .select({ amountCents: walletSettings.defaultAddAmountCents })
    .from(walletSettings)
    .innerJoin(paymentMethods, and(eq(paymentMethods.memberId, walletSettings.memberId), eq(paymentMethods.isDefault, true)))
    .where(and(eq(walletSettings.memberId, memberId), eq(walletSettings.autoReload, true)))
    .limit(1);
  return row?.amountCents ?? 0;
}

export type CoverContext = Pick<ReloadContext, 'provider' | 'currency' | 'currencySymbol'>;

/**
 * Auto-reload covering a payment (issue 11): before a debit of `neededCents` in the caller's
 * transaction, locks the member's balance row (so concurrent payments of one member queue and a
 * later one sees the first one's reload) and, when the balance is short and auto-reload would
 * cover it, charges Default Add Amount to the default card and credits it as an 'auto-reload'
 * entry. The provider's idempotency key is the caller's `chargeKey` (the quote's), so a retried
 * request, even after a rollback, never charges the card twice for one payment.
 * Returns true when it reloaded; false when the balance covers or auto-reload cannot (the debit
 * then answers the usual 402). A declined card is a 402 with the card's message.
 */
export async function reloadToCover(tx: Tx, ctx: CoverContext, memberId: number, neededCents: number, chargeKey: string): Promise<boolean> {
  // FOR NO KEY UPDATE, the lock postEntry's UPDATE takes anyway: it does not conflict with the KEY SHARE
  // locks that concurrent requests of this member hold through foreign keys (idempotency key,
  // session rows), so they cannot deadlock with us.
  const [m] = await queryRows<{ balance: number; phone: string }>(tx, sql`select balance_cents as balance, phone from members where id = ${memberId} for no key update`);
  if (!m || Number(m.balance) >= neededCents) return false;
  const [s] = await tx
    .select({ amountCents: walletSettings.defaultAddAmountCents, customerRef: walletSettings.providerCustomerId, providerRef: paymentMethods.providerRef, brand: paymentMethods.brand, last4: paymentMethods.last4 })
    .from(walletSettings)
    .innerJoin(paymentMethods, and(eq(paymentMethods.memberId, walletSettings.memberId), eq(paymentMethods.isDefault, true)))
    .where(and(eq(walletSettings.memberId, memberId), eq(walletSettings.autoReload, true)))
    .limit(1);
  if (!s || Number(m.balance) + s.amountCents < neededCents) return false;
  const result = await ctx.provider.charge({
    customerRef: s.customerRef,
    providerRef: s.providerRef,
    amountCents: s.amountCents,
    currency: ctx.currency,
    description: 'ParkIt wallet auto-reload',
    idempotencyKey: `reload-cover:${memberId}:${chargeKey}`,
  });
  if (!result.ok) throw new HttpError(402, result.message, [{ field: 'Balance', message: result.message }]);
  const posted = await postEntry(tx, { memberId, amountCents: s.amountCents, kind: 'auto-reload', reference: `charge:${result.chargeRef}`, idempotencyKey: null });
  await enqueue(
    tx,
    'sms',
    m.phone,
    `ParkIt: auto-reload added ${ctx.currencySymbol}${formatMoney(centsToAmount(s.amountCents))} to your wallet (${s.brand} •••• ${s.last4}). Balance: ${ctx.currencySymbol}${formatMoney(centsToAmount(posted.balanceCents))}.`,
  );
  return true;
}
